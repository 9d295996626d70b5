"""The OpenCL devices clgemm sees, and which one a call runs on."""

from dataclasses import dataclass
from typing import List

import numpy as np

from . import _clgemm


@dataclass(frozen=True)
class Device:
    """One OpenCL device: `index` is what device= takes (as `clgemm devices` lists them)."""

    index: int
    name: str
    platform: str
    vendor: str
    kind: str  # "GPU", "CPU", "accelerator" or "other"
    compute_units: int
    global_mem_bytes: int
    fp64: bool
    architecture: str


def devices() -> List[Device]:
    """Every OpenCL device of every platform, in the order device=N counts them."""
    return [Device(**d) for d in _clgemm.devices()]


_chosen = {}


def device_index(device) -> int:
    """The index of the device `device` names: None (the default: $CLGEMM_DEVICE, then the first
    GPU, then the first CPU device), an index into devices(), or part of a device's name."""
    if device is None:
        spec = ""
    elif isinstance(device, (bool, np.bool_)):
        raise TypeError("clgemm: device must be an index, part of a device's name or None, not a bool")
    elif isinstance(device, (int, np.integer)):
        if device < 0:
            raise ValueError(f"clgemm: device index {device} is negative")
        spec = str(int(device))
    elif isinstance(device, str):
        spec = device
    else:
        raise TypeError(f"clgemm: device must be an index, part of a device's name or None, "
                        f"not {type(device).__name__}")
    # The default follows $CLGEMM_DEVICE, which may change between calls; names and indices do not.
    if spec and spec in _chosen:
        return _chosen[spec]
    index = _clgemm.choose_device(spec)
    if spec:
        _chosen[spec] = index
    return index
