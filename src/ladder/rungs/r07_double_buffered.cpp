// r07_double_buffered.cpp — descriptor of rung 7 (gemm/07_double_buffered.cl).
#include "kernels/descriptor.hpp"

#include "ladder/rungs/blocked_tiles.hpp"

namespace clgemm::detail {

GemmKernelDescriptor rung07_double_buffered() {
  GemmKernelDescriptor d;
  d.info = {7, "double-buffered", "rung 6 with ping-pong tiles: next tile prefetched during compute",
            "gemm/07_double_buffered.cl", {}};
  d.entry = "gemm_double_buffered";
  describe_blocked_tiles(d, {/*buffers=*/2, /*loads_by_work_items=*/true});
  return d;
}

}  // namespace clgemm::detail
