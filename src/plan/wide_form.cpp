// wide_form.cpp — which calls the wide kernel can read in place.
#include "plan/wide_form.hpp"

#include "kernels/gemm/wide/wide_kernel.hpp"

namespace clgemm::detail {

std::optional<WideForm> wide_form(const RowMajorGemm& g) {
  if (g.m <= kWideMaxP && !g.trans_b) return WideForm{true, g.m, g.n};
  if (g.n <= kWideMaxP && g.trans_a) return WideForm{false, g.n, g.m};
  return std::nullopt;
}

}  // namespace clgemm::detail
