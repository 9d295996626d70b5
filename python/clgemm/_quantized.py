"""Quantized weights in GGUF's block formats: clgemm.quantize and clgemm.dequantize on the host,
and clgemm.matmul_quantized, a @ dequant(w).T on the device with w kept in its blocks."""

import numpy as np

from . import _clgemm
from ._devices import device_index

FORMATS = ("q8_0", "q4_0", "q4_k", "q6_k")

# Types the activations and the result may have (bfloat16 is checked by name: ml_dtypes' type).
_ACTIVATIONS = {np.dtype(np.float32): "f32", np.dtype(np.float16): "f16"}


def _format(fn: str, format) -> str:
    if not isinstance(format, str):
        raise TypeError(f"clgemm.{fn}: format must be a string, one of {', '.join(FORMATS)}, not "
                        f"{type(format).__name__}")
    name = format.lower()
    if name not in FORMATS:
        raise ValueError(f"clgemm.{fn}: format must be one of {', '.join(FORMATS)}, not {format!r}")
    return name


def _activation_type(fn: str, what: str, dtype) -> str:
    dtype = np.dtype(dtype)
    if dtype in _ACTIVATIONS:
        return _ACTIVATIONS[dtype]
    if dtype.name == "bfloat16" and dtype.itemsize == 2:
        return "bf16"
    raise TypeError(f"clgemm.{fn}: {what} is {dtype}; quantized weights multiply float32, float16 and bfloat16 "
                    f"activations (convert with .astype(np.float32))")


def _k(fn: str, format: str, k) -> int:
    if isinstance(k, (bool, np.bool_)) or not isinstance(k, (int, np.integer)) or k < 0:
        raise ValueError(f"clgemm.{fn}: k must be a non-negative integer, not {k!r}")
    block = _clgemm.quant_block_elements(format)
    if k % block:
        raise ValueError(f"clgemm.{fn}: k is {k}, which is not a multiple of {block}, the block of {format}")
    return int(k)


def _weights(fn: str, w, format: str, k: int) -> np.ndarray:
    w = np.asarray(w)
    if w.dtype != np.uint8:
        raise TypeError(f"clgemm.{fn}: w must be a uint8 array of blocks, not {w.dtype}")
    if w.ndim < 1:
        raise ValueError(f"clgemm.{fn}: w must have a dimension of row bytes")
    need = row_bytes(format, k)
    if w.shape[-1] < need:
        raise ValueError(f"clgemm.{fn}: w's rows are {w.shape[-1]} bytes, but {k} weights in {format} take {need}")
    return np.ascontiguousarray(w)


def row_bytes(format: str, k: int) -> int:
    """The bytes one row of k weights takes in `format` (k a multiple of its block)."""
    format = _format("row_bytes", format)
    return _clgemm.quant_row_bytes(format, _k("row_bytes", format, k))


def quantize(x, format: str) -> np.ndarray:
    """x's rows (its last dimension, of k values) in GGUF blocks: a uint8 array of x's shape with
    the last dimension replaced by row_bytes(format, k), exactly as a GGUF file stores the tensor.
    k must be a multiple of the format's block (32 for q8_0 and q4_0, 256 for q4_k and q6_k)."""
    format = _format("quantize", format)
    x = np.asarray(x)
    if x.dtype.kind not in "fiu":
        raise TypeError(f"clgemm.quantize: x must hold real numbers, not {x.dtype}")
    if x.ndim < 1:
        raise ValueError("clgemm.quantize: x must have at least one dimension (its rows' values)")
    k = _k("quantize", format, x.shape[-1])
    x = np.ascontiguousarray(x, dtype=np.float32)
    rows = x.size // k if k else int(np.prod(x.shape[:-1]))
    out = np.empty(x.shape[:-1] + (row_bytes(format, k),), np.uint8)
    if rows and k:
        _clgemm.quantize_into(x.ctypes.data, rows, k, format, out.ctypes.data)
    return out


def dequantize(w, format: str, k: int) -> np.ndarray:
    """The float32 weights that w's blocks stand for (exactly): w's shape with its last dimension,
    each row's bytes (at least row_bytes(format, k); bytes past the blocks are not read), replaced
    by k."""
    format = _format("dequantize", format)
    k = _k("dequantize", format, k)
    w = _weights("dequantize", w, format, k)
    rows = int(np.prod(w.shape[:-1]))
    out = np.empty(w.shape[:-1] + (k,), np.float32)
    if rows and k:
        _clgemm.dequantize_into(w.ctypes.data, rows, k, format, w.shape[-1], out.ctypes.data)
    return out


def _scalar(name, value):
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"clgemm.matmul_quantized: {name} must be a real number, not {type(value).__name__}")
    return float(value)


def matmul_quantized(a, w, format: str, *, k: int, out=None, alpha=1.0, beta=0.0, device=None):
    """alpha · (a @ dequant(w).T) + beta · out, with w kept in its blocks and dequantized on the
    device as the product is computed.

    a: float32, float16 or bfloat16 activations of shape (..., k); the leading dimensions broadcast
    as numpy.matmul's do against the one matrix of weights (a 1-d a gives a 1-d result).
    w: uint8, shape (n, row_bytes): n rows of k weights in `format` (q8_0, q4_0, q4_k, q6_k), each
    row's blocks at its start, as clgemm.quantize makes them or a GGUF file stores a tensor.
    k: the weights per row (a multiple of the format's block; a's last dimension).
    out: the array to write, shape a.shape[:-1] + (n,), of float32, float16 or bfloat16; required
    where beta is not 0. The result is of a's type without it.
    device: as for clgemm.matmul.

    NumPy arrays only: a, w and out are copied to the device and the result back. Raises
    ValueError and TypeError for shapes, types and arguments, clgemm.Error for what the library
    refuses or the device reports.
    """
    format = _format("matmul_quantized", format)
    k = _k("matmul_quantized", format, k)
    alpha, beta = _scalar("alpha", alpha), _scalar("beta", beta)
    a = np.asarray(a)
    a_type = _activation_type("matmul_quantized", "a", a.dtype)
    if a.ndim < 1 or a.shape[-1] != k:
        raise ValueError(f"clgemm.matmul_quantized: a has shape {a.shape}, but its last dimension must be k = {k}")
    w = _weights("matmul_quantized", w, format, k)
    if w.ndim != 2:
        raise ValueError(f"clgemm.matmul_quantized: w has shape {w.shape}; it must be (n, row_bytes)")
    n = w.shape[0]
    shape = a.shape[:-1] + (n,)
    if out is None:
        if beta != 0:
            raise ValueError("clgemm.matmul_quantized: beta is not 0 but there is no out to scale; pass out=")
        c_type, result = a_type, np.empty(shape, a.dtype)
    else:
        if not isinstance(out, np.ndarray):
            raise TypeError(f"clgemm.matmul_quantized: out must be a numpy.ndarray, not {type(out).__name__}")
        if out.shape != shape:
            raise ValueError(f"clgemm.matmul_quantized: out has shape {out.shape}, but the product has shape {shape}")
        c_type = _activation_type("matmul_quantized", "out", out.dtype)
        if not out.flags.writeable:
            raise ValueError("clgemm.matmul_quantized: out is read-only")
        result = out
    index = device_index(device)
    m = int(np.prod(a.shape[:-1]))
    if m == 0 or n == 0:
        return result
    # Every row of a's stack multiplies the same weights: one call of M = all the rows.
    a = np.ascontiguousarray(a).reshape(m, k)
    work = result if result.flags.c_contiguous else (np.ascontiguousarray(result) if beta != 0 else
                                                      np.empty(shape, result.dtype))
    _clgemm.gemm_quantized_host(index, m, n, k, alpha, beta, a.ctypes.data, a_type, w.ctypes.data, format,
                                w.shape[1], work.ctypes.data, c_type)
    if work is not result:
        np.copyto(result, work)
    return result
