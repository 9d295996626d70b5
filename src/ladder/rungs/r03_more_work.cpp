// r03_more_work.cpp — descriptor of rung 3 (gemm/03_more_work.cl).
#include "kernels/descriptor.hpp"

namespace clgemm::detail {

GemmKernelDescriptor rung03_more_work() {
  GemmKernelDescriptor d;
  d.info = {3, "more-work", "WPT elements of C per work-item", "gemm/03_more_work.cl", {"TS", "WPT"}};
  d.entry = "gemm_more_work";
  d.params = {{"TS", 32, 16, "tile side; a work-group computes a TS×TS tile of C"},
              {"WPT", 8, 4, "elements of C per work-item (rows TS/WPT apart); the work-group is TS×(TS/WPT)"}};
  d.constraints = {positive("TS"), positive("WPT"), divides("WPT", "TS")};
  d.multiples = [](const KernelParams&) { return Multiples{}; };  // guarded loads and stores
  d.global = [](const GemmShape& s, const KernelParams& ps) {
    const size_t ts = p(ps, "TS");
    return cl::NDRange(round_up(s.n, ts), round_up(s.m, ts) / p(ps, "WPT"));
  };
  d.local = [](const KernelParams& ps) { return cl::NDRange(p(ps, "TS"), p(ps, "TS") / p(ps, "WPT")); };
  d.local_bytes = [](const KernelParams& ps) { return size_t(2 * p(ps, "TS") * p(ps, "TS") * sizeof(float)); };
  return d;
}

}  // namespace clgemm::detail
