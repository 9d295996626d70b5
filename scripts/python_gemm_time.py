"""clgemm.matmul on PyOpenCL arrays timed from Python: each call waited for, the median of
--repeat calls as GFLOP/s, on the host clock (the call and the wait) and on the device's (from a
marker enqueued before the call to the end of its last command, as `clgemm bench` times from its
first command's start to its last's end); 16 random rows of C checked against float64.

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
    for _ in range(args.warmup):
        clgemm.matmul(a, b, out)
        queue.finish()
    times, device_times = [], []
    for _ in range(args.repeat):
        start = time.perf_counter()
        marker = cl.enqueue_marker(queue)
        clgemm.matmul(a, b, out)
        queue.finish()
        times.append(time.perf_counter() - start)
        device_times.append((out.events[-1].profile.end - marker.profile.start) * 1e-9)
        out.events.clear()
    rows = rng.choice(n, 16, replace=False)
    ref = a_host[rows].astype(np.float64) @ b_host.astype(np.float64)
    err = np.abs(out.get()[rows] - ref).max() / np.abs(ref).max()
    host, on_device = statistics.median(times), statistics.median(device_times)
    print(f"{n}x{n}x{n} float32 on {info.name}, PyOpenCL arrays, median of {args.repeat} calls: "
          f"{on_device * 1e3:.3f} ms = {2 * n**3 / on_device * 1e-9:.1f} GFLOP/s on the device's clock, "
          f"{host * 1e3:.3f} ms = {2 * n**3 / host * 1e-9:.1f} GFLOP/s on the host's; "
          f"relative error of 16 rows {err:.1e}")
    assert err < 1e-4, err


if __name__ == "__main__":
    main()
