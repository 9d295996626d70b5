// operand_prep.hpp — enqueues the copy of a matrix into a padded and/or transposed temporary.
#pragma once

#include <clgemm/context.hpp>

namespace clgemm::detail {

struct MatrixView {
  const cl::Buffer* buffer;  // not owned
  size_t offset = 0;  // in elements
  size_t rows = 0, cols = 0, ld = 0;  // row-major, ld >= cols
};

// dst (out_rows × out_cols, dense row-major) = src, or its transpose when `transpose`, with zeros
// outside the source. With `panel` > 0 the output is stored panel by panel (see
// prepare_operand.cl); out_cols must then be a multiple of it. Returns the event of the single
// kernel it enqueues.
cl::Event enqueue_prepare_operand(const Context& ctx, const cl::CommandQueue& queue, const MatrixView& src,
                                  bool transpose, const cl::Buffer& dst, size_t out_rows, size_t out_cols,
                                  const std::vector<cl::Event>* wait = nullptr, size_t panel = 0);

// Whether a transposing copy takes the float4 kernel (prepare_operand_t4) rather than the
// element-wise one: rows of the source and of the output on 16-byte boundaries.
bool uses_float4_transpose(const Context& ctx, const MatrixView& src, bool transpose, size_t out_cols, size_t panel);

// Builds (or finds) the preparation kernel ahead of time, so later enqueues cannot fail to build.
void build_prepare_operand(const Context& ctx, bool transpose, size_t panel = 0);

}  // namespace clgemm::detail
