// quant_checks.hpp — argument checks of the quantized GEMM (clgemm/quant.hpp). Each throws Error
// with its own status and a message naming the argument, before anything is enqueued.
#pragma once

#include <clgemm/quant.hpp>

namespace clgemm::detail {

// Layout, format, element types, k against the format's block, and the 32-bit index range.
void check_quant_enums(const QuantGemmCall& call);

// A, W and C for batch_count items (strides as gemm_quantized_strided_batched takes them):
// leading dimensions and W's row bytes, buffers of the queue's context that are large enough and
// allow the access, and a C that overlaps neither A, W nor another item of itself. A and W are
// not looked at where the call reads neither (k = 0 or alpha = 0).
void check_quant_operands(const QuantGemmCall& call, cl_context queue_context, size_t a_stride, size_t w_stride_bytes,
                          size_t c_stride, size_t batch_count);

}  // namespace clgemm::detail
