"""clgemm.quantize, clgemm.dequantize and clgemm.matmul_quantized: the blocks against the format's
definition, round trips within each format's error, the product against a float64 one of the
dequantized weights, and bad input refused with nothing written."""

import numpy as np
import pytest

import clgemm
from conftest import BFLOAT16, assert_product, random

BLOCK = {"q8_0": 32, "q4_0": 32, "q4_k": 256, "q6_k": 256}
ACTIVATIONS = [np.dtype(np.float32), np.dtype(np.float16)] + ([BFLOAT16] if BFLOAT16 else [])


def test_formats_and_row_bytes():
    assert clgemm.quant_formats == ("q8_0", "q4_0", "q4_k", "q6_k")
    # ggml's block sizes: 34, 18, 144 and 210 bytes.
    assert [clgemm.row_bytes(f, 512) for f in clgemm.quant_formats] == [16 * 34, 16 * 18, 2 * 144, 2 * 210]


def test_q8_0_and_q4_0_blocks_follow_the_format(rng):
    """Dequantized from the bytes by the format's definition, in NumPy, independently of clgemm."""
    x = random(rng, (5, 96), np.float32) * 3
    w = clgemm.quantize(x, "q8_0").reshape(5, 3, 34)
    d = w[:, :, :2].copy().view(np.float16).astype(np.float32)
    q = w[:, :, 2:].copy().view(np.int8).astype(np.float32)
    np.testing.assert_array_equal(clgemm.dequantize(w.reshape(5, -1), "q8_0", 96), (d * q).reshape(5, 96))
    w = clgemm.quantize(x, "q4_0").reshape(5, 3, 18)
    d = w[:, :, :2].copy().view(np.float16).astype(np.float32)
    qs = w[:, :, 2:].astype(np.int32)
    q = np.concatenate([(qs & 15) - 8, (qs >> 4) - 8], axis=2).astype(np.float32)
    np.testing.assert_array_equal(clgemm.dequantize(w.reshape(5, -1), "q4_0", 96), (d * q).reshape(5, 96))


@pytest.mark.parametrize("fmt,bound", [("q8_0", 0.5 / 127), ("q4_0", 1.01 / 8), ("q4_k", 1.0 / 10), ("q6_k", 1.0 / 20)])
def test_round_trips_keep_leading_dimensions_and_stay_within_the_format(rng, fmt, bound):
    k = 2 * BLOCK[fmt]
    x = random(rng, (2, 3, k), np.float32)
    w = clgemm.quantize(x, fmt)
    assert w.dtype == np.uint8 and w.shape == (2, 3, clgemm.row_bytes(fmt, k))
    back = clgemm.dequantize(w, fmt, k)
    assert back.dtype == np.float32 and back.shape == x.shape
    # Each weight within a fraction of its block's largest magnitude. q4_0's scale maps that value
    # to -8, so the opposite extreme clamps to 7 and is off by a whole step; the k-quants' scales
    # are quantized too, hence their looser bounds.
    blocks = np.abs(x).reshape(2, 3, -1, 32).max(axis=-1, keepdims=True)
    err = np.abs(back - x).reshape(2, 3, -1, 32)
    assert np.all(err <= bound * blocks + 1e-7), float((err / blocks).max())
    # A second round trip changes nothing: the blocks' values are their own quantization.
    padded = np.zeros(w.shape[:-1] + (w.shape[-1] + 5,), np.uint8)
    padded[..., : w.shape[-1]] = w
    np.testing.assert_array_equal(clgemm.dequantize(padded, fmt, k), back)


@pytest.mark.parametrize("fmt", ["q8_0", "q4_0", "q4_k", "q6_k"])
@pytest.mark.parametrize("dtype", ACTIVATIONS, ids=str)
@pytest.mark.parametrize("a_shape", [(1,), (3,), (17,), (2, 3)], ids=lambda s: "x".join(map(str, s)))
def test_product_matches_float64(rng, fmt, dtype, a_shape):
    k, n = 2 * BLOCK[fmt], 37
    w = clgemm.quantize(random(rng, (n, k), np.float32), fmt)
    a = random(rng, a_shape + (k,), dtype)
    got = clgemm.matmul_quantized(a, w, fmt, k=k)
    assert got.dtype == dtype and got.shape == a_shape + (n,)
    assert_product(got, a, clgemm.dequantize(w, fmt, k).T)


def test_one_dimensional_a_gives_a_vector(rng):
    w = clgemm.quantize(random(rng, (9, 64), np.float32), "q4_0")
    a = random(rng, (64,), np.float32)
    got = clgemm.matmul_quantized(a, w, "q4_0", k=64)
    assert got.shape == (9,)
    assert_product(got[None, :], a[None, :], clgemm.dequantize(w, "q4_0", 64).T)


@pytest.mark.parametrize("order", ["C", "F"])
def test_out_with_alpha_and_beta(rng, order):
    k, n = 64, 33
    w = clgemm.quantize(random(rng, (n, k), np.float32), "q8_0")
    a = random(rng, (21, k), np.float16)
    c0 = np.asarray(random(rng, (21, n), np.float32), order=order)
    out = c0.copy(order=order)
    got = clgemm.matmul_quantized(a, w, "q8_0", k=k, out=out, alpha=-0.75, beta=0.5)
    assert got is out
    assert_product(out, a, clgemm.dequantize(w, "q8_0", k).T, -0.75, 0.5, c0)


def test_beta_zero_ignores_nan_in_out(rng):
    w = clgemm.quantize(random(rng, (8, 32), np.float32), "q4_0")
    a = random(rng, (4, 32), np.float32)
    out = np.full((4, 8), np.nan, np.float32)
    clgemm.matmul_quantized(a, w, "q4_0", k=32, out=out)
    assert_product(out, a, clgemm.dequantize(w, "q4_0", 32).T)


def test_empty_products(rng):
    w = clgemm.quantize(random(rng, (0, 32), np.float32), "q8_0")
    assert w.shape == (0, 34)
    assert clgemm.matmul_quantized(np.ones((3, 32), np.float32), w, "q8_0", k=32).shape == (3, 0)
    w = clgemm.quantize(random(rng, (5, 32), np.float32), "q8_0")
    assert clgemm.matmul_quantized(np.ones((0, 32), np.float32), w, "q8_0", k=32).shape == (0, 5)


def refused(error, match, *args, out=None, **kw):
    before = None if out is None else out.copy()
    with pytest.raises(error, match=match):
        clgemm.matmul_quantized(*args, out=out, **kw)
    if out is not None:
        assert np.array_equal(out, before, equal_nan=True), "out was written"


def test_bad_input_is_refused_naming_the_argument(rng):
    w = clgemm.quantize(random(rng, (6, 64), np.float32), "q8_0")
    a = random(rng, (3, 64), np.float32)
    out = random(rng, (3, 6), np.float32)
    refused(ValueError, "format must be one of q8_0, q4_0, q4_k, q6_k, not 'q5_1'", a, w, "q5_1", k=64, out=out)
    refused(TypeError, "format must be a string", a, w, 8, k=64, out=out)
    refused(ValueError, "k is 48, which is not a multiple of 32", a[:, :48], w, "q8_0", k=48, out=out)
    refused(ValueError, "last dimension must be k = 64", a[:, :32], w, "q8_0", k=64, out=out)
    refused(TypeError, "w must be a uint8 array", a, w.astype(np.int8), "q8_0", k=64, out=out)
    refused(ValueError, "w's rows are 60 bytes, but 64 weights in q8_0 take 68", a, w[:, :60], "q8_0", k=64,
            out=out)
    refused(ValueError, r"it must be \(n, row_bytes\)", a, w[None], "q8_0", k=64, out=out)
    refused(TypeError, "a is float64", a.astype(np.float64), w, "q8_0", k=64, out=out)
    refused(TypeError, "out is int32", a, w, "q8_0", k=64, out=np.zeros((3, 6), np.int32))
    refused(ValueError, r"out has shape \(3, 5\)", a, w, "q8_0", k=64, out=np.zeros((3, 5), np.float32))
    refused(ValueError, "beta is not 0 but there is no out", a, w, "q8_0", k=64, beta=1.0)
    refused(TypeError, "alpha must be a real number", a, w, "q8_0", k=64, alpha="2", out=out)
    with pytest.raises(ValueError, match="k is 100, which is not a multiple of 256, the block of q4_k"):
        clgemm.quantize(np.ones((2, 100), np.float32), "q4_k")
    with pytest.raises(TypeError, match="x must hold real numbers"):
        clgemm.quantize(np.ones((2, 32), np.complex64), "q8_0")
    with pytest.raises(ValueError, match="w's rows are 10 bytes"):
        clgemm.dequantize(np.zeros((2, 10), np.uint8), "q4_0", 32)
