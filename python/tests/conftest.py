"""Shared pieces of the Python tests: fresh random inputs (their seed printed on failure), the
float64 reference and its tolerance, and a PyOpenCL queue on clgemm's default device."""

import os
import secrets

import numpy as np
import pytest

import clgemm

try:
    import ml_dtypes

    BFLOAT16 = np.dtype(ml_dtypes.bfloat16)
except ImportError:  # bfloat16 needs an array type that has it
    BFLOAT16 = None

DTYPES = [np.dtype(np.float32), np.dtype(np.float64), np.dtype(np.float16)] + ([BFLOAT16] if BFLOAT16 else [])


@pytest.fixture
def rng(request):
    seed = int(os.environ.get("CLGEMM_TEST_SEED", secrets.randbelow(2**32)))
    request.node.user_properties.append(("seed", seed))
    print(f"seed {seed} (CLGEMM_TEST_SEED={seed} repeats it)")
    return np.random.default_rng(seed)


def random(rng, shape, dtype):
    """Values in [-1, 1), stored as `dtype`."""
    return rng.uniform(-1, 1, shape).astype(dtype)


def fp64(x):
    return np.asarray(x).astype(np.float64)


def assert_product(got, a, b, alpha=1.0, beta=0.0, c=None):
    """got is alpha·a@b + beta·c within what the types allow: float32 sums (float64 ones for
    float64 operands) of k products, and the rounding of the result to its own type."""
    got = np.asarray(got)
    ref = alpha * np.matmul(fp64(a), fp64(b))
    scale = abs(alpha) * np.matmul(np.abs(fp64(a)), np.abs(fp64(b)))
    if c is not None and beta != 0:
        ref = ref + beta * fp64(c)
        scale = scale + abs(beta) * np.abs(fp64(c))
    k = np.shape(a)[-1]
    compute = np.finfo(np.float64 if np.result_type(a.dtype, b.dtype) == np.float64 else np.float32).eps
    stored = 2.0 ** -7 if got.dtype == BFLOAT16 else np.finfo(got.dtype).eps
    bound = (k + 2) * compute * scale + stored * np.abs(ref) + np.finfo(np.float64).tiny
    assert got.shape == ref.shape, (got.shape, ref.shape)
    err = np.abs(fp64(got) - ref)
    worst = np.unravel_index(np.argmax(err - bound), err.shape) if err.size else None
    assert np.all(err <= bound), f"error {err[worst]} at {worst} exceeds {bound[worst]}"


@pytest.fixture(scope="session")
def queue():
    cl = pytest.importorskip("pyopencl")
    info = clgemm.devices()[clgemm._devices.device_index(None)]
    device = next(d for p in cl.get_platforms() for d in p.get_devices() if d.name == info.name)
    return cl.CommandQueue(cl.Context([device]))
