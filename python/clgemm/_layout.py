"""How a stack of matrices lies in memory, in the terms of a strided-batched GEMM call.

A stack is given by its shape (..., rows, cols) and its strides in bytes, as NumPy and PyOpenCL
arrays give them. clgemm reads each matrix row-major or column-major with a leading dimension,
and the matrices of a batch at one fixed stride from each other. This module says whether a
stack, broadcast to the call's batch shape, can be read that way without a copy, and how.
"""

from dataclasses import dataclass
from typing import Optional, Sequence, Tuple


@dataclass(frozen=True)
class Matrices:
    """A stack of matrices as clgemm reads it (every count in elements)."""

    order: str  # "R": rows contiguous (row-major); "C": columns contiguous (column-major)
    ld: int  # leading dimension: elements from one row (R) or column (C) to the next
    stride: int  # elements from one matrix of the batch to the next (0: one matrix for all)
    span: int  # elements from the first one read to the last, plus one (0 when none is read)


def broadcast_strides(shape: Sequence[int], strides: Sequence[int], batch: Sequence[int]) -> Tuple[int, ...]:
    """The strides of the batch dimensions of a stack broadcast to `batch`: 0 where it repeats."""
    own = len(shape) - 2
    out = []
    for i, size in enumerate(batch):
        j = i - (len(batch) - own)
        if j < 0 or shape[j] == 1:
            out.append(0)
        else:
            out.append(strides[j])
    return tuple(out)


def batch_stride(batch: Sequence[int], strides: Sequence[int]) -> Optional[int]:
    """The one stride that reaches matrix i (counted in C order over `batch`) at i·stride, or None."""
    dims = [(size, stride) for size, stride in zip(batch, strides) if size > 1]
    if not dims:
        return 0
    for (size_outer, stride_outer), (size_inner, stride_inner) in zip(dims, dims[1:]):
        if stride_outer != stride_inner * size_inner:
            return None
    return dims[-1][1]


def describe(shape: Sequence[int], strides: Sequence[int], itemsize: int, batch: Sequence[int],
             prefer: str = "R") -> Optional[Matrices]:
    """How clgemm reads the stack, broadcast to `batch`, or None where it cannot without a copy.

    Negative strides, strides that are not whole elements, and batches that no single stride
    describes all need a copy. Where a matrix could be read either way (a row or a column), the
    order `prefer` is taken.
    """
    if any(s < 0 or s % itemsize for s in strides):
        return None
    rows, cols = shape[-2], shape[-1]
    if rows == 0 or cols == 0:  # nothing to read: any description serves
        return Matrices(prefer, max(cols if prefer == "R" else rows, 1), 0, 0)
    row_step, col_step = strides[-2] // itemsize, strides[-1] // itemsize
    stride = batch_stride(batch, broadcast_strides(shape, strides, batch))
    if stride is None:
        return None
    stride //= itemsize
    options = []
    if (col_step == 1 or cols <= 1) and (rows <= 1 or row_step >= max(cols, 1)):
        options.append(("R", row_step if rows > 1 else max(cols, 1)))
    if (row_step == 1 or rows <= 1) and (cols <= 1 or col_step >= max(rows, 1)):
        options.append(("C", col_step if cols > 1 else max(rows, 1)))
    if not options:
        return None
    order, ld = next((o for o in options if o[0] == prefer), options[0])
    count = 1
    for size in batch:
        count *= size
    if count == 0:
        span = 0
    elif order == "R":
        span = (rows - 1) * ld + cols + (count - 1) * stride
    else:
        span = (cols - 1) * ld + rows + (count - 1) * stride
    return Matrices(order, ld, stride, span)
