"""clgemm.matmul on PyOpenCL arrays: computed in their queue without copies, for every type,
layout, view and stack, with the same checks as on NumPy arrays."""

import numpy as np
import pytest

import clgemm
from conftest import DTYPES, assert_product, random

cl = pytest.importorskip("pyopencl")
cla = pytest.importorskip("pyopencl.array")


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("m,n,k", [(1, 1, 1), (7, 9, 13), (65, 63, 129)])
def test_two_dimensional_stays_on_the_device(rng, queue, dtype, m, n, k):
    a, b = random(rng, (m, k), dtype), random(rng, (k, n), dtype)
    da, db = cla.to_device(queue, a), cla.to_device(queue, b)
    dc = clgemm.matmul(da, db)
    assert isinstance(dc, cla.Array) and dc.queue is queue and dc.dtype == dtype
    assert_product(dc.get(), a, b)


def test_transposed_views_and_offsets(rng, queue):
    a = random(rng, (40, 70), np.float32)
    b = random(rng, (50, 33), np.float32)
    da = cla.to_device(queue, a)
    db = cla.to_device(queue, b)
    left = da.T[5:, :]  # 65×40 column-major, starting 5 columns in: an offset and a transpose
    right = db[10:, :]  # 40×33 from the 10th row on
    got = clgemm.matmul(left, right)
    assert_product(got.get(), a.T[5:, :], b[10:, :])


def test_stack_with_out_alpha_and_beta(rng, queue):
    a, b = random(rng, (3, 17, 9), np.float64), random(rng, (9, 5), np.float64)
    c0 = random(rng, (3, 17, 5), np.float64)
    out = cla.to_device(queue, c0)
    got = clgemm.matmul(cla.to_device(queue, a), cla.to_device(queue, b), out, alpha=-1.5, beta=0.5)
    assert got is out and out.events, "the call's event goes with out"
    assert_product(out.get(), a, b, -1.5, 0.5, c0)


def test_work_pending_on_another_queue_comes_first(rng, queue):
    other = cl.CommandQueue(queue.context)
    a = random(rng, (64, 64), np.float32)
    da = cla.empty(other, a.shape, a.dtype)
    da.set(a, async_=True)  # an upload on another queue, its event on da
    db = cla.to_device(queue, a)
    assert_product(clgemm.matmul(da, db, cla.empty(queue, (64, 64), np.float32)).get(), a, a)


def test_mixed_kinds_and_types_are_refused(rng, queue):
    a = random(rng, (4, 4), np.float32)
    da = cla.to_device(queue, a)
    with pytest.raises(TypeError, match="both as PyOpenCL arrays"):
        clgemm.matmul(da, a)
    with pytest.raises(TypeError, match="must be of one type"):
        clgemm.matmul(da, cla.to_device(queue, a.astype(np.float64)))
    with pytest.raises(TypeError, match="out must be a pyopencl.array.Array"):
        clgemm.matmul(da, da, np.empty((4, 4), np.float32))


def test_out_overlapping_an_operand_is_refused(rng, queue):
    a = random(rng, (8, 8), np.float32)
    da = cla.to_device(queue, a)
    with pytest.raises(clgemm.Error) as error:
        clgemm.matmul(da, da, da)
    assert error.value.status == -19  # OverlappingOperands
    assert np.array_equal(da.get(), a)


def test_strided_views_are_gathered_and_out_scattered(rng, queue):
    big = random(rng, (40, 60), np.float32)
    frame = random(rng, (30, 50), np.float32)
    dbig, dframe = cla.to_device(queue, big), cla.to_device(queue, frame)
    a, b = dbig[::2, ::3][:15, :12], dbig[1::2, 2::4][:12, :10]  # no single layout: gathered once
    a_host, b_host = big[::2, ::3][:15, :12], big[1::2, 2::4][:12, :10]
    out = dframe[1::2, ::5]  # 15×10, of the same kind: computed apart and scattered into its elements
    clgemm.matmul(a, b, out, alpha=2.0, beta=-1.0)
    after = dframe.get()
    assert_product(after[1::2, ::5], a_host, b_host, 2.0, -1.0, frame[1::2, ::5])
    mask = np.ones(frame.shape, bool)
    mask[1::2, ::5] = False
    assert np.array_equal(after[mask], frame[mask]), "an element outside out was written"


def test_plan_on_the_queue_device(rng, queue):
    da = cla.to_device(queue, random(rng, (33, 65), np.float32))
    p = clgemm.plan(da, da.T)
    assert p.parts and "part 0" in str(p)


def test_device_must_be_the_queue_device(rng, queue):
    a = random(rng, (5, 5), np.float32)
    da = cla.to_device(queue, a)
    assert_product(clgemm.matmul(da, da, device=clgemm._devices.device_index(None)).get(), a, a)
    for _ in range(2):  # a call described before checks device= as well
        with pytest.raises(clgemm.Error, match="no OpenCL device matches"):
            clgemm.matmul(da, da, device="no such device")
