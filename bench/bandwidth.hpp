// bench/bandwidth.hpp — the device's copy bandwidth, measured: what a memory-bound kernel (a
// quantized GEMV reading its weights once) can be held against.
#pragma once

#include <clgemm/context.hpp>

#include <cstddef>
#include <string>

namespace clgemm::bench {

struct CopyBandwidth {
  double gbs = 0;    // bytes read plus bytes written, over the median time, in GB/s
  size_t bytes = 0;  // the size of one copy
  std::string how;   // "clEnqueueCopyBuffer of 256 MiB, read + written, median of 10"
};

// Copies a buffer of `bytes` (at most a quarter of the device's largest allocation) into another
// on the device, `repeat` times after one untimed copy, each timed by its profiling event.
CopyBandwidth measure_copy_bandwidth(const Context& ctx, size_t bytes = size_t(256) << 20, int repeat = 10);

}  // namespace clgemm::bench
