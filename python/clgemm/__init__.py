"""clgemm: matrix multiplication on any OpenCL device, called like NumPy.

    import numpy as np, clgemm
    c = clgemm.matmul(np.ones((512, 256), np.float32), np.ones((256, 128), np.float32))

clgemm.matmul follows numpy.matmul (stacks broadcast into one batched call) on NumPy arrays,
which go to the device and back, and on PyOpenCL arrays, which stay in their queue.
clgemm.plan says what a call would run; clgemm.devices lists the devices.
"""

from ._clgemm import Error
from ._devices import Device, devices
from ._matmul import Plan, matmul, plan

__all__ = ["Device", "Error", "Plan", "devices", "matmul", "plan"]
__version__ = "0.1.0"
