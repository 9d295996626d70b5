"""clgemm.matmul on NumPy arrays against a float64 reference: every type, shapes that fit no tile,
stacks that broadcast, every memory order, views, and out= with alpha and beta."""

import numpy as np
import pytest

import clgemm
from conftest import BFLOAT16, DTYPES, assert_product, random

SHAPES = [(1, 1, 1), (7, 9, 13), (63, 65, 127), (129, 1, 65), (1, 257, 33), (33, 1000, 7)]


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("m,n,k", SHAPES)
def test_two_dimensional(rng, dtype, m, n, k):
    a, b = random(rng, (m, k), dtype), random(rng, (k, n), dtype)
    c = clgemm.matmul(a, b)
    assert isinstance(c, np.ndarray) and c.dtype == dtype and c.shape == (m, n)
    assert_product(c, a, b)


@pytest.mark.parametrize("order_a", ["C", "F"])
@pytest.mark.parametrize("order_b", ["C", "F"])
@pytest.mark.parametrize("order_out", ["C", "F"])
def test_memory_orders(rng, order_a, order_b, order_out):
    a = np.asarray(random(rng, (65, 31), np.float32), order=order_a)
    b = np.asarray(random(rng, (31, 127), np.float32), order=order_b)
    c0 = np.asarray(random(rng, (65, 127), np.float32), order=order_out)
    out = c0.copy(order=order_out)
    got = clgemm.matmul(a, b, out, alpha=0.5, beta=-2.0)
    assert got is out
    assert_product(out, a, b, 0.5, -2.0, c0)


def test_views_without_and_with_copies(rng):
    big = random(rng, (200, 300), np.float64)
    cases = [
        (big[3:70, 5:40], big[10:45, 2:99]),  # rows of a larger array: read in place
        (big[::2, ::3][:50, :40], big[::3, ::2][:40, :60]),  # strided both ways: one copy each
        (big[::-1, :][:30, :20], big[:, ::-1][:20, :25]),  # negative strides: one copy each
        (big[:40, :50].T, big[:40, :30]),  # a transposed view
    ]
    for a, b in cases:
        assert_product(clgemm.matmul(a, b), a, b)


def test_out_view_writes_only_its_elements(rng):
    frame = random(rng, (50, 60), np.float32)
    before = frame.copy()
    window = frame[5:38, 7:52:2]  # columns two apart: C is computed apart and copied in
    a, b = random(rng, (33, 17), np.float32), random(rng, (17, 23), np.float32)
    clgemm.matmul(a, b, window, alpha=1.5, beta=0.25)
    assert_product(window, a, b, 1.5, 0.25, before[5:38, 7:52:2])
    mask = np.ones(frame.shape, bool)
    mask[5:38, 7:52:2] = False
    assert np.array_equal(frame[mask], before[mask]), "an element outside out was written"


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_stacks_broadcast(rng, dtype):
    a = random(rng, (5, 1, 7, 9), dtype)
    b = random(rng, (3, 9, 4), dtype)
    c = clgemm.matmul(a, b)
    assert c.shape == (5, 3, 7, 4)
    assert_product(c, a, b)
    shared = random(rng, (9, 6), dtype)  # one B for every item of a stack: a batch stride of 0
    assert_product(clgemm.matmul(a, shared), a, shared)


def test_stack_in_fortran_order_and_out_with_beta(rng):
    a = np.asfortranarray(random(rng, (4, 3, 13, 7), np.float32))  # no single batch stride: a copy
    b = random(rng, (3, 7, 5), np.float32).transpose(0, 2, 1).copy().transpose(0, 2, 1)
    c0 = random(rng, (4, 3, 13, 5), np.float32)
    out = c0.copy()
    clgemm.matmul(a, b, out, beta=1.0)
    assert_product(out, a, b, 1.0, 1.0, c0)


def test_vectors_as_numpy_treats_them(rng):
    a, b, x, y = (random(rng, s, np.float32) for s in [(6, 8), (8, 5), (8,), (8,)])
    for left, right in [(x, b), (a, y), (x, y), (random(rng, (3, 6, 8), np.float32), y)]:
        got = clgemm.matmul(left, right)
        assert got.shape == np.matmul(left, right).shape
        assert_product(got, left, right)


def test_mixed_types_follow_numpy(rng):
    a, b = random(rng, (9, 11), np.float16), random(rng, (11, 7), np.float32)
    c = clgemm.matmul(a, b)
    assert c.dtype == np.float32
    assert_product(c, a.astype(np.float32), b)


@pytest.mark.parametrize("dtype", [np.dtype(np.float16)] + ([BFLOAT16] if BFLOAT16 else []), ids=str)
def test_sixteen_bit_operands_into_float32(rng, dtype):
    a, b = random(rng, (17, 33), dtype), random(rng, (33, 9), dtype)
    out = np.full((17, 9), np.nan, np.float32)
    clgemm.matmul(a, b, out)
    assert_product(out, a, b)


def test_empty_and_zero_depth(rng):
    assert clgemm.matmul(np.ones((0, 3), np.float32), np.ones((3, 4), np.float32)).shape == (0, 4)
    assert clgemm.matmul(np.ones((2, 0, 3), np.float32), np.ones((3, 4), np.float32)).shape == (2, 0, 4)
    out = random(rng, (5, 4), np.float32)
    c0 = out.copy()
    clgemm.matmul(np.ones((5, 0), np.float32), np.ones((0, 4), np.float32), out, beta=0.5)
    assert np.allclose(out, 0.5 * c0)


def test_nan_in_out_is_not_read_when_beta_is_zero(rng):
    a, b = random(rng, (8, 8), np.float32), random(rng, (8, 8), np.float32)
    out = np.full((8, 8), np.nan, np.float32)
    clgemm.matmul(a, b, out)
    assert_product(out, a, b)


def test_out_may_be_an_operand(rng):
    a = random(rng, (16, 16), np.float32)
    a0 = a.copy()
    clgemm.matmul(a, a, a)
    assert_product(a, a0, a0)


def test_three_tf32_keeps_float32_accuracy(rng):
    a, b = random(rng, (70, 40), np.float32), random(rng, (40, 50), np.float32)
    assert_product(clgemm.matmul(a, b, math="3xtf32"), a, b)
