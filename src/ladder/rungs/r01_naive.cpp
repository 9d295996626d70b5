// r01_naive.cpp — descriptor of rung 1 (gemm/01_naive.cl).
#include "kernels/descriptor.hpp"

namespace clgemm::detail {

GemmKernelDescriptor rung01_naive() {
  GemmKernelDescriptor d;
  d.info = {1, "naive", "one work-item per element of C", "gemm/01_naive.cl", {"WG_X", "WG_Y"}};
  d.entry = "gemm_naive";
  d.params = {{"WG_X", 16, 16, "work-group width (along n)"}, {"WG_Y", 16, 4, "work-group height (along m)"}};
  d.constraints = {positive("WG_X"), positive("WG_Y")};
  d.multiples = [](const KernelParams&) { return Multiples{}; };
  d.global = [](const GemmShape& s, const KernelParams& ps) {
    return cl::NDRange(round_up(s.n, p(ps, "WG_X")), round_up(s.m, p(ps, "WG_Y")));
  };
  d.local = [](const KernelParams& ps) { return cl::NDRange(p(ps, "WG_X"), p(ps, "WG_Y")); };
  d.local_bytes = [](const KernelParams&) { return size_t(0); };
  return d;
}

}  // namespace clgemm::detail
