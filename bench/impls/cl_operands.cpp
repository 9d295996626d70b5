// bench/impls/cl_operands.cpp — device buffers for one problem.
#include "bench/impls/cl_operands.hpp"

#include <algorithm>

namespace clgemm::bench {

namespace {

cl::Buffer upload_floats(const Context& ctx, const std::vector<float>& host) {
  cl::Buffer b = ctx.buffer(std::max<size_t>(host.size(), 1) * sizeof(float));
  if (!host.empty()) ctx.queue().enqueueWriteBuffer(b, CL_TRUE, 0, host.size() * sizeof(float), host.data());
  return b;
}

}  // namespace

void ClOperands::upload(const Problem& p) {
  a_ = upload_floats(ctx_, p.a);
  b_ = upload_floats(ctx_, p.b);
  c0_ = upload_floats(ctx_, p.c0);
  c_ = ctx_.buffer(std::max<size_t>(p.c0.size(), 1) * sizeof(float));
  c_count_ = p.c0.size();
  reset_c();
}

void ClOperands::reset_c() {
  if (c_count_) ctx_.queue().enqueueCopyBuffer(c0_, c_, 0, 0, c_count_ * sizeof(float));
  ctx_.queue().finish();
}

std::vector<float> ClOperands::read_c() {
  std::vector<float> out(c_count_);
  if (c_count_) ctx_.queue().enqueueReadBuffer(c_, CL_TRUE, 0, c_count_ * sizeof(float), out.data());
  return out;
}

void ClOperands::clear() {
  ctx_.queue().finish();
  a_ = b_ = c_ = c0_ = cl::Buffer();
  c_count_ = 0;
}

}  // namespace clgemm::bench
