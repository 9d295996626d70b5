// r02_tiled.cpp — descriptor of rung 2 (gemm/02_tiled.cl).
#include "kernels/descriptor.hpp"

namespace clgemm::detail {

GemmKernelDescriptor rung02_tiled() {
  GemmKernelDescriptor d;
  d.info = {2, "tiled", "TS×TS tiles of A and B in local memory", "gemm/02_tiled.cl", {"TS"}};
  d.entry = "gemm_tiled";
  d.params = {{"TS", 16, 16, "tile side; the work-group is TS×TS"}};
  d.constraints = {positive("TS")};
  d.multiples = [](const KernelParams&) { return Multiples{}; };
  d.global = [](const GemmShape& s, const KernelParams& ps) {
    return cl::NDRange(round_up(s.n, p(ps, "TS")), round_up(s.m, p(ps, "TS")));
  };
  d.local = [](const KernelParams& ps) { return cl::NDRange(p(ps, "TS"), p(ps, "TS")); };
  d.local_bytes = [](const KernelParams& ps) { return size_t(2 * p(ps, "TS") * p(ps, "TS") * sizeof(float)); };
  return d;
}

}  // namespace clgemm::detail
