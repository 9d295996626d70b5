// operand_prep.hpp — copies a matrix into a padded and/or transposed temporary now, for code that
// runs kernels of its own (the ladder); GEMM calls plan their copies (plan/launch_builder.hpp).
#pragma once

#include <clgemm/context.hpp>

namespace clgemm::detail {

struct MatrixView {
  const cl::Buffer* buffer;  // not owned
  size_t offset = 0;  // in elements
  size_t rows = 0, cols = 0, ld = 0;  // row-major, ld >= cols
};

// dst (out_rows × out_cols, dense row-major) = src, or its transpose when `transpose`, with zeros
// outside the source; with `panel` > 0 stored panel by panel (kernels/util/prepare_operand.hpp).
// Returns the event of the single kernel it enqueues.
cl::Event enqueue_prepare_operand(const Context& ctx, const cl::CommandQueue& queue, const MatrixView& src,
                                  bool transpose, const cl::Buffer& dst, size_t out_rows, size_t out_cols,
                                  size_t panel = 0);

}  // namespace clgemm::detail
