#!/usr/bin/env python3
"""blas_speed.py — NumPy matrix products timed in this process (the host clock, transfers and all),
for scripts/gpu/blas_speed.sh, which runs it with and without libclgemm_blas preloaded.
  python3 blas_speed.py f32 8192x8192x8192 4096x4096x65536 ...   (M x N x K each)
Prints one line per shape: the median of 3 timed products after one untimed, GFLOP/s, and the
largest error against a float64 product of a 256-row slice."""
import sys
import time

import numpy as np


def main():
    dtype = {"f32": np.float32, "f64": np.float64}[sys.argv[1]]
    rng = np.random.default_rng(1)
    for spec in sys.argv[2:]:
        m, n, k = (int(x) for x in spec.split("x"))
        a = rng.standard_normal((m, k), dtype=np.float32).astype(dtype)
        b = rng.standard_normal((k, n), dtype=np.float32).astype(dtype)
        c = a @ b
        times = []
        for _ in range(3):
            t0 = time.perf_counter()
            c = a @ b
            times.append(time.perf_counter() - t0)
        rows = min(m, 256)
        want = a[:rows].astype(np.float64) @ b.astype(np.float64)
        err = float(np.max(np.abs(c[:rows] - want)) / (np.max(np.abs(want)) or 1.0))
        t = sorted(times)[1]
        print(f"{sys.argv[1]} {spec}: {t * 1e3:.2f} ms, {2.0 * m * n * k / t * 1e-9:.1f} GFLOP/s, error {err:.1e}",
              flush=True)


if __name__ == "__main__":
    main()
