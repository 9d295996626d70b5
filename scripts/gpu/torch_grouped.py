#!/usr/bin/env python3
"""torch_grouped.py — run THERE (the lent GPU machine, whose python3 holds PyTorch): the problems
of a clgemm grouped call beside PyTorch's grouped matrix product.

Reads the problems ([m, n, k] each) from a `clgemm bench --grouped SPEC --json` file (its first
result's "problems"), builds one mixture-of-experts layer from them (each expert's rows of
activations, all experts' n and k equal) in bf16, and times, with CUDA events, the median of
REPEAT runs after WARMUP:
  - torch._grouped_mm(x, w, offs=...) with float32 output, where this PyTorch has it;
  - one torch.matmul per expert on one stream, as a caller without it would write.
Each result is checked against the per-expert products in float32. Prints one line per way.
  python3 scripts/gpu/torch_grouped.py bench_moe.json [--repeat 20] [--warmup 3]
"""
import argparse
import json
import sys

import torch


def problems_of(path):
    with open(path) as f:
        doc = json.load(f)
    for r in doc["results"]:
        if r.get("problems"):
            return [tuple(p) for p in r["problems"]]
    sys.exit(f"{path}: no grouped result with its problems (run clgemm bench --grouped ... --json)")


def timed(fn, repeat, warmup):
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(repeat):
        start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        stop.record()
        stop.synchronize()
        times.append(start.elapsed_time(stop) * 1e-3)
    times.sort()
    return times[len(times) // 2]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("json")
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--warmup", type=int, default=3)
    args = ap.parse_args()
    problems = problems_of(args.json)
    ns, ks = {p[1] for p in problems}, {p[2] for p in problems}
    if len(ns) != 1 or len(ks) != 1:
        sys.exit("the problems differ in n or k: not one mixture-of-experts layer")
    n, k = ns.pop(), ks.pop()
    rows = [p[0] for p in problems]
    flops = 2.0 * sum(rows) * n * k
    torch.manual_seed(1)
    dev = torch.device("cuda")
    x = torch.randn(sum(rows), k, device=dev, dtype=torch.bfloat16)
    w = torch.randn(len(rows), k, n, device=dev, dtype=torch.bfloat16)
    starts = [0]
    for r in rows:
        starts.append(starts[-1] + r)
    want = torch.empty(sum(rows), n, device=dev, dtype=torch.float32)
    for e, r in enumerate(rows):
        if r:
            want[starts[e]:starts[e + 1]] = x[starts[e]:starts[e + 1]].float() @ w[e].float()
    scale = want.abs().max().item() or 1.0
    print(f"{len(rows)} experts, {sum(rows)} rows, n = {n}, k = {k}, {sum(r == 0 for r in rows)} empty; "
          f"{torch.cuda.get_device_name()}, torch {torch.__version__}")

    def report(name, fn, got):
        err = (got.float() - want).abs().max().item() / scale
        ok = err < 1e-2
        seconds = timed(fn, args.repeat, args.warmup)
        print(f"{name}: {seconds * 1e3:.3f} ms, {flops / seconds * 1e-12:.1f} TFLOP/s, "
              f"max error {err:.2e} of the largest element, {'ok' if ok else 'WRONG'}")
        return ok

    ok = True

    def per_expert():
        out = torch.empty(sum(rows), n, device=dev, dtype=torch.bfloat16)
        for e, r in enumerate(rows):
            if r:
                torch.matmul(x[starts[e]:starts[e + 1]], w[e], out=out[starts[e]:starts[e + 1]])
        return out

    ok &= report("torch.matmul per expert (bf16 out)", per_expert, per_expert())
    grouped = getattr(torch, "_grouped_mm", None)
    if grouped is None:
        print("torch._grouped_mm: not in this PyTorch")
    else:
        offs = torch.tensor(starts[1:], device=dev, dtype=torch.int32)
        # The weights as PyTorch's grouped kernel wants them: each expert's K×N column-major (the
        # transpose of an N×K row-major block).
        w_t = w.transpose(-2, -1).contiguous().transpose(-2, -1)

        # float32 output where it takes one, else its default (bf16).
        for out_dtype, label in ((torch.float32, "f32 out"), (None, "bf16 out")):
            def run(out_dtype=out_dtype):
                return grouped(x, w_t, offs=offs, out_dtype=out_dtype)

            try:
                ok &= report(f"torch._grouped_mm ({label})", run, run())
                break
            except RuntimeError as e:
                print(f"torch._grouped_mm ({label}): refused: {str(e).splitlines()[0]}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
