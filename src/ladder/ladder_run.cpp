// ladder_run.cpp — prepares and enqueues one ladder rung for one shape: resolves parameters,
// pads or transposes operands into temporaries when the kernel asks for it, copies C back.
#include <clgemm/error.hpp>
#include <clgemm/ladder.hpp>

#include "kernels/descriptor.hpp"
#include "ladder/rungs.hpp"
#include "exec/operand_prep.hpp"
#include "runtime/cl_error.hpp"

#include <climits>

namespace clgemm {

using detail::OperandForm;

struct LadderRun::Impl {
  const Context* ctx = nullptr;
  const detail::GemmKernelDescriptor* desc = nullptr;
  GemmShape shape, padded;
  KernelParams params;
  std::string options;
  cl::Kernel gemm;
  // A temporary replaces an operand when the kernel needs padding or the other orientation.
  bool a_temp = false, b_temp = false, c_temp = false;
  size_t a_panel = 0, b_panel = 0;
  cl::Buffer a_buf, b_buf, c_buf;
};

LadderRun::LadderRun(const Context& ctx, int rung, const GemmShape& shape, const KernelParams& overrides)
    : impl_(std::make_unique<Impl>()) {
  Impl& s = *impl_;
  s.ctx = &ctx;
  s.desc = &detail::ladder_descriptor(rung);
  s.shape = shape;
  if (shape.m == 0 || shape.n == 0 || shape.k == 0)
    throw Error(Status::InvalidArgument, "ladder sizes must be at least 1 (got m=" + std::to_string(shape.m) +
                                             " n=" + std::to_string(shape.n) + " k=" + std::to_string(shape.k) + ")");
  s.params = detail::resolve_params(*s.desc, ctx.info(), overrides);
  s.options = detail::build_options(s.params);

  const detail::Multiples mult = s.desc->multiples(s.params);
  s.padded = {detail::round_up(shape.m, mult.m), detail::round_up(shape.n, mult.n), detail::round_up(shape.k, mult.k)};
  // Ladder kernels index with 32-bit ints (faster on GPUs); refuse sizes where that would wrap.
  const double limit = double(INT_MAX);
  if (double(s.padded.m) * s.padded.k > limit || double(s.padded.k) * s.padded.n > limit ||
      double(s.padded.m) * s.padded.n > limit)
    throw Error(Status::InvalidArgument, "ladder kernels index matrices with 32-bit integers; every matrix must have "
                                         "fewer than 2^31 elements (after padding to the rung's tiles)");

  s.a_panel = s.desc->a_panel ? s.desc->a_panel(s.params) : 0;
  s.b_panel = s.desc->b_panel ? s.desc->b_panel(s.params) : 0;
  s.a_temp = s.desc->a_form == OperandForm::Transposed || s.a_panel || s.padded.m != shape.m || s.padded.k != shape.k;
  s.b_temp = s.desc->b_form == OperandForm::Transposed || s.b_panel || s.padded.k != shape.k || s.padded.n != shape.n;
  s.c_temp = s.padded.m != shape.m || s.padded.n != shape.n;
  if (s.a_temp) s.a_buf = ctx.buffer(s.padded.m * s.padded.k * sizeof(float));
  if (s.b_temp) s.b_buf = ctx.buffer(s.padded.k * s.padded.n * sizeof(float));
  if (s.c_temp) s.c_buf = ctx.buffer(s.padded.m * s.padded.n * sizeof(float));

  s.gemm = ctx.kernel(s.desc->program_sources(), s.options, s.desc->entry);
}

LadderRun::~LadderRun() = default;
LadderRun::LadderRun(LadderRun&&) noexcept = default;
LadderRun& LadderRun::operator=(LadderRun&&) noexcept = default;

const KernelParams& LadderRun::params() const { return impl_->params; }
const RungInfo& LadderRun::rung() const { return impl_->desc->info; }
std::string LadderRun::build_options() const { return impl_->options; }

std::vector<cl::Event> LadderRun::enqueue(const cl::Buffer& a, const cl::Buffer& b, const cl::Buffer& c) {
  Impl& s = *impl_;
  const Context& ctx = *s.ctx;
  const GemmShape& P = s.padded;
  std::vector<cl::Event> events;

  const bool at = s.desc->a_form == OperandForm::Transposed, bt = s.desc->b_form == OperandForm::Transposed;
  if (s.a_temp) {
    detail::MatrixView src{&a, 0, s.shape.m, s.shape.k, s.shape.k};
    events.push_back(detail::enqueue_prepare_operand(ctx, ctx.queue(), src, at, s.a_buf, at ? P.k : P.m, at ? P.m : P.k,
                                                     s.a_panel));
  }
  if (s.b_temp) {
    detail::MatrixView src{&b, 0, s.shape.k, s.shape.n, s.shape.n};
    events.push_back(detail::enqueue_prepare_operand(ctx, ctx.queue(), src, bt, s.b_buf, bt ? P.n : P.k, bt ? P.k : P.n,
                                                     s.b_panel));
  }

  detail::guard_cl("running ladder rung " + std::to_string(s.desc->info.number), [&] {
    s.gemm.setArg(0, cl_int(P.m));
    s.gemm.setArg(1, cl_int(P.n));
    s.gemm.setArg(2, cl_int(P.k));
    s.gemm.setArg(3, s.a_temp ? s.a_buf : a);
    s.gemm.setArg(4, s.b_temp ? s.b_buf : b);
    s.gemm.setArg(5, s.c_temp ? s.c_buf : c);
    cl::Event ev;
    ctx.queue().enqueueNDRangeKernel(s.gemm, cl::NullRange, s.desc->global(P, s.params), s.desc->local(s.params),
                                     nullptr, &ev);
    events.push_back(ev);
  });
  if (s.c_temp) {
    // Only the m×n part of the padded result goes to C, so the caller's buffer is never written
    // outside its elements. A kernel does the copy rather than clEnqueueCopyBufferRect, which
    // crashes PoCL 3.1 when C is a sub-buffer.
    detail::MatrixView padded_c{&s.c_buf, 0, s.shape.m, s.shape.n, P.n};
    events.push_back(detail::enqueue_prepare_operand(ctx, ctx.queue(), padded_c, false, c, s.shape.m, s.shape.n));
  }
  return events;
}

}  // namespace clgemm
