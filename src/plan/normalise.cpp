// normalise.cpp — column-major calls as row-major ones.
#include "plan/normalise.hpp"

#include <utility>

namespace clgemm::detail {

RowMajorGemm to_row_major(const GemmCall& c) {
  RowMajorGemm r;
  r.alpha = c.alpha;
  r.beta = c.beta;
  r.c = c.c;
  r.type = c.a_type;
  r.c_type = c.c_type;
  const bool ta = c.a_transpose == Transpose::Yes, tb = c.b_transpose == Transpose::Yes;
  if (c.layout == Layout::RowMajor) {
    r.m = c.m, r.n = c.n, r.k = c.k;
    r.a = c.a, r.b = c.b;
    r.trans_a = ta, r.trans_b = tb;
  } else {
    // A column-major matrix is the row-major view of its transpose, so op(B)^T is the stored B
    // read "as is" when B is not transposed.
    r.m = c.n, r.n = c.m, r.k = c.k;
    r.a = c.b, r.b = c.a;
    r.trans_a = tb, r.trans_b = ta;
  }
  return r;
}

GemmOptions with_compute(const GemmCall& call, GemmOptions options) {
  switch (call.compute) {
    case ComputeType::F32: options.math = Math::Fp32; break;
    case ComputeType::Tf32: options.math = Math::Tf32; break;
    case ComputeType::Tf32x3: options.math = Math::Tf32x3; break;
    default: break;
  }
  if (call.a_type != DataType::F32) options.math = Math::Fp32;  // the tensor paths take f32 operands
  return options;
}

BatchSpec to_row_major(const GemmCall& call, BatchSpec batch) {
  if (call.layout == Layout::ColMajor) {
    std::swap(batch.a_offsets, batch.b_offsets);
    std::swap(batch.a_stride, batch.b_stride);
  }
  return batch;
}

}  // namespace clgemm::detail
