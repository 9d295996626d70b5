// candidate_bench.cpp — the tuner's check and timing of one configuration (candidate_bench.hpp).
#include "tune/candidate_bench.hpp"

#include <clgemm/cpu.hpp>
#include <clgemm/error.hpp>
#include <clgemm/gemm.hpp>

#include "exec/gemm_exec.hpp"
#include "kernels/gemm/xmma/xmma_kernel.hpp"
#include "plan/launch_builder.hpp"
#include "kernels/gemm/tunable_kernels.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

namespace clgemm::detail {

namespace {

// Fills C with NaN in its type, so that an element the kernel skips shows up as wrong.
void fill_nan(const cl::CommandQueue& q, const cl::Buffer& c, DataType type, size_t count) {
  const size_t bytes = count * data_type_bytes(type);
  switch (type) {
    case DataType::F64: q.enqueueFillBuffer(c, std::numeric_limits<double>::quiet_NaN(), 0, bytes); break;
    case DataType::F16: q.enqueueFillBuffer(c, uint16_t(0x7e00), 0, bytes); break;
    case DataType::BF16: q.enqueueFillBuffer(c, uint16_t(0x7fc0), 0, bytes); break;
    default: q.enqueueFillBuffer(c, std::numeric_limits<float>::quiet_NaN(), 0, bytes); break;
  }
}

// An operand of `count` random values in [-1, 1) stored as `type`, uploaded to a new buffer;
// `values` receives them as stored (rounded to the type), for the reference.
cl::Buffer upload_random(const Context& ctx, DataType type, size_t count, uint64_t seed, std::vector<double>& values) {
  std::vector<float> drawn(count);
  cpu::fill_random(drawn, seed);
  const std::vector<unsigned char> bytes = cpu::to_storage(type, std::vector<double>(drawn.begin(), drawn.end()));
  values = cpu::from_storage(type, bytes.data(), count);
  cl::Buffer buffer = ctx.buffer(bytes.size());
  ctx.queue().enqueueWriteBuffer(buffer, CL_TRUE, 0, bytes.size(), bytes.data());
  return buffer;
}

}  // namespace

CandidateBench::CandidateBench(const Context& ctx, const DeviceInfo& device, const GemmShape& s, DataType type,
                               std::mt19937_64& rng)
    : ctx_(ctx), device_(device), s_(s), type_(type) {
  std::vector<double> a, b;
  da_ = upload_random(ctx, type, s.m * s.k * s.batch, rng(), a);
  db_ = upload_random(ctx, type, s.k * s.n * s.batch, rng(), b);
  dc_ = ctx.buffer(s.m * s.n * s.batch * data_type_bytes(type));
  ref_ = cpu::gemm_reference_f64(s, a.data(), b.data());
  g_.m = s.m, g_.n = s.n, g_.k = s.k;
  g_.a = {da_(), 0, s.k};
  g_.b = {db_(), 0, s.n};
  g_.c = {dc_(), 0, s.n};
  g_.type = g_.c_type = type;
  batch_.count = s.batch;
  batch_.a_stride = s.m * s.k, batch_.b_stride = s.k * s.n, batch_.c_stride = s.m * s.n;
}

Measurement CandidateBench::run(const std::string& kernel, const KernelParams& ps, const SplitK& split, bool pack_b) {
  Measurement m;
  m.params = ps;
  GemmPlan plan;
  plan.path = tunable_family(kernel).path;
  plan.kernel = kernel;
  plan.params = ps;
  plan.splits = split.splits, plan.split_tiles = split.split_tiles, plan.sk_groups = split.sk_groups;
  plan.pack_b = pack_b;
  const cl::CommandQueue& q = ctx_.queue();
  const CallerBuffers buffers{g_.a.buffer, g_.b.buffer, g_.c.buffer};
  const size_t count = s_.m * s_.n * s_.batch;
  std::vector<unsigned char> c(count * data_type_bytes(type_));
  LaunchPlan launch;
  try {
    launch = build_launch_plan(device_, {GemmPart{g_, batch_, plan}});
    fill_nan(q, dc_, type_, count);
    enqueue_plan(ctx_, q, launch, buffers);
    q.enqueueReadBuffer(dc_, CL_TRUE, 0, c.size(), c.data());
  } catch (const Error& e) {
    m.outcome = e.status() == Status::BuildFailure ? Measurement::BuildFailed : Measurement::LaunchFailed;
    m.note = e.status() == Status::BuildFailure ? "build failed" : e.what();
    return m;
  } catch (const cl::Error& e) {
    m.outcome = Measurement::LaunchFailed;
    m.note = e.what();
    return m;
  }
  const std::vector<double> got = cpu::from_storage(type_, c.data(), count);
  const double err = cpu::relative_error(got.data(), ref_.data(), count);
  // TF32 products: xmma's with one term; wgmma's on float32 inputs (TERMS 1, what it tunes).
  const bool tf32 = (kernel == "xmma" && tf32_terms(ps)) || (kernel == "wgmma" && type_ == DataType::F32);
  const double tolerance =
      tf32 ? cpu::gemm_tolerance(s_.k, true) : cpu::gemm_tolerance(s_.k, type_, type_);
  if (!(err <= tolerance)) {
    m.outcome = Measurement::Wrong;
    m.note = "wrong result, relative error " + std::to_string(err);
    return m;
  }
  // Enough repeats for a stable median without spending the budget on one candidate.
  std::vector<std::pair<double, std::vector<double>>> runs;  // (span, per command)
  double sum = 0;
  for (int r = 0; r < 10; ++r) {
    std::vector<cl::Event> trace;
    enqueue_plan(ctx_, q, launch, buffers, &trace);
    cl::Event::waitForEvents(trace);
    std::vector<double> each;
    for (const auto& e : trace) each.push_back(elapsed_seconds({e}));
    runs.push_back({elapsed_seconds(trace), each});
    sum += runs.back().first;
    if (runs.size() >= 3 && sum > 0.05) break;
  }
  std::sort(runs.begin(), runs.end());
  m.seconds = runs[runs.size() / 2].first;
  m.command_seconds = runs[runs.size() / 2].second;
  m.gflops = gemm_flops(s_) / m.seconds * 1e-9;
  m.outcome = Measurement::Ok;
  return m;
}

}  // namespace clgemm::detail
