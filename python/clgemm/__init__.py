"""clgemm: matrix multiplication on any OpenCL device, called like NumPy.

    import numpy as np, clgemm
    c = clgemm.matmul(np.ones((512, 256), np.float32), np.ones((256, 128), np.float32))

clgemm.matmul follows numpy.matmul (stacks broadcast into one batched call) on NumPy arrays,
which go to the device and back, and on PyOpenCL arrays, which stay in their queue.
clgemm.plan says what a call would run; clgemm.devices lists the devices.
clgemm.matmul_quantized multiplies by weights kept in GGUF blocks (q8_0, q4_0, q4_k, q6_k), which
clgemm.quantize makes and clgemm.dequantize reads back.
"""

from ._clgemm import Error
from ._devices import Device, devices
from ._matmul import Plan, matmul, plan
from ._quantized import FORMATS as quant_formats
from ._quantized import dequantize, matmul_quantized, quantize, row_bytes

__all__ = ["Device", "Error", "Plan", "dequantize", "devices", "matmul", "matmul_quantized", "plan",
           "quant_formats", "quantize", "row_bytes"]
__version__ = "0.1.0"
