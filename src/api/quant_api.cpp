// quant_api.cpp — the public gemm_quantized and gemm_quantized_strided_batched: check, plan,
// enqueue.
#include <clgemm/error.hpp>
#include <clgemm/quant.hpp>

#include "api/call_events.hpp"
#include "api/context_registry.hpp"
#include "api/gemm_checks.hpp"
#include "api/quant_checks.hpp"
#include "quant/quant_operands.hpp"

namespace clgemm {

namespace {

void run(const QuantGemmCall& call, size_t a_stride, size_t w_stride, size_t c_stride, size_t batch_count,
         cl_command_queue queue, cl_event* event, const GemmOptions& options) {
  const cl_context context = detail::check_queue(queue);
  detail::check_quant_enums(call);
  if (options.events) options.events->clear();
  if (call.m == 0 || call.n == 0) return detail::hand_back_marker(queue, event);
  detail::check_quant_operands(call, context, a_stride, w_stride, c_stride, batch_count);
  const std::shared_ptr<const Context> held = detail::context_for_queue(queue);
  detail::check_device(held->info());
  const QuantPlan plan = plan_quantized(held->info(), call, batch_count);
  const cl::CommandQueue q(queue, true);
  const cl::Event done = detail::enqueue_quantized(
      *held, q, plan, detail::quant_operands(call, a_stride, w_stride, c_stride));
  if (options.events) options.events->push_back(done);
  detail::hand_back(done, event);
}

}  // namespace

void gemm_quantized(const QuantGemmCall& call, cl_command_queue queue, cl_event* event, const GemmOptions& options) {
  run(call, 0, 0, 0, 1, queue, event, options);
}

void gemm_quantized_strided_batched(const QuantGemmCall& call, size_t a_stride, size_t w_stride_bytes,
                                    size_t c_stride, size_t batch_count, cl_command_queue queue, cl_event* event,
                                    const GemmOptions& options) {
  detail::check_batch_count(batch_count);
  run(call, a_stride, w_stride_bytes, c_stride, batch_count, queue, event, options);
}

}  // namespace clgemm
