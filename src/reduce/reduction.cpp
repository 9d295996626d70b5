// reduction.cpp — Reduction: the two-phase compensated sum (reduce/sum.cl) prepared for one length.
//
// Defaults. GPU (for the NVIDIA H200): WG = 256, UNROLL = 4, GROUPS_PER_CU = 4 → 528 groups,
// 1024 work-items per SM each with 4 float4 loads (64 B) in flight: ~8.6 MB in flight, 2–3× the
// bandwidth·latency product (4.3 TB/s × ~0.8 µs), and one wave only: the grid is persistent, every
// group does the same amount of work, so there is no tail. Four groups per SM stay resident up to
// 64 registers per work-item (the kernel needs ~32-40), so a register-hungrier compiler cannot
// split the grid into two waves, which a full 8 groups per SM (2048 work-items, 32 registers
// each) would risk. CPU (PoCL): a group is one loop on one core; 64 work-items vectorise well,
// 4 groups per core balance the cores.
#include <clgemm/error.hpp>
#include <clgemm/reduce.hpp>

#include "kernels/descriptor.hpp"
#include "runtime/cl_error.hpp"

#include <algorithm>
#include <cstdint>

namespace clgemm {

namespace {
const char* kSumFile = "reduce/sum.cl";
}

const std::vector<ReduceParamInfo>& reduce_params() {
  static const std::vector<ReduceParamInfo> specs = {
      {"WG", 256, 64, "work-items per group in both phases (a power of two)"},
      {"UNROLL", 4, 2, "float4 loads in flight per work-item per iteration"},
      {"GROUPS_PER_CU", 4, 4, "phase-1 work-groups per compute unit (at most)"},
      {"CONTIGUOUS", 0, 1, "1: each work-item sums one contiguous run (CPUs); 0: grid stride (GPUs)"},
  };
  return specs;
}

struct Reduction::Impl {
  const Context* ctx = nullptr;
  size_t n = 0, groups = 1, wg = 0;
  KernelParams params;
  std::string options;
  cl::Kernel partials_kernel, final_kernel;
  cl::Buffer partials, result;
};

Reduction::Reduction(const Context& ctx, size_t n, const KernelParams& overrides) : impl_(std::make_unique<Impl>()) {
  Impl& s = *impl_;
  s.ctx = &ctx;
  s.n = n;
  const DeviceInfo& dev = ctx.info();
  const bool cpu = dev.kind == DeviceKind::CPU;
  for (const auto& spec : reduce_params()) s.params[spec.name] = cpu ? spec.cpu_default : spec.gpu_default;
  for (const auto& [name, value] : overrides) {
    if (!s.params.count(name))
      throw Error(Status::InvalidArgument, "the reduction has no parameter '" + name + "'; its parameters are: WG, "
                                           "UNROLL, GROUPS_PER_CU, CONTIGUOUS");
    s.params[name] = value;
  }
  const long wg = s.params.at("WG"), unroll = s.params.at("UNROLL"), gpc = s.params.at("GROUPS_PER_CU");
  const long contiguous = s.params.at("CONTIGUOUS");
  if (wg < 1 || (wg & (wg - 1)) != 0 || unroll < 1 || gpc < 1 || (contiguous != 0 && contiguous != 1))
    throw Error(Status::InvalidArgument, "reduction parameters " + detail::build_options(s.params) +
                                             ": WG must be a power of two, UNROLL and GROUPS_PER_CU at least 1, "
                                             "CONTIGUOUS 0 or 1");
  if (size_t(wg) > dev.max_work_group_size)
    throw Error(Status::OutOfResources, "reduction: WG=" + std::to_string(wg) + " work-items per group, more than the "
                                        "device's " + std::to_string(dev.max_work_group_size) + "; lower WG");
  if (size_t(wg) * 2 * sizeof(float) > dev.local_mem_bytes)
    throw Error(Status::OutOfResources, "reduction: WG=" + std::to_string(wg) + " needs more local memory than the "
                                        "device has; lower WG");
  s.wg = size_t(wg);

  // Enough groups for the work, at most GROUPS_PER_CU per compute unit.
  const size_t per_group = s.wg * size_t(unroll) * 4;  // elements one group takes per iteration
  s.groups = std::clamp<size_t>((n + per_group - 1) / per_group, 1, size_t(gpc) * std::max(1u, dev.compute_units));
  // The kernel indexes float4s with 32-bit unsigned ints; the loop bound i + UNROLL·items must not wrap.
  if (double(n) / 4 + double(unroll + 1) * double(s.groups * s.wg) >= double(UINT32_MAX))
    throw Error(Status::InvalidArgument, "reduction of " + std::to_string(n) + " floats: more than the kernel's "
                                         "32-bit float4 indexing allows (about 2^34 elements); sum it in parts");

  s.options = detail::build_options({{"WG", wg}, {"UNROLL", unroll}, {"CONTIGUOUS", contiguous}});
  s.partials_kernel = ctx.kernel({kSumFile}, s.options, "sum_partials");
  s.final_kernel = ctx.kernel({kSumFile}, s.options, "sum_final");
  s.partials = ctx.buffer(s.groups * 2 * sizeof(float));
  s.result = ctx.buffer(sizeof(float));
}

Reduction::~Reduction() = default;
Reduction::Reduction(Reduction&&) noexcept = default;
Reduction& Reduction::operator=(Reduction&&) noexcept = default;

size_t Reduction::size() const { return impl_->n; }
size_t Reduction::groups() const { return impl_->groups; }
const KernelParams& Reduction::params() const { return impl_->params; }
std::string Reduction::build_options() const { return impl_->options; }
const cl::Buffer& Reduction::result_buffer() const { return impl_->result; }

std::vector<cl::Event> Reduction::enqueue(const cl::Buffer& x, size_t offset) {
  Impl& s = *impl_;
  const size_t have = detail::guard_cl("inspecting a buffer", [&] { return x.getInfo<CL_MEM_SIZE>(); });
  if (have < (offset + s.n) * sizeof(float))
    throw Error(Status::InvalidArgument, "reduction: the buffer holds " + std::to_string(have / sizeof(float)) +
                                             " floats, fewer than offset + n = " + std::to_string(offset + s.n));
  // Scalars up to the first 16-byte boundary, then float4s, then the scalars after the last one.
  const size_t head = std::min(s.n, (4 - offset % 4) % 4);
  const size_t nv = (s.n - head) / 4;
  const size_t tail = s.n - head - 4 * nv;
  std::vector<cl::Event> events(2);
  detail::guard_cl("running the reduction", [&] {
    s.partials_kernel.setArg(0, x);
    s.partials_kernel.setArg(1, cl_ulong(offset));
    s.partials_kernel.setArg(2, cl_uint(head));
    s.partials_kernel.setArg(3, cl_uint(nv));
    s.partials_kernel.setArg(4, cl_uint(tail));
    s.partials_kernel.setArg(5, s.partials);
    s.ctx->queue().enqueueNDRangeKernel(s.partials_kernel, cl::NullRange, cl::NDRange(s.groups * s.wg),
                                        cl::NDRange(s.wg), nullptr, &events[0]);
    s.final_kernel.setArg(0, s.partials);
    s.final_kernel.setArg(1, cl_uint(s.groups));
    s.final_kernel.setArg(2, s.result);
    s.ctx->queue().enqueueNDRangeKernel(s.final_kernel, cl::NullRange, cl::NDRange(s.wg), cl::NDRange(s.wg), nullptr,
                                        &events[1]);
  });
  return events;
}

float Reduction::result() const {
  float out = 0.0f;
  detail::guard_cl("reading the reduction result", [&] {
    impl_->ctx->queue().enqueueReadBuffer(impl_->result, CL_TRUE, 0, sizeof(float), &out);
  });
  return out;
}

float reduce_sum(const Context& ctx, const cl::Buffer& x, size_t n, size_t offset) {
  Reduction r(ctx, n);
  r.enqueue(x, offset);
  return r.result();
}

}  // namespace clgemm
