// r04_wide_vectors.cpp — descriptor of rung 4 (gemm/04_wide_vectors.cl).
#include "kernels/descriptor.hpp"

namespace clgemm::detail {

GemmKernelDescriptor rung04_wide_vectors() {
  GemmKernelDescriptor d;
  d.info = {4, "wide-vectors", "WIDTH-wide vector loads and arithmetic", "gemm/04_wide_vectors.cl",
            {"TS", "WPT", "WIDTH"}};
  d.entry = "gemm_wide_vectors";
  d.sources = {"common/vectors.cl"};
  d.params = {{"TS", 64, 32, "tile side; a work-group computes a TS×TS tile of C"},
              {"WPT", 8, 4, "rows of C per work-item (TS/WPT apart)"},
              {"WIDTH", 4, 4, "vector width: adjacent columns of C per work-item, floats per load (1, 2, 4, 8)"}};
  d.constraints = {positive("TS"), positive("WPT"), one_of("WIDTH", {1, 2, 4, 8}), divides("WPT", "TS"),
                   divides("WIDTH", "TS")};
  // No guards: every dimension is padded to whole tiles.
  d.multiples = [](const KernelParams& ps) {
    const size_t ts = p(ps, "TS");
    return Multiples{ts, ts, ts};
  };
  d.global = [](const GemmShape& s, const KernelParams& ps) {
    return cl::NDRange(s.n / p(ps, "WIDTH"), s.m / p(ps, "WPT"));
  };
  d.local = [](const KernelParams& ps) {
    return cl::NDRange(p(ps, "TS") / p(ps, "WIDTH"), p(ps, "TS") / p(ps, "WPT"));
  };
  d.local_bytes = [](const KernelParams& ps) {
    const size_t ts = p(ps, "TS"), width = p(ps, "WIDTH");
    return (ts * (ts + width) + ts * ts) * sizeof(float);  // Asub is padded by one vector per row
  };
  return d;
}

}  // namespace clgemm::detail
