#!/usr/bin/env python3
"""summa_model.py — the time model of clgemm::dist's SUMMA (docs/distributed.md): fitted to the
measured 1- and 2-GPU runs, and its predictions for larger grids beside COSMA's bound.

    python3 scripts/summa_model.py            # the fit and the prediction tables
    python3 scripts/summa_model.py --beta 22  # another link bandwidth (GB/s per rank)

Per rank of a pr x pc grid, for an N x N x N product in elements of `elem` bytes:
  compute   t_c = 2 N^3 / (P R)                  R: the local GEMM rate of one GPU
  panels    V = (N/pr) N (1 - 1/pc) + N (N/pc) (1 - 1/pr) elements received (all-gathers)
  comm      t_m = V elem / beta                  beta: what one rank receives per second
  C         t_C = (N^2 / P) elem / gamma         C's block to the host (beta = 0: no upload)
  time      T = max(t_c, t_m) + t_first + t_C     panels overlap the GEMMs; the first does not

On one host the panels go through a pinned shared-memory window and stay hidden (t_m < t_c), so
the measured runs fit R, gamma and t_first; beta is the link of the machines predicted.
"""
import argparse
import math

# Measured, 2 x H100 (one host), clgemm dist-bench --form host, 1x2 grid, blocks of 512, beta = 0:
# N, precision, 1-rank seconds, 2-rank seconds, 2-rank per-rank GEMM device time, C's transfer
# and the time until the first GEMM was queued.
MEASURED = [
    (16384, "f32", 0.221, 0.124, 0.088, 0.027, 0.004),
    (32768, "f32", 1.609, 0.825, 0.710, 0.104, 0.006),
    (16384, "f64", 0.527, 0.281, 0.215, 0.052, 0.007),
    (32768, "f64", 3.892, 1.999, 1.766, 0.200, 0.012),
]
ELEM = {"f32": 4, "f64": 8}


def received(n, pr, pc):
    return n / pr * n * (1 - 1 / pc) + n * (n / pc) * (1 - 1 / pr)


def fit():
    """R per precision from the GEMM device time; one gamma from C's transfers; the first panel's
    latency as a fraction of a step's GEMM (the runs have 16 or 32 steps)."""
    rate = {}
    for prec in ELEM:
        runs = [(n, tc) for n, p, _, _, tc, _, _ in MEASURED if p == prec]
        rate[prec] = sum(2 * n**3 / 2 / tc for n, tc, in runs) / len(runs)
    gamma = sum(n * n / 2 * ELEM[p] / tcx for n, p, _, _, _, tcx, _ in MEASURED) / len(MEASURED)
    first = sum(t0 / (tc / (n / 1024)) for n, _, _, _, tc, _, t0 in MEASURED) / len(MEASURED)
    return rate, gamma, first


def predict(p, n, rate, beta, gamma, elem, first, steps=16):
    pr = int(math.sqrt(p))
    while p % pr:
        pr -= 1
    pc = p // pr
    tc = 2 * n**3 / (p * rate)
    tm = received(n, pr, pc) * elem / beta
    t_first = max(tm, first * tc) / steps
    t_c = n * n / p * elem / gamma
    t = max(tc, tm) + t_first + t_c
    t1 = 2 * n**3 / rate + first * 2 * n**3 / rate / steps + n * n * elem / gamma
    return pr, pc, tc, tm, t, t1 / (p * t)


def summa_io(n, pr, pc):
    """Elements of A, B and C one SUMMA rank brings into its memory (its own included)."""
    return n * n / pr + n * n / pc + n * n / (pr * pc)


def cosma_bound(p, n, memory_elems):
    """The fewest elements one process must bring into its memory of S elements (Kwasniewski et
    al., SC'19): min(2 N^3 / (P sqrt(S)) + S, 3 (N^3 / P)^(2/3))."""
    return min(2 * n**3 / (p * math.sqrt(memory_elems)) + memory_elems, 3 * (n**3 / p) ** (2 / 3))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--beta", type=float, default=22.0, help="GB/s one rank receives (200 Gb/s links: about 22)")
    ap.add_argument("--gamma", type=float, default=0, help="GB/s of C's transfer to the host (default: the fit)")
    ap.add_argument("--local", type=int, default=16384, help="side of each rank's block of C")
    args = ap.parse_args()

    rate, gamma, first = fit()
    print(f"Fit to the measured runs (2 x H100, 1x2 grid): R = {rate['f32'] / 1e12:.1f} (f32) and "
          f"{rate['f64'] / 1e12:.1f} (f64) TFLOP/s, gamma = {gamma / 1e9:.1f} GB/s, "
          f"first panel = {first:.2f} of a step's GEMM")
    print(f"{'N':>6} {'prec':>4} {'1 rank s':>8} {'model':>6} {'2 ranks s':>9} {'model':>6}")
    # The window's panels are hidden: a rank receives them faster than its GEMMs take them.
    one_host = 1e15
    for n, prec, t1, t2, _, _, _ in MEASURED:
        _, _, _, _, t, _ = predict(2, n, rate[prec], one_host, gamma, ELEM[prec], first, steps=n / 1024)
        _, _, _, _, t_one, _ = predict(1, n, rate[prec], one_host, gamma, ELEM[prec], first, steps=n / 1024)
        print(f"{n:>6} {prec:>4} {t1:>8.3f} {t_one:>6.3f} {t2:>9.3f} {t:>6.3f}")

    gamma = args.gamma * 1e9 if args.gamma else gamma
    print(f"\nPredicted on links where a rank receives {args.beta:g} GB/s, each rank holding a "
          f"{args.local} x {args.local} block of C (N = {args.local} x sqrt(P)):")
    print(f"{'GPUs':>5} {'grid':>6} {'prec':>4} {'N':>7} {'t_c s':>7} {'t_m s':>7} {'T s':>7} {'eff.':>6} "
          f"{'TFLOP/s':>9} {'SUMMA/COSMA':>11}")
    for prec in ("f32", "f64"):
        e = ELEM[prec]
        for p in (2, 8, 64, 1024):
            n = int(args.local * math.sqrt(p))
            pr, pc, tc, tm, t, eff = predict(p, n, rate[prec], args.beta * 1e9, gamma, e, first)
            memory = 80e9 * 0.8 / e  # elements a GPU can hold for the operands
            ratio = summa_io(n, pr, pc) / cosma_bound(p, n, memory)
            print(f"{p:>5} {pr:>3}x{pc:<2} {prec:>4} {n:>7} {tc:>7.2f} {tm:>7.2f} {t:>7.2f} {eff:>6.1%} "
                  f"{2 * n**3 / t / 1e12:>9.0f} {ratio:>11.2f}")


if __name__ == "__main__":
    main()
