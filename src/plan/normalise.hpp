// normalise.hpp — a call in the one form the planner and the kernels work in: row-major.
#pragma once

#include <clgemm/gemm.hpp>

#include "exec/problem.hpp"

namespace clgemm::detail {

// The call as a row-major GEMM: a column-major C is the row-major C^T = op(B)^T·op(A)^T, so A and
// B, m and n, and the transposes swap.
RowMajorGemm to_row_major(const GemmCall& call);

// The options with the call's compute type applied: an explicit F32, Tf32 or Tf32x3 sets
// options.math; Auto leaves it as it is (clgemmSetMath's), and other than f32 operands take
// float32 arithmetic.
GemmOptions with_compute(const GemmCall& call, GemmOptions options);

// The batch in the same terms: for a column-major call the A and B offsets and strides swap too.
BatchSpec to_row_major(const GemmCall& call, BatchSpec batch);

}  // namespace clgemm::detail
