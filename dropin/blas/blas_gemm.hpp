// blas_gemm.hpp — one GEMM as reference BLAS states it (column-major, C = alpha·op(A)·op(B) +
// beta·C), whatever entry point it came through, and whether its arguments are valid.
#pragma once

#include <clgemm/types.hpp>

#include <cstdint>

namespace clgemm::blas {

struct BlasGemm {
  char transa = 'N', transb = 'N';  // 'N', 'T' or 'C', either case
  int64_t m = 0, n = 0, k = 0, lda = 0, ldb = 0, ldc = 0;
  double alpha = 1, beta = 0;
  const void* a = nullptr;
  const void* b = nullptr;
  void* c = nullptr;
  DataType type = DataType::F32;  // F32 (sgemm) or F64 (dgemm)
};

bool transposed(char t);

// Reference BLAS's checks (the parameters xerbla would name): both transposes one of N, T, C;
// m, n, k ≥ 0; lda ≥ max(1, rows of A as stored), ldb likewise, ldc ≥ max(1, m). An invalid call
// goes to the host BLAS, which reports it as it always does.
bool valid(const BlasGemm& g);

// Whether reference BLAS returns without touching A or B: m or n of 0, or alpha 0 or k 0 (then C
// is only scaled, or set to 0 without being read where beta is 0). Such calls stay on the host.
bool trivial(const BlasGemm& g);

}  // namespace clgemm::blas
