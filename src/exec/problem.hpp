// problem.hpp — a GEMM call as the planner hands it to execution: in row-major terms, with its
// batch, and split into parts where the plan runs it as several GEMMs.
#pragma once

#include <clgemm/gemm.hpp>

#include <vector>

namespace clgemm::detail {

// A call after column-major ones are turned into row-major ones (C^T = op(B)^T·op(A)^T: swap A and
// B, and m and n). Operands are row-major views: A is m×k (k×m when trans_a), B is k×n (n×k when
// trans_b), C is m×n, each with its leading dimension.
struct RowMajorGemm {
  size_t m = 0, n = 0, k = 0;
  bool trans_a = false, trans_b = false;
  double alpha = 1.0, beta = 0.0;  // used in the compute type (kernels/precision.hpp)
  MatrixRef a, b, c;
  DataType type = DataType::F32;    // of A and B; the compute type follows (kernels/precision.hpp)
  DataType c_type = DataType::F32;
  // C stored transposed: element (i, j) at c[j·ld + i]. Only the tall kernel's reversed calls
  // (plan/plan_call.cpp) set it; their a and b are the caller's B and A, whose buffers keep their
  // roles (BufferRole::B and A).
  bool c_trans = false;
};

// Whether a GEMM reads A and B: with k = 0 or alpha = 0 it computes C = beta·C and touches
// neither.
inline bool reads_operands(size_t k, double alpha) { return k > 0 && alpha != 0.0; }

// Which GEMMs of a batch to run: a count with fixed strides, or explicit per-batch arrays (in
// row-major terms: after normalisation, a and b offsets are already swapped for column-major
// calls).
struct BatchSpec {
  size_t count = 1;
  size_t a_stride = 0, b_stride = 0, c_stride = 0;
  bool arrays = false;
  std::vector<double> alphas, betas;
  std::vector<size_t> a_offsets, b_offsets, c_offsets;
};

// One GEMM of a call that runs as several, on disjoint blocks of C (plan/edge_split.hpp).
struct GemmPart {
  RowMajorGemm g;
  BatchSpec batch;
  GemmPlan plan;
  size_t row0 = 0, col0 = 0;  // where the part's g.m × g.n block starts in the call's (row-major) C
};

}  // namespace clgemm::detail
