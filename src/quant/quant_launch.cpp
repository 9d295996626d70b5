// quant_launch.cpp — a checked quantized call as the kernels' arguments, and its one launch.
#include "quant/quant_operands.hpp"

#include "exec/problem.hpp"
#include "runtime/cl_error.hpp"

namespace clgemm::detail {

namespace {

std::vector<std::string> kernel_sources(const std::string& kernel) {
  return {"common/vectors.cl", "quant/dequant_octet.cl", "quant/" + kernel + ".cl"};
}

}  // namespace

QuantOperands quant_operands(const QuantGemmCall& call, size_t a_stride, size_t w_stride_bytes, size_t c_stride) {
  QuantOperands q;
  const bool row = call.layout == Layout::RowMajor;
  const bool reads = reads_operands(call.k, call.alpha);
  q.m = int(call.m), q.n = int(call.n), q.units = reads ? int(call.k / 32) : 0;
  q.alpha = float(call.alpha), q.beta = float(call.beta);
  q.a = reads ? call.a.buffer : nullptr;
  q.w = reads ? call.w.buffer : nullptr;
  q.c = call.c.buffer;
  q.a_off = call.a.offset, q.a_stride = a_stride;
  q.a_rs = row ? int(call.a.ld) : 1, q.a_cs = row ? 1 : int(call.a.ld);
  q.w_off = call.w.offset, q.w_row_bytes = call.w.row_bytes, q.w_stride = w_stride_bytes;
  q.c_off = call.c.offset, q.c_stride = c_stride;
  q.c_rs = row ? int(call.c.ld) : 1, q.c_cs = row ? 1 : int(call.c.ld);
  return q;
}

cl::Event enqueue_quantized(const Context& ctx, const cl::CommandQueue& queue, const QuantPlan& plan,
                            const QuantOperands& q) {
  cl::Kernel kernel = ctx.kernel(kernel_sources(plan.kernel), plan.options, plan.kernel);
  cl::Event event;
  guard_cl("running the quantized GEMM kernel " + plan.kernel, [&] {
    int i = 0;
    kernel.setArg(i++, cl_int(q.m));
    kernel.setArg(i++, cl_int(q.n));
    kernel.setArg(i++, cl_int(q.units));
    kernel.setArg(i++, cl_float(q.alpha));
    kernel.setArg(i++, cl_float(q.beta));
    kernel.setArg(i++, sizeof(cl_mem), &q.a);
    kernel.setArg(i++, q.a_off);
    kernel.setArg(i++, cl_int(q.a_rs));
    kernel.setArg(i++, cl_int(q.a_cs));
    kernel.setArg(i++, q.a_stride);
    kernel.setArg(i++, sizeof(cl_mem), &q.w);
    kernel.setArg(i++, q.w_off);
    kernel.setArg(i++, q.w_row_bytes);
    kernel.setArg(i++, q.w_stride);
    kernel.setArg(i++, sizeof(cl_mem), &q.c);
    kernel.setArg(i++, q.c_off);
    kernel.setArg(i++, cl_int(q.c_rs));
    kernel.setArg(i++, cl_int(q.c_cs));
    kernel.setArg(i++, q.c_stride);
    const cl::NDRange global(plan.global[0], plan.global[1], plan.global[2]);
    const cl::NDRange local(plan.local[0], plan.local[1], plan.local[2]);
    queue.enqueueNDRangeKernel(kernel, cl::NullRange, global, local, nullptr, &event);
  });
  return event;
}

}  // namespace clgemm::detail
