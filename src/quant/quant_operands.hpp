// quant_operands.hpp — a quantized call in the kernels' terms: every matrix as an offset and two
// strides, whatever the caller's layout, and the enqueueing of its one kernel.
#pragma once

#include <clgemm/context.hpp>
#include <clgemm/quant.hpp>

namespace clgemm::detail {

// A(r, k) lies at a_off + r·a_rs + k·a_cs elements of A's buffer, C(r, col) at c_off + r·c_rs +
// col·c_cs; row n of W at w_off + n·w_row_bytes bytes. Item i of a batch adds i times the stride.
// `units` (k / 32) is 0 where the call reads neither A nor W (k = 0 or alpha = 0): the kernel then
// only scales C.
struct QuantOperands {
  int m = 0, n = 0, units = 0;
  float alpha = 1, beta = 0;
  cl_mem a = nullptr, w = nullptr, c = nullptr;
  cl_ulong a_off = 0, a_stride = 0, w_off = 0, w_row_bytes = 0, w_stride = 0, c_off = 0, c_stride = 0;
  int a_rs = 0, a_cs = 0, c_rs = 0, c_cs = 0;
};

// The operands of `call`, checked already (api/quant_checks.hpp), with the items' strides.
QuantOperands quant_operands(const QuantGemmCall& call, size_t a_stride, size_t w_stride_bytes, size_t c_stride);

// Builds (or finds) the plan's kernel and enqueues it on `queue` over the plan's work sizes, which
// count the batch's items; returns its event.
cl::Event enqueue_quantized(const Context& ctx, const cl::CommandQueue& queue, const QuantPlan& plan,
                            const QuantOperands& ops);

}  // namespace clgemm::detail
