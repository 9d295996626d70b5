// bench/impls/cl_operands.cpp — device buffers for one problem.
#include "bench/impls/cl_operands.hpp"

#include <algorithm>

namespace clgemm::bench {

namespace {

cl::Buffer upload_matrix(const Context& ctx, const HostMatrix& host) {
  cl::Buffer b = ctx.buffer(std::max<size_t>(host.byte_size(), 1));
  if (host.size()) ctx.queue().enqueueWriteBuffer(b, CL_TRUE, 0, host.byte_size(), host.data());
  return b;
}

}  // namespace

void ClOperands::upload(const Problem& p, Weights weights) {
  a_ = upload_matrix(ctx_, p.a);
  if (weights == Weights::Dense) {
    b_ = upload_matrix(ctx_, p.b);
  } else {
    w_ = ctx_.buffer(std::max<size_t>(p.w.size(), 1));
    if (!p.w.empty()) ctx_.queue().enqueueWriteBuffer(w_, CL_TRUE, 0, p.w.size(), p.w.data());
  }
  c0_ = upload_matrix(ctx_, p.c0);
  c_ = ctx_.buffer(std::max<size_t>(p.c0.byte_size(), 1));
  c_type_ = p.c0.type();
  c_count_ = p.c0.size();
  reset_c();
}

void ClOperands::reset_c() {
  if (c_count_) ctx_.queue().enqueueCopyBuffer(c0_, c_, 0, 0, c_count_ * data_type_bytes(c_type_));
  ctx_.queue().finish();
}

HostMatrix ClOperands::read_c() {
  HostMatrix out(c_type_, c_count_);
  if (c_count_) ctx_.queue().enqueueReadBuffer(c_, CL_TRUE, 0, out.byte_size(), out.data());
  return out;
}

void ClOperands::clear() {
  ctx_.queue().finish();
  a_ = b_ = w_ = c_ = c0_ = cl::Buffer();
  c_count_ = 0;
}

}  // namespace clgemm::bench
