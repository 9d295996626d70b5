"""The element types clgemm multiplies, and the type of a product."""

import numpy as np

# clgemm's names of the types it stores.
_NAMES = {np.dtype(np.float32): "f32", np.dtype(np.float64): "f64", np.dtype(np.float16): "f16"}


def type_name(dtype) -> str:
    """"f32", "f64", "f16" or "bf16"; TypeError for any other type."""
    dtype = np.dtype(dtype)
    if dtype in _NAMES:
        return _NAMES[dtype]
    if dtype.name == "bfloat16" and dtype.itemsize == 2:  # ml_dtypes.bfloat16, where it is installed
        return "bf16"
    raise TypeError(f"clgemm.matmul: unsupported dtype {dtype}; clgemm multiplies float32, float64, float16 and "
                    f"bfloat16 matrices")


def result_dtype(a, b) -> np.dtype:
    """The type of a·b as numpy.matmul gives it, where clgemm computes it."""
    a, b = np.dtype(a), np.dtype(b)
    type_name(a), type_name(b)  # TypeError for types clgemm does not store
    if a == b:
        return a
    try:
        out = np.result_type(a, b)
    except TypeError:
        raise TypeError(f"clgemm.matmul: no common type for {a} and {b}") from None
    type_name(out)
    return out


def c_type_allowed(inputs: np.dtype, out: np.dtype) -> bool:
    """Whether C may be of type `out` for A and B of type `inputs`: the same, or float32 for 16-bit ones."""
    return out == inputs or (out == np.dtype(np.float32) and type_name(inputs) in ("f16", "bf16"))
