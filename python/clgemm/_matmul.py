"""clgemm.matmul and clgemm.plan: numpy.matmul's semantics on NumPy arrays (copied to the device
and back) and on PyOpenCL arrays (computed where they are, in their queue)."""

import sys
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple

import numpy as np

from . import _clgemm
from ._devices import device_index
from ._dtypes import c_type_allowed, result_dtype, type_name
from ._layout import Matrices, describe
from ._shapes import Shapes, as_matrices, c_as_matrices, matmul_shapes

_MATHS = ("fp32", "3xtf32", "tf32")


@dataclass
class Plan:
    """What a call would run: its parts (blocks of C, each with a path and kernel parameters) and
    the commands it enqueues. str() gives the same text as `clgemm plan`."""

    parts: List[Dict[str, Any]] = field(default_factory=list)
    commands: List[Dict[str, Any]] = field(default_factory=list)
    text: str = ""

    def __str__(self) -> str:
        return self.text


def _pyopencl_array_type():
    """pyopencl.array.Array where PyOpenCL is imported (its arrays can only exist then), else None."""
    module = sys.modules.get("pyopencl.array")
    return getattr(module, "Array", None)


def _check_scalars(alpha, beta, math):
    for name, value in (("alpha", alpha), ("beta", beta)):
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
            raise TypeError(f"clgemm.matmul: {name} must be a real number, not {type(value).__name__}")
    if math not in _MATHS:
        raise ValueError(f"clgemm.matmul: math must be one of {', '.join(_MATHS)}, not {math!r}")


def _spec(s: Shapes, a: Matrices, b: Matrices, c: Matrices, alpha, beta, ab_type, c_type, math,
          offsets=(0, 0, 0)):
    spec = _clgemm.CallSpec()
    spec.layout = 101 if c.order == "R" else 102
    spec.trans_a, spec.trans_b = a.order != c.order, b.order != c.order
    spec.m, spec.n, spec.k = s.m, s.n, s.k
    spec.alpha, spec.beta = float(alpha), float(beta)
    spec.a_offset, spec.lda, spec.a_stride = offsets[0], a.ld, a.stride
    spec.b_offset, spec.ldb, spec.b_stride = offsets[1], b.ld, b.stride
    spec.c_offset, spec.ldc, spec.c_stride = offsets[2], c.ld, c.stride
    spec.batch = s.count
    spec.ab_type, spec.c_type, spec.math = ab_type, c_type, math
    return spec


def _check_out(out, s: Shapes, dtype, beta, kind):
    if out is None:
        if beta != 0:
            raise ValueError("clgemm.matmul: beta is not 0 but there is no out to scale; pass out=")
        return
    if tuple(out.shape) != s.result:
        raise ValueError(f"clgemm.matmul: out has shape {tuple(out.shape)}, but the product has shape {s.result}")
    if not c_type_allowed(dtype, np.dtype(out.dtype)):
        raise TypeError(f"clgemm.matmul: out is {out.dtype} but the product of {dtype} matrices is {dtype}"
                        + (" (or float32)" if type_name(dtype) in ("f16", "bf16") else ""))
    if kind == "numpy" and not out.flags.writeable:
        raise ValueError("clgemm.matmul: out is read-only")


# ---- NumPy arrays -------------------------------------------------------------------------------

@dataclass
class _HostCall:
    spec: Any
    device: int
    a: np.ndarray
    b: np.ndarray
    work: np.ndarray  # where the device's C lands: out itself, or a temporary copied to it
    target: Optional[np.ndarray]  # out as (batch..., m, n), or None
    result: np.ndarray  # what matmul returns
    spans: tuple = (0, 0, 0)  # elements of A, B and C from the first read to the last, plus one


def _host_operand(x: np.ndarray, s: Shapes, rows: int, cols: int, prefer: str):
    """x (already as matrices) and how it is read: in place, or one copy where it cannot be, or
    where its strides spread it over more than twice the memory its elements need."""
    m = describe(x.shape, x.strides, x.itemsize, s.batch, prefer)
    needed = rows * cols * max(s.count, 1)
    if m is None or m.span > 2 * needed + 1024:
        x = np.ascontiguousarray(np.broadcast_to(x, s.batch + (rows, cols)))
        m = describe(x.shape, x.strides, x.itemsize, s.batch, prefer)
    return x, m


def _prepare_host(a, b, out, alpha, beta, math, device) -> Optional[_HostCall]:
    _check_scalars(alpha, beta, math)
    a, b = np.asarray(a), np.asarray(b)
    if out is not None and not isinstance(out, np.ndarray):
        raise TypeError(f"clgemm.matmul: out must be a numpy.ndarray for NumPy operands, not {type(out).__name__}")
    dtype = result_dtype(a.dtype, b.dtype)
    s = matmul_shapes(a.shape, b.shape)
    _check_out(out, s, dtype, beta, "numpy")
    index = device_index(device)
    # numpy.matmul converts both operands to the type of the product.
    a, b = a.astype(dtype, copy=False), b.astype(dtype, copy=False)
    c_dtype = np.dtype(out.dtype) if out is not None else dtype
    if s.m == 0 or s.n == 0 or s.count == 0:
        return _HostCall(None, index, a, b, None, None, out if out is not None else np.empty(s.result, c_dtype))
    target = None
    c = None
    if out is not None:
        shape, strides = c_as_matrices(out.shape, out.strides, out.itemsize, s)
        target = np.lib.stride_tricks.as_strided(out, shape, strides)
        c = describe(target.shape, target.strides, target.itemsize, s.batch)
        # Read back in place only where C's span holds its elements and nothing else.
        if c is not None and c.span != target.size:
            c = None
    if c is None:
        work = np.empty(s.c_shape, c_dtype)
        if target is not None and beta != 0:
            work[...] = target
        c = describe(work.shape, work.strides, work.itemsize, s.batch)
    else:
        work = target
    a_view = np.lib.stride_tricks.as_strided(a, *as_matrices(a.shape, a.strides, a.itemsize, row=True))
    b_view = np.lib.stride_tricks.as_strided(b, *as_matrices(b.shape, b.strides, b.itemsize, row=False))
    a_view, am = _host_operand(a_view, s, s.m, s.k, c.order)
    b_view, bm = _host_operand(b_view, s, s.k, s.n, c.order)
    spec = _spec(s, am, bm, c, alpha, beta, type_name(dtype), type_name(c_dtype), math)
    result = out if out is not None else work.reshape(s.result)
    return _HostCall(spec, index, a_view, b_view, work, target, result, (am.span, bm.span, c.span))


def _address(x: np.ndarray) -> int:
    return x.__array_interface__["data"][0]


def _run_host(call: _HostCall):
    if call.spec is None:
        return call.result
    _clgemm.gemm_host(call.device, call.spec, _address(call.a), call.a.itemsize * call.spans[0],
                      _address(call.b), call.b.itemsize * call.spans[1], _address(call.work),
                      call.work.itemsize * call.spans[2], call.spec.beta != 0)
    if call.target is not None and call.work is not call.target:
        np.copyto(call.target, call.work)
    return call.result


# ---- PyOpenCL arrays ----------------------------------------------------------------------------

@dataclass
class _DeviceCall:
    spec: Any
    queue: Any
    a: Any
    b: Any
    out: Any
    # Operands in a layout clgemm cannot read, gathered into C-ordered copies before the call, and
    # an out it cannot write, whose result is computed into a C-ordered array and scattered back.
    copies: Tuple[bool, bool, bool] = (False, False, False)


def _c_strides(shape, itemsize):
    strides, step = [], itemsize
    for size in reversed(shape):
        strides.append(step)
        step *= max(size, 1)
    return tuple(reversed(strides))


def _device_operand(x, s: Shapes, shaped, prefer: str):
    """How clgemm reads x (`shaped` puts its shape and strides in matrix form), and whether it
    reads a C-ordered copy of it instead: where x's own layout is not one it reads in place."""
    itemsize = x.dtype.itemsize
    m = describe(*shaped(x.shape, x.strides), itemsize, s.batch, prefer)
    if m is not None and x.offset % itemsize == 0:
        return m, False
    return describe(*shaped(x.shape, _c_strides(x.shape, itemsize)), itemsize, s.batch, prefer), True


# Calls seen before, by everything their description depends on: a call on arrays of the same
# shapes, strides, offsets and types, with the same scalars, reuses the description instead of
# working it out again (most of the host time of a small call). The queue is not part of the key,
# so that the cache keeps no queue (nor its context) alive; device= is checked on every call.
_described = {}
_DESCRIBED_MOST = 256


def _prepare_device(a, b, out, alpha, beta, math, device, array_type) -> Optional[_DeviceCall]:
    for name, x in (("a", a), ("b", b)):
        if not isinstance(x, array_type):
            raise TypeError(f"clgemm.matmul: {name} is a {type(x).__name__} and the other operand a "
                            f"pyopencl.array.Array; pass both as PyOpenCL arrays or both as NumPy arrays")
    if out is not None and not isinstance(out, array_type):
        raise TypeError(f"clgemm.matmul: out must be a pyopencl.array.Array for PyOpenCL operands, "
                        f"not {type(out).__name__}")
    queue = out.queue if out is not None and out.queue is not None else a.queue
    key = (a.shape, a.strides, a.offset, a.dtype, b.shape, b.strides, b.offset, b.dtype,
           None if out is None else (out.shape, out.strides, out.offset, out.dtype),
           type(alpha), alpha, type(beta), beta, math)
    try:
        known = _described.get(key)
    except TypeError:  # an unhashable argument: the checks below say what is wrong with it
        known = key = None
    if known is not None and queue is not None:
        _check_device(device, queue)
        spec, result, c_dtype, copies = known
        if out is None:
            import pyopencl.array as cla

            out = cla.empty(queue, result, c_dtype)
        return _DeviceCall(spec, queue, a, b, out, copies)
    call = _describe_device(a, b, out, alpha, beta, math, device, queue)
    if key is not None:
        if len(_described) >= _DESCRIBED_MOST:
            _described.clear()
        _described[key] = (call.spec, tuple(call.out.shape), call.out.dtype, call.copies)
    return call


def _check_device(device, queue):
    if device is None:
        return
    on = _clgemm.device_of_queue(queue.int_ptr)
    if device_index(device) != on:
        raise ValueError(f"clgemm.matmul: device={device!r} is not the device of the arrays' queue "
                         f"(device {on})")


def _describe_device(a, b, out, alpha, beta, math, device, queue) -> _DeviceCall:
    import pyopencl.array as cla

    _check_scalars(alpha, beta, math)
    if a.dtype != b.dtype:
        raise TypeError(f"clgemm.matmul: a is {a.dtype} and b is {b.dtype}; PyOpenCL operands must be of one type "
                        f"(convert one with .astype)")
    dtype = result_dtype(a.dtype, b.dtype)
    s = matmul_shapes(a.shape, b.shape)
    _check_out(out, s, dtype, beta, "pyopencl")
    if queue is None:
        raise ValueError("clgemm.matmul: the PyOpenCL arrays have no queue to compute in")
    _check_device(device, queue)
    c_dtype = np.dtype(out.dtype) if out is not None else dtype
    if out is None:
        out = cla.empty(queue, s.result, c_dtype)
    if s.m == 0 or s.n == 0 or s.count == 0:
        return _DeviceCall(None, queue, a, b, out)
    item = out.dtype.itemsize
    c, c_copy = _device_operand(out, s, lambda shape, strides: c_as_matrices(shape, strides, item, s), "R")
    am, a_copy = _device_operand(a, s, lambda shape, strides: as_matrices(shape, strides, a.dtype.itemsize, True),
                                 c.order)
    bm, b_copy = _device_operand(b, s, lambda shape, strides: as_matrices(shape, strides, b.dtype.itemsize, False),
                                 c.order)
    offsets = tuple(0 if copy else x.offset // x.dtype.itemsize for x, copy in ((a, a_copy), (b, b_copy), (out, c_copy)))
    spec = _spec(s, am, bm, c, alpha, beta, type_name(dtype), type_name(c_dtype), math, offsets)
    return _DeviceCall(spec, queue, a, b, out, (a_copy, b_copy, c_copy))


def _buffer(x) -> int:
    data = x.base_data
    return 0 if data is None else data.int_ptr


def _run_device(call: _DeviceCall):
    if call.spec is None:
        return call.out
    import pyopencl as cl

    a, b, c = call.a, call.b, call.out
    if any(call.copies):
        from pyopencl.array import empty

        from ._device_copy import gathered, scatter

        a = gathered(call.queue, a) if call.copies[0] else a
        b = gathered(call.queue, b) if call.copies[1] else b
        if call.copies[2]:
            c = gathered(call.queue, c) if call.spec.beta != 0 else empty(call.queue, c.shape, c.dtype)
    # The operands' pending work (on this queue or another) finishes before the call starts: a
    # marker that waits for what has not completed yet, which the in-order queue puts before the
    # call's commands. (Events that completed long ago, such as an upload's, cost no enqueue.)
    if a.events or b.events or c.events:
        pending = [e for e in (*a.events, *b.events, *c.events)
                   if e.command_execution_status != cl.command_execution_status.COMPLETE]
        if pending:
            cl.enqueue_marker(call.queue, wait_for=pending)
    event = _clgemm.gemm_buffers(call.queue.int_ptr, call.spec, _buffer(a), _buffer(b), _buffer(c))
    if event:
        c.add_event(cl.Event.from_int_ptr(event, retain=False))
    if c is not call.out:
        scatter(call.queue, c, call.out)
    return call.out


# ---- the API ------------------------------------------------------------------------------------

def _prepare(a, b, out, alpha, beta, math, device):
    array_type = _pyopencl_array_type()
    if array_type is not None and any(isinstance(x, array_type) for x in (a, b, out)):
        return _prepare_device(a, b, out, alpha, beta, math, device, array_type)
    return _prepare_host(a, b, out, alpha, beta, math, device)


def matmul(a, b, out=None, *, alpha=1.0, beta=0.0, math="fp32", device=None):
    """alpha · (a @ b) + beta · out, with numpy.matmul's rules for shapes and types.

    a, b: NumPy arrays (or anything numpy.asarray takes), or PyOpenCL arrays. Matrices are the last
    two dimensions; the dimensions before them broadcast, and a stack becomes one strided-batched
    call. A 1-d a is a row and a 1-d b a column, dropped from the result as numpy.matmul does.
    Types: float32, float64, float16, and bfloat16 (ml_dtypes); operands of two types are converted
    to the type numpy.matmul would give (NumPy arrays only). out may be float32 for 16-bit operands.
    out: the array to write (its shape is the product's); required where beta is not 0.
    math: "fp32" (default), "3xtf32" or "tf32" (NVIDIA tensor cores; float32 elsewhere).
    device: an index into clgemm.devices() or part of a device's name; default $CLGEMM_DEVICE, then
    the first GPU, then the first CPU device. PyOpenCL arrays compute on their queue's device.

    NumPy arrays are copied to the device and the result back; the call returns when it is done.
    PyOpenCL arrays stay on the device: the call is enqueued on their queue (out's, else a's) and
    returns at once; out's events carry its completion. Raises ValueError and TypeError for shapes,
    types and arguments, clgemm.Error (with .status) for what the library refuses or the device
    reports.
    """
    call = _prepare(a, b, out, alpha, beta, math, device)
    return _run_device(call) if isinstance(call, _DeviceCall) else _run_host(call)


def plan(a, b, out=None, *, alpha=1.0, beta=0.0, math="fp32", device=None) -> Plan:
    """What clgemm.matmul would run for these arguments, without running it (nothing is copied)."""
    call = _prepare(a, b, out, alpha, beta, math, device)
    if call.spec is None:
        return Plan(text="nothing to compute: the product is empty\n")
    if isinstance(call, _DeviceCall):
        index = _clgemm.device_of_queue(call.queue.int_ptr)
    else:
        index = call.device
    d = _clgemm.plan(index, call.spec)
    return Plan(d["parts"], d["commands"], d["text"])
