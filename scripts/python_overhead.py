"""Host time per clgemm.matmul call on PyOpenCL arrays, against the same call enqueued from C++.

    python scripts/python_overhead.py [--size 16] [--calls 10000] [--rounds 10] [--device N]

Both enqueue the call on one queue without waiting, in alternating rounds (the queue is drained
between them), and the medians over the rounds are compared: the difference is what the Python
layer adds (argument checks, the layout of each operand, the event PyOpenCL keeps for out).
"""

import argparse
import statistics
import time

import numpy as np
import pyopencl as cl
import pyopencl.array as cla

import clgemm
from clgemm import _clgemm
from clgemm._matmul import _prepare


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=16, help="m = n = k")
    parser.add_argument("--calls", type=int, default=10000, help="calls of each, in all")
    parser.add_argument("--rounds", type=int, default=10, help="alternating rounds; the medians are reported")
    parser.add_argument("--device", default=None, help="index or part of a name (default: clgemm's choice)")
    args = parser.parse_args()
    info = clgemm.devices()[clgemm._devices.device_index(args.device)]
    device = next(d for p in cl.get_platforms() for d in p.get_devices() if d.name == info.name)
    queue = cl.CommandQueue(cl.Context([device]))
    n = args.size
    a = cla.to_device(queue, np.random.rand(n, n).astype(np.float32))
    b = cla.to_device(queue, np.random.rand(n, n).astype(np.float32))
    out = cla.empty(queue, (n, n), np.float32)
    for _ in range(20):  # builds the kernels and fills the plan cache
        clgemm.matmul(a, b, out)
    queue.finish()
    out.events.clear()

    call = _prepare(a, b, out, 1.0, 0.0, "fp32", None)
    buffers = (a.base_data.int_ptr, b.base_data.int_ptr, out.base_data.int_ptr)
    python, cpp = [], []
    per_round = max(args.calls // args.rounds, 1)
    for _ in range(args.rounds):  # alternating, so that both see the same load on the machine
        start = time.perf_counter()
        for _ in range(per_round):
            clgemm.matmul(a, b, out)
            out.events.clear()  # as a caller that drops the events would; PyOpenCL would wait on them
        python.append((time.perf_counter() - start) / per_round)
        queue.finish()
        cpp.append(_clgemm.time_enqueues(queue.int_ptr, call.spec, *buffers, per_round) / per_round)
        queue.finish()
    python, cpp = statistics.median(python), statistics.median(cpp)
    assert np.allclose(out.get(), a.get() @ b.get(), rtol=1e-4, atol=1e-4)
    print(f"{n}x{n}x{n} on {info.name}: {python * 1e6:.1f} us per call from Python, {cpp * 1e6:.1f} us from "
          f"C++, overhead {(python - cpp) * 1e6:.1f} us")


if __name__ == "__main__":
    main()
