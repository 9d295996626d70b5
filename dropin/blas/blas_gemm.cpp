// blas_gemm.cpp — reference BLAS's view of a GEMM call.
#include "dropin/blas/blas_gemm.hpp"

#include <algorithm>

namespace clgemm::blas {

namespace {
bool known(char t) { return t == 'N' || t == 'n' || transposed(t); }
}  // namespace

bool transposed(char t) { return t == 'T' || t == 't' || t == 'C' || t == 'c'; }

bool valid(const BlasGemm& g) {
  if (!known(g.transa) || !known(g.transb) || g.m < 0 || g.n < 0 || g.k < 0) return false;
  const int64_t a_rows = transposed(g.transa) ? g.k : g.m, b_rows = transposed(g.transb) ? g.n : g.k;
  return g.lda >= std::max<int64_t>(1, a_rows) && g.ldb >= std::max<int64_t>(1, b_rows) &&
         g.ldc >= std::max<int64_t>(1, g.m);
}

bool trivial(const BlasGemm& g) { return g.m == 0 || g.n == 0 || g.k == 0 || g.alpha == 0.0; }

}  // namespace clgemm::blas
