"""Bad input raises a clear exception (ValueError or TypeError for what the caller passed,
clgemm.Error with a status for what the library refuses) and writes nothing."""

import threading
import time

import numpy as np
import pytest

import clgemm
from conftest import assert_product, random


def raises_and_leaves_out(error, match, a, b, out, **kw):
    before = out.copy()
    with pytest.raises(error, match=match):
        clgemm.matmul(a, b, out, **kw)
    assert np.array_equal(out, before, equal_nan=True), "out was written"


def test_mismatched_inner_dimensions(rng):
    raises_and_leaves_out(ValueError, "a has 4 columns but b has 5 rows", np.ones((3, 4), np.float32),
                          np.ones((5, 6), np.float32), random(rng, (3, 6), np.float32))


def test_batches_that_do_not_broadcast():
    with pytest.raises(ValueError, match="do not broadcast"):
        clgemm.matmul(np.ones((2, 3, 4), np.float32), np.ones((3, 4, 5), np.float32))


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.complex64, np.bool_])
def test_unsupported_dtype(dtype):
    with pytest.raises(TypeError, match="unsupported dtype"):
        clgemm.matmul(np.ones((2, 2), dtype), np.ones((2, 2), dtype))


def test_read_only_out(rng):
    out = random(rng, (3, 3), np.float32)
    out.flags.writeable = False
    raises_and_leaves_out(ValueError, "read-only", np.ones((3, 3), np.float32), np.ones((3, 3), np.float32), out)


def test_out_of_the_wrong_shape_or_type(rng):
    a, b = np.ones((3, 4), np.float32), np.ones((4, 5), np.float32)
    raises_and_leaves_out(ValueError, r"out has shape \(5, 3\)", a, b, random(rng, (5, 3), np.float32))
    raises_and_leaves_out(TypeError, "out is float64", a, b, random(rng, (3, 5), np.float64))
    with pytest.raises(TypeError, match="numpy.ndarray"):
        clgemm.matmul(a, b, [[0.0] * 5] * 3)


def test_zero_dimensional_operands():
    for a, b in [(np.float32(2), np.ones((2, 2), np.float32)), (np.ones(2, np.float32), np.array(3.0))]:
        with pytest.raises(ValueError, match="0-d"):
            clgemm.matmul(a, b)


def test_scalars_and_math():
    a = np.ones((2, 2), np.float32)
    with pytest.raises(ValueError, match="beta is not 0 but there is no out"):
        clgemm.matmul(a, a, beta=1.0)
    with pytest.raises(TypeError, match="alpha must be a real number"):
        clgemm.matmul(a, a, alpha="2")
    with pytest.raises(ValueError, match="math must be one of"):
        clgemm.matmul(a, a, math="fp16")


def test_device_choice():
    a = np.ones((2, 2), np.float32)
    assert_product(clgemm.matmul(a, a, device=0), a, a)
    assert_product(clgemm.matmul(a, a, device=clgemm.devices()[0].name[:6]), a, a)
    with pytest.raises(clgemm.Error) as error:
        clgemm.matmul(a, a, device=len(clgemm.devices()))
    assert error.value.status == -2 and "device" in str(error.value)
    with pytest.raises(clgemm.Error, match="no OpenCL device matches"):
        clgemm.matmul(a, a, device="no such device")
    with pytest.raises(TypeError, match="device must be"):
        clgemm.matmul(a, a, device=1.5)
    with pytest.raises(ValueError, match="negative"):
        clgemm.matmul(a, a, device=-1)


def test_default_device_follows_the_environment(monkeypatch):
    monkeypatch.setenv("CLGEMM_DEVICE", "no such device")
    with pytest.raises(clgemm.Error, match="no OpenCL device matches"):
        clgemm.matmul(np.ones((2, 2), np.float32), np.ones((2, 2), np.float32))


def test_devices_list():
    found = clgemm.devices()
    assert found and all(d.index == i for i, d in enumerate(found))
    assert all(d.name and d.kind in ("GPU", "CPU", "accelerator", "other") for d in found)


def test_plan_names_the_path(rng):
    a, b = random(rng, (65, 127), np.float32), random(rng, (127, 33), np.float32)
    p = clgemm.plan(a, b)
    assert p.parts and p.parts[0]["path"] in ("direct", "packed", "tall", "wide", "tiny")
    assert p.commands and "part 0" in str(p)
    assert "empty" in str(clgemm.plan(np.ones((0, 3), np.float32), np.ones((3, 2), np.float32)))


def test_the_gil_is_released_while_the_device_works(rng):
    a, b = random(rng, (768, 768), np.float32), random(rng, (768, 768), np.float32)
    clgemm.matmul(a[:64, :64], b[:64, :64])  # builds the kernels first
    worker = threading.Thread(target=clgemm.matmul, args=(a, b))
    start = time.perf_counter()
    worker.start()
    ticks = [start]
    while worker.is_alive():
        ticks.append(time.perf_counter())
    took = ticks[-1] - start
    longest = max(b - a for a, b in zip(ticks, ticks[1:]))
    assert took > 0.02, "the call was too short to tell"
    assert longest < took / 2, f"this thread stood still for {longest:.3f} s of the call's {took:.3f} s"
