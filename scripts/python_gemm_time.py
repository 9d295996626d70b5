"""clgemm.matmul on PyOpenCL arrays timed from Python: --repeat calls back to back, as GFLOP/s on
the device's clock (the median call, from a marker enqueued before it to the end of its last
command, as `clgemm bench` times from its first command's start to its last's end) and on the
host's (all the calls and the wait, over their count); 16 random rows of C checked against float64.

    python scripts/python_gemm_time.py [--size 4096] [--repeat 20] [--warmup 3] [--device N]
"""

import argparse
import statistics
import time

import numpy as np
import pyopencl as cl
import pyopencl.array as cla

import clgemm


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=4096, help="m = n = k")
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--device", default=None, help="index or part of a name (default: clgemm's choice)")
    args = parser.parse_args()
    info = clgemm.devices()[clgemm._devices.device_index(args.device)]
    device = next(d for p in cl.get_platforms() for d in p.get_devices() if d.name == info.name)
    queue = cl.CommandQueue(cl.Context([device]), properties=cl.command_queue_properties.PROFILING_ENABLE)
    n = args.size
    rng = np.random.default_rng(20261126)
    a_host = rng.uniform(-1, 1, (n, n)).astype(np.float32)
    b_host = rng.uniform(-1, 1, (n, n)).astype(np.float32)
    a, b = cla.to_device(queue, a_host), cla.to_device(queue, b_host)
    out = cla.empty(queue, (n, n), np.float32)
    print(str(clgemm.plan(a, b, out)).splitlines()[0])
    for _ in range(args.warmup):
        clgemm.matmul(a, b, out)
        queue.finish()
    # The calls go out back to back and are waited for once, as `clgemm bench` runs them: each
    # call's device time runs from a marker enqueued just before it to the end of its last command.
    spans = []
    start = time.perf_counter()
    for _ in range(args.repeat):
        marker = cl.enqueue_marker(queue)
        clgemm.matmul(a, b, out)
        spans.append((marker, out.events[-1]))
    queue.finish()
    host = (time.perf_counter() - start) / args.repeat
    device_times = [(end.profile.end - marker.profile.start) * 1e-9 for marker, end in spans]
    out.events.clear()
    rows = rng.choice(n, 16, replace=False)
    ref = a_host[rows].astype(np.float64) @ b_host.astype(np.float64)
    err = np.abs(out.get()[rows] - ref).max() / np.abs(ref).max()
    on_device = statistics.median(device_times)
    print(f"{n}x{n}x{n} float32 on {info.name}, PyOpenCL arrays, median of {args.repeat} calls: "
          f"{on_device * 1e3:.3f} ms = {2 * n**3 / on_device * 1e-9:.1f} GFLOP/s on the device's clock, "
          f"{host * 1e3:.3f} ms = {2 * n**3 / host * 1e-9:.1f} GFLOP/s on the host's (all calls over their count); "
          f"relative error of 16 rows {err:.1e}")
    assert err < 1e-4, err


if __name__ == "__main__":
    main()
