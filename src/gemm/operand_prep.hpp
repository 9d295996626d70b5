// operand_prep.hpp — enqueues the copy of a matrix into a padded and/or transposed temporary.
#pragma once

#include <clgemm/context.hpp>

namespace clgemm::detail {

struct MatrixView {
  const cl::Buffer* buffer;
  size_t offset = 0;  // in elements
  size_t rows = 0, cols = 0, ld = 0;  // row-major, ld >= cols
};

// dst (out_rows × out_cols, dense row-major) = src, or its transpose when `transpose`, with zeros
// outside the source. Returns the event of the single kernel it enqueues.
cl::Event enqueue_prepare_operand(const Context& ctx, const MatrixView& src, bool transpose, const cl::Buffer& dst,
                                  size_t out_rows, size_t out_cols, const std::vector<cl::Event>* wait = nullptr);

}  // namespace clgemm::detail
