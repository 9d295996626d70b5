// r05_transposed.cpp — descriptor of rung 5 (gemm/05_transposed.cl).
#include "kernels/descriptor.hpp"

namespace clgemm::detail {

GemmKernelDescriptor rung05_transposed() {
  GemmKernelDescriptor d;
  d.info = {5, "transposed", "B transposed on the device; both operands read along K", "gemm/05_transposed.cl",
            {"TS", "WPT", "WIDTH"}};
  d.entry = "gemm_transposed";
  d.sources = {"common/vectors.cl"};
  d.params = {{"TS", 64, 32, "tile side; a work-group computes a TS×TS tile of C, TS deep in K"},
              {"WPT", 8, 4, "rows of C per work-item (TS/WPT apart)"},
              {"WIDTH", 4, 4, "vector width along K (1, 2, 4, 8); also columns of C per work-item (TS/WIDTH apart)"}};
  d.constraints = {positive("TS"), positive("WPT"), one_of("WIDTH", {1, 2, 4, 8}), divides("WPT", "TS"),
                   divides("WIDTH", "TS")};
  d.b_form = OperandForm::Transposed;  // the kernel reads Bt (n×k)
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
    return 2 * ts * (ts + width) * sizeof(float);  // both tiles padded by one vector per row
  };
  return d;
}

}  // namespace clgemm::detail
