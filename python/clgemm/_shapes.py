"""numpy.matmul's rules for shapes: matrices in the last two dimensions, 1-d operands as a row
(first) or a column (second) that is dropped from the result, and batch dimensions broadcast."""

from dataclasses import dataclass
from typing import Tuple

import numpy as np


@dataclass(frozen=True)
class Shapes:
    m: int
    n: int
    k: int
    batch: Tuple[int, ...]  # the broadcast batch dimensions
    result: Tuple[int, ...]  # the shape numpy.matmul returns
    a_vector: bool  # a is 1-d: a row of one
    b_vector: bool  # b is 1-d: a column of one

    @property
    def count(self) -> int:
        out = 1
        for size in self.batch:
            out *= size
        return out

    @property
    def c_shape(self) -> Tuple[int, ...]:
        return self.batch + (self.m, self.n)


def matmul_shapes(a_shape, b_shape) -> Shapes:
    a_shape, b_shape = tuple(a_shape), tuple(b_shape)
    for name, shape in (("a", a_shape), ("b", b_shape)):
        if len(shape) == 0:
            raise ValueError(f"clgemm.matmul: {name} is 0-d (a scalar) and has no matrix dimensions; "
                             f"scale with * instead")
    a2 = (1,) + a_shape if len(a_shape) == 1 else a_shape
    b2 = b_shape + (1,) if len(b_shape) == 1 else b_shape
    m, k = a2[-2:]
    k_b, n = b2[-2:]
    if k != k_b:
        raise ValueError(f"clgemm.matmul: a has {k} columns but b has {k_b} rows "
                         f"(shapes {a_shape} and {b_shape})")
    try:
        batch = tuple(np.broadcast_shapes(a2[:-2], b2[:-2]))
    except ValueError:
        raise ValueError(f"clgemm.matmul: the batch dimensions {a2[:-2]} of a and {b2[:-2]} of b do not "
                         f"broadcast together (shapes {a_shape} and {b_shape})") from None
    result = batch + (() if len(a_shape) == 1 else (m,)) + (() if len(b_shape) == 1 else (n,))
    return Shapes(m, n, k, batch, result, len(a_shape) == 1, len(b_shape) == 1)


def as_matrices(shape, strides, itemsize, row: bool):
    """A 1-d operand's shape and strides as a one-row (`row`) or one-column matrix."""
    shape, strides = tuple(shape), tuple(strides)
    if len(shape) != 1:
        return shape, strides
    if row:
        return (1,) + shape, (itemsize * max(shape[0], 1),) + strides
    return shape + (1,), strides + (itemsize,)


def c_as_matrices(shape, strides, itemsize, s: Shapes):
    """The result's shape and strides with the dimensions of 1-d operands put back (size 1)."""
    shape, strides = list(shape), list(strides)
    if s.a_vector:
        shape.insert(len(shape) - (0 if s.b_vector else 1), 1)
        strides.insert(len(strides) - (0 if s.b_vector else 1), itemsize * max(s.n, 1))
    if s.b_vector:
        shape.append(1)
        strides.append(itemsize)
    return tuple(shape), tuple(strides)
