// bench/bandwidth.cpp — one buffer copied into another, timed by profiling events.
#include "bench/bandwidth.hpp"

#include "bench/stats.hpp"

#include <algorithm>

namespace clgemm::bench {

CopyBandwidth measure_copy_bandwidth(const Context& ctx, size_t bytes, int repeat) {
  // A copy needs two buffers at once; a quarter of the largest allocation leaves room for them on
  // devices whose total memory is a few of those.
  bytes = std::max<size_t>(std::min<size_t>(bytes, ctx.info().max_alloc_bytes / 4) & ~size_t(255), 256);
  cl::Buffer from = ctx.buffer(bytes), to = ctx.buffer(bytes);
  const cl_uchar zero = 0;
  ctx.queue().enqueueFillBuffer(from, zero, 0, bytes);
  std::vector<double> times;
  for (int i = 0; i <= repeat; ++i) {
    cl::Event e;
    ctx.queue().enqueueCopyBuffer(from, to, 0, 0, bytes, nullptr, &e);
    e.wait();
    if (i > 0) times.push_back(elapsed_seconds({e}));  // the first pays for first touches
  }
  CopyBandwidth out;
  out.bytes = bytes;
  const double median = summarize(times).median;
  out.gbs = median > 0 ? 2.0 * double(bytes) / median / 1e9 : 0;
  out.how = "clEnqueueCopyBuffer of " + std::to_string(bytes >> 20) + " MiB, read + written, median of " +
            std::to_string(repeat);
  return out;
}

}  // namespace clgemm::bench
