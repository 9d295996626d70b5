// blocked_tiles.hpp — what rungs 6, 7 and 8 share in their descriptors: the same tunables
// (TSM, TSN, TSK, WPTM, WPTN, WIDTH), constraints and work sizes, so that the three rungs differ
// only in how tiles reach local memory and their measurements compare like with like.
#pragma once

#include "kernels/descriptor.hpp"

namespace clgemm::detail {

// How a rung fills its local tiles: single or ping-pong buffers, and whether work-items move
// the vectors themselves (then each tile must split evenly over the work-group) or an
// async_work_group_copy does.
struct BlockedTileFill {
  int buffers = 1;
  bool loads_by_work_items = true;
};

inline void describe_blocked_tiles(GemmKernelDescriptor& d, BlockedTileFill fill) {
  d.sources = {"common/vectors.cl"};
  d.info.param_names = {"TSM", "TSN", "TSK", "WPTM", "WPTN", "WIDTH"};
  d.params = {{"TSM", 128, 32, "tile height: rows of C per work-group"},
              {"TSN", 128, 32, "tile width: columns of C per work-group"},
              {"TSK", 16, 8, "tile depth: the K-slice staged in local memory per step"},
              {"WPTM", 8, 4, "rows of C per work-item"},
              {"WPTN", 8, 4, "columns of C per work-item"},
              {"WIDTH", 4, 4, "vector width of loads, fragment reads and C stores (1, 2, 4, 8)"}};
  d.constraints = {positive("TSM"),          positive("TSN"),          positive("TSK"),
                   positive("WPTM"),         positive("WPTN"),         one_of("WIDTH", {1, 2, 4, 8}),
                   divides("WIDTH", "WPTM"), divides("WIDTH", "WPTN"), divides("WPTM", "TSM"),
                   divides("WPTN", "TSN")};
  if (fill.loads_by_work_items)
    d.constraints.push_back({"TSK*TSM/WIDTH and TSK*TSN/WIDTH multiples of the work-items (TSM/WPTM)*(TSN/WPTN)",
                             [](const KernelParams& ps, const DeviceInfo&) {
                               const long wg = (p(ps, "TSM") / p(ps, "WPTM")) * (p(ps, "TSN") / p(ps, "WPTN"));
                               const long a = p(ps, "TSK") * p(ps, "TSM") / p(ps, "WIDTH");
                               const long b = p(ps, "TSK") * p(ps, "TSN") / p(ps, "WIDTH");
                               return wg > 0 && a % wg == 0 && b % wg == 0;
                             }});
  d.a_form = OperandForm::Transposed;  // the kernels read At (k×m): a K-slice of A is one row
  d.b_form = OperandForm::AsStored;
  d.multiples = [](const KernelParams& ps) {
    return Multiples{size_t(p(ps, "TSM")), size_t(p(ps, "TSN")), size_t(p(ps, "TSK"))};
  };
  d.global = [](const GemmShape& s, const KernelParams& ps) {
    return cl::NDRange(s.n / p(ps, "WPTN"), s.m / p(ps, "WPTM"));
  };
  d.local = [](const KernelParams& ps) {
    return cl::NDRange(p(ps, "TSN") / p(ps, "WPTN"), p(ps, "TSM") / p(ps, "WPTM"));
  };
  const size_t buffers = size_t(fill.buffers);
  d.local_bytes = [buffers](const KernelParams& ps) {
    return buffers * size_t(p(ps, "TSK") * (p(ps, "TSM") + p(ps, "TSN"))) * sizeof(float);
  };
}

}  // namespace clgemm::detail
