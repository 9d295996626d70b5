#!/usr/bin/env python3
"""bench/json_to_markdown.py — turns `clgemm bench --save FILE.json` output into the markdown
tables of docs/performance.md: one table per shape group, a row per shape, a column per
implementation, and clgemm over the best FP32 peer. Standard library only (runs on the GPU
machine too).

    python3 bench/json_to_markdown.py bench_square.json [more.json ...] [--tflops] [--impls clgemm,cublas]
"""
import argparse
import json
import sys


def cell(r, scale, digits):
    """What a table shows for one result: the GFLOP/s (or TFLOP/s), or why there is none."""
    if r["status"] == "WRONG":
        return "WRONG"
    if r["status"] == "FAILED":
        return "failed"
    if r["status"] == "n/a":
        return "n/a"
    if r["gflops"] is None:
        return "(not timed)"
    return f"{r['gflops'] / scale:.{digits}f}"


def tables(doc, use_tflops, only):
    env = doc["environment"]
    dev = env["device"]
    out = [f"Device: {dev['name']} ({dev['platform']}, driver {dev['driver']}, {dev['compute_units']} compute units); "
           f"host: {env['host']['cpu']}, {env['host']['logical_cpus']} logical CPUs.  ",
           f"Date: {env['date']}.  ",
           f"Command: `{env['command']}`  ",
           f"Settings: {doc['settings'].get('precision', 'f32')}, {doc['settings']['description']}; "
           f"median of {doc['settings']['repeat']} timed runs."]
    if doc.get("peak"):
        arithmetic = doc["peak"].get("arithmetic", "fp32").upper()
        out[-1] += f" {arithmetic} peak {doc['peak']['gflops']:.0f} GFLOP/s ({doc['peak']['how']})."
    impls = [i["name"] for i in doc["implementations"] if i["available"] and (not only or i["name"] in only)]
    missing = [f"{i['name']} ({i['unavailable_reason']})" for i in doc["implementations"] if not i["available"]]
    if missing:
        out.append("")
        out.append("Not available in this run: " + "; ".join(missing) + ".")
    scale, unit, digits = (1000.0, "TFLOP/s", 2) if use_tflops else (1.0, "GFLOP/s", 1)
    groups = []
    for r in doc["results"]:
        if r["group"] not in groups:
            groups.append(r["group"])
    ratio = {(c["m"], c["n"], c["k"], c["group"]): c for c in doc["comparisons"]}
    notes = []
    for g in groups:
        rows = [r for r in doc["results"] if r["group"] == g]
        shapes = []
        for r in rows:
            key = (r["m"], r["n"], r["k"])
            if key not in shapes:
                shapes.append(key)
        out += ["", f"**{g}** ({unit}, median)", "",
                "| shape | " + " | ".join(impls) + " | clgemm / best peer |",
                "| --- |" + " ---: |" * (len(impls) + 1)]
        for m, n, k in shapes:
            by_impl = {r["impl"]: r for r in rows if (r["m"], r["n"], r["k"]) == (m, n, k)}
            cells = []
            for name in impls:
                r = by_impl.get(name)
                cells.append(cell(r, scale, digits) if r else "")
                if r and r["status"] in ("WRONG", "FAILED") or (r and r["status"] == "ok" and r["gflops"] is None):
                    notes.append(f"{name} at {m}x{n}x{k}: {r['note']}")
            c = ratio.get((m, n, k, g))
            rc = f"{c['ratio']:.2f}× ({c['best_peer']})" if c and c["ratio"] else "–"
            out.append(f"| {m}×{n}×{k} | " + " | ".join(cells) + f" | {rc} |")
    if notes:
        out += ["", "Notes:"] + [f"- {n}" for n in notes]
    out += odd_neighbours(doc, only)
    return "\n".join(out)


def odd_neighbours(doc, only):
    """The odd sizes against their neighbouring multiple of 128, a column per implementation
    (files from before the report had them have none)."""
    pairs = [o for o in doc.get("odd_neighbours", []) if not only or o["impl"] in only]
    if not pairs:
        return []
    impls, sides = [], []
    for o in pairs:
        if o["impl"] not in impls:
            impls.append(o["impl"])
        if (o["odd"], o["neighbour"]) not in sides:
            sides.append((o["odd"], o["neighbour"]))
    change = {(o["odd"], o["impl"]): o["change"] for o in pairs}
    out = ["", "**odd sizes against the neighbouring multiple of 128** (GFLOP/s ratio − 1)", "",
           "| odd shape | neighbour | " + " | ".join(impls) + " |", "| --- | --- |" + " ---: |" * len(impls)]
    for s, n in sides:
        cells = [f"{100 * change[(s, i)]:+.1f} %" if (s, i) in change else "" for i in impls]
        out.append(f"| {s}³ | {n}³ | " + " | ".join(cells) + " |")
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("files", nargs="+")
    p.add_argument("--tflops", action="store_true", help="TFLOP/s instead of GFLOP/s")
    p.add_argument("--impls", default="", help="only these implementations, comma-separated")
    a = p.parse_args()
    only = [x for x in a.impls.split(",") if x]
    for i, f in enumerate(a.files):
        with open(f) as fh:
            doc = json.load(fh)
        if i:
            print()
        print(tables(doc, a.tflops, only))
    return 0


if __name__ == "__main__":
    sys.exit(main())
