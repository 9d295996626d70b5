// r08_async_copy.cpp — descriptor of rung 8 (gemm/08_async_copy.cl).
#include "kernels/descriptor.hpp"

#include "ladder/rungs/blocked_tiles.hpp"

namespace clgemm::detail {

GemmKernelDescriptor rung08_async_copy() {
  GemmKernelDescriptor d;
  d.info = {8, "async-copy", "ping-pong tiles filled by async_work_group_copy", "gemm/08_async_copy.cl", {}};
  d.entry = "gemm_async_copy";
  describe_blocked_tiles(d, {/*buffers=*/2, /*loads_by_work_items=*/false});
  // Operands packed in panels as wide as the tiles: a TSK×TSM tile of At and a TSK×TSN tile of B
  // are each one contiguous block, so each arrives with a single async_work_group_copy.
  d.a_panel = [](const KernelParams& ps) { return size_t(p(ps, "TSM")); };
  d.b_panel = [](const KernelParams& ps) { return size_t(p(ps, "TSN")); };
  // A flat work-group (see the kernel): NVIDIA spreads async copies over the x dimension only.
  d.global = [](const GemmShape& s, const KernelParams& ps) {
    const size_t items = size_t((p(ps, "TSM") / p(ps, "WPTM")) * (p(ps, "TSN") / p(ps, "WPTN")));
    return cl::NDRange(s.n / p(ps, "TSN") * items, s.m / p(ps, "TSM"));
  };
  d.local = [](const KernelParams& ps) {
    return cl::NDRange((p(ps, "TSM") / p(ps, "WPTM")) * (p(ps, "TSN") / p(ps, "WPTN")), 1);
  };
  return d;
}

}  // namespace clgemm::detail
