// wide_form.hpp — how a call maps onto the wide kernel (gemm/wide/wide.cl), if it does: which operand
// is the large one that the kernel streams along its rows, and the sides of the product.
#pragma once

#include "exec/problem.hpp"

#include <cstddef>
#include <optional>

namespace clgemm::detail {

// out(p, l) = Σ_k S(p, k)·G(k, l) with G stored k×l, rows contiguous along l.
struct WideForm {
  bool g_is_b = true;  // G is the call's B (C has few rows), else its A as stored (C has few columns)
  size_t p = 0, l = 0;  // rows of the short operand S, columns of G
};

// C with at most kWideMaxP rows and B not transposed (G = B, S = op(A)); else C with at most
// kWideMaxP columns and A transposed (G = A as stored, K×M; S = op(B)ᵀ; C written transposed).
std::optional<WideForm> wide_form(const RowMajorGemm& g);

}  // namespace clgemm::detail
