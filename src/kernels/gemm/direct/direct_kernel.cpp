// direct_kernel.cpp — descriptor of the production direct kernel (gemm/direct/direct.cl).
#include "kernels/gemm/direct/direct_kernel.hpp"

namespace clgemm::detail {

const GemmKernelDescriptor& direct_descriptor() {
  static const GemmKernelDescriptor d = [] {
    GemmKernelDescriptor d;
    d.info = {0, "direct", "guarded register-blocked kernel, operands read in place", "gemm/direct/direct.cl",
              {"TM", "TN", "TK", "WM", "WN"}};
    d.entry = "gemm_direct";
    d.sources = {"common/vectors.cl", "common/batch.cl", "gemm/register_tile.cl"};
    // GPU: 64×64 tiles, 4×4 per work-item = 256 work-items, enough groups to fill 132 compute
    // units from about 700×700 up. CPU: 32×32 tiles and 64 work-items, which PoCL packs into
    // SIMD lanes along x.
    d.params = {{"TM", 64, 32, "rows of C per work-group", {16, 32, 64, 128}},
                {"TN", 64, 32, "columns of C per work-group", {16, 32, 64, 128}},
                {"TK", 16, 16, "depth of the local-memory tiles", {8, 16, 32}},
                {"WM", 4, 4, "rows of C per work-item", {1, 2, 4, 8}},
                {"WN", 4, 4, "columns of C per work-item", {1, 2, 4, 8}},
                precision_param()};
    d.constraints = {positive("TK"), divides("WM", "TM"), divides("WN", "TN"), one_of("PRECISION", {32, 64}),
                     {"TM*TK and TK*TN divisible by the work-group size",
                      [](const KernelParams& ps, const DeviceInfo&) {
                        const long threads = (p(ps, "TM") / p(ps, "WM")) * (p(ps, "TN") / p(ps, "WN"));
                        return (p(ps, "TM") * p(ps, "TK")) % threads == 0 && (p(ps, "TK") * p(ps, "TN")) % threads == 0;
                      }}};
    d.multiples = [](const KernelParams&) { return Multiples{}; };
    d.global = [](const GemmShape& s, const KernelParams& ps) {
      return cl::NDRange(round_up(s.n, p(ps, "TN")) / p(ps, "WN"), round_up(s.m, p(ps, "TM")) / p(ps, "WM"));
    };
    d.local = [](const KernelParams& ps) {
      return cl::NDRange(p(ps, "TN") / p(ps, "WN"), p(ps, "TM") / p(ps, "WM"));
    };
    d.tile = [](const KernelParams& ps) { return std::make_pair(size_t(p(ps, "TM")), size_t(p(ps, "TN"))); };
    d.local_bytes = [](const KernelParams& ps) {
      return size_t((p(ps, "TK") * (p(ps, "TM") + 1) + p(ps, "TK") * p(ps, "TN")) * element_bytes(ps));
    };
    return d;
  }();
  return d;
}

}  // namespace clgemm::detail
