// gemm_api.cpp — the public gemm, gemm_batched, gemm_strided_batched and gemm_grouped: check,
// plan, enqueue.
#include <clgemm/error.hpp>
#include <clgemm/gemm.hpp>

#include "api/call_events.hpp"
#include "api/context_registry.hpp"
#include "api/gemm_checks.hpp"
#include "api/grouped_checks.hpp"
#include "api/sm90a_probe.hpp"
#include "exec/gemm_exec.hpp"
#include "plan/grouped_launch.hpp"
#include "plan/grouped_per_problem.hpp"
#include "plan/launch_builder.hpp"
#include "plan/normalise.hpp"
#include "plan/plan_call.hpp"

#include <algorithm>
#include <memory>
#include <utility>

namespace clgemm {

namespace {

// What every entry point checks before anything else: the queue (whose context it returns),
// the enums and the index range.
cl_context check_common(const GemmCall& call, cl_command_queue queue) {
  const cl_context context = detail::check_queue(queue);
  detail::check_enums(call);
  detail::check_index_range(call);
  return context;
}

bool nothing_to_compute(const GemmCall& call) { return call.m == 0 || call.n == 0; }

void run(const GemmCall& call, detail::BatchSpec spec, bool scale_only, cl_command_queue queue, cl_event* event,
         const GemmOptions& options) {
  // Held to the end of the call: clgemmClearCache on another thread must not destroy it meanwhile.
  const std::shared_ptr<const Context> held = detail::context_for_queue(queue);
  const Context& ctx = *held;
  detail::check_device(ctx.info());
  detail::check_device_types(call, ctx.info());
  const detail::RowMajorGemm g = detail::to_row_major(call);
  spec = detail::to_row_major(call, std::move(spec));
  const GemmOptions with_compute = detail::with_compute(call, options);
  const cl::CommandQueue q(queue, true);
  if (options.events) options.events->clear();
  DeviceInfo scratch;
  const DeviceInfo& device =
      scale_only ? ctx.info() : detail::planning_device(ctx, g.type, with_compute.math, scratch);
  const detail::LaunchPlan plan = scale_only ? detail::build_scale_plan(device, g, spec)
                       : detail::build_launch_plan(device, detail::plan_parts(device, g, spec, with_compute));
  detail::hand_back(detail::enqueue_plan(ctx, q, plan, {g.a.buffer, g.b.buffer, g.c.buffer}, options.events), event);
}

}  // namespace

void gemm(const GemmCall& call, cl_command_queue queue, cl_event* event, const GemmOptions& options) {
  const cl_context context = check_common(call, queue);
  if (nothing_to_compute(call)) return detail::hand_back_marker(queue, event);
  detail::check_operands(call, context, {1, call.a.offset}, {1, call.b.offset}, {1, call.c.offset}, call.beta != 0.0);
  run(call, {}, !detail::reads_operands(call.k, call.alpha), queue, event, options);
}

void gemm_batched(const GemmCall& call, const std::vector<double>& alphas, const std::vector<double>& betas,
                  const std::vector<size_t>& a_offsets, const std::vector<size_t>& b_offsets,
                  const std::vector<size_t>& c_offsets, cl_command_queue queue, cl_event* event,
                  const GemmOptions& options) {
  const size_t count = alphas.size();
  detail::check_batch_count(count);
  const std::pair<const char*, size_t> sizes[] = {
      {"betas", betas.size()}, {"a_offsets", a_offsets.size()}, {"b_offsets", b_offsets.size()}, {"c_offsets", c_offsets.size()}};
  for (const auto& [name, size] : sizes)
    if (size != count)
      throw Error(Status::InvalidBatchCount, std::string(name) + " holds " + std::to_string(size) +
                                                 " entries but alphas holds " + std::to_string(count) +
                                                 "; every per-batch array needs batch_count entries");
  const cl_context context = check_common(call, queue);
  if (nothing_to_compute(call)) return detail::hand_back_marker(queue, event);
  // alpha varies per batch, so A and B are checked as if read (the kernel ignores them where
  // alpha is 0, but must never read outside their buffers).
  GemmCall checked = call;
  checked.alpha = 1.0;
  const bool c_read = std::any_of(betas.begin(), betas.end(), [](double b) { return b != 0.0; });
  auto listed = [count](const std::vector<size_t>& offsets) { return detail::ItemStarts{count, 0, 0, &offsets}; };
  detail::check_operands(checked, context, listed(a_offsets), listed(b_offsets), listed(c_offsets), c_read);
  detail::BatchSpec spec;
  spec.count = count;
  spec.arrays = true;
  spec.alphas = alphas, spec.betas = betas;
  spec.a_offsets = a_offsets, spec.b_offsets = b_offsets, spec.c_offsets = c_offsets;
  run(call, spec, call.k == 0, queue, event, options);
}

void gemm_strided_batched(const GemmCall& call, size_t a_stride, size_t b_stride, size_t c_stride, size_t batch_count,
                          cl_command_queue queue, cl_event* event, const GemmOptions& options) {
  detail::check_batch_count(batch_count);
  const cl_context context = check_common(call, queue);
  if (nothing_to_compute(call)) return detail::hand_back_marker(queue, event);
  detail::check_operands(call, context, {batch_count, call.a.offset, a_stride}, {batch_count, call.b.offset, b_stride},
                         {batch_count, call.c.offset, c_stride}, call.beta != 0.0);
  detail::BatchSpec spec;
  spec.count = batch_count;
  spec.a_stride = a_stride, spec.b_stride = b_stride, spec.c_stride = c_stride;
  run(call, spec, !detail::reads_operands(call.k, call.alpha), queue, event, options);
}

void gemm_grouped(const std::vector<GemmCall>& problems, cl_command_queue queue, cl_event* event,
                  const GemmOptions& options) {
  const cl_context context = detail::check_queue(queue);
  detail::check_grouped(problems, context);
  std::vector<detail::RowMajorGemm> rows;
  for (const GemmCall& p : problems)
    if (detail::grouped_has_work(p)) rows.push_back(detail::to_row_major(p));
  if (rows.empty()) return detail::hand_back_marker(queue, event);
  const std::shared_ptr<const Context> held = detail::context_for_queue(queue);
  const Context& ctx = *held;
  detail::check_device(ctx.info());
  detail::check_device_types(problems.front(), ctx.info());
  // The buffers of the problems that use them (check_grouped made them the same), in row-major
  // terms: a column-major call's A is the kernel's B.
  detail::CallerBuffers buffers;
  for (size_t i = 0, r = 0; i < problems.size(); ++i) {
    if (!detail::grouped_has_work(problems[i])) continue;
    const detail::RowMajorGemm& g = rows[r++];
    if (!buffers.c) buffers.c = g.c.buffer;
    if (!buffers.a && detail::grouped_reads_ab(problems[i])) buffers.a = g.a.buffer, buffers.b = g.b.buffer;
  }
  // 16-bit problems may take the wgmma path one by one, which only the planning device shows.
  DeviceInfo scratch;
  const DataType type = rows.front().type;
  const GemmOptions with_compute = detail::with_compute(problems.front(), options);
  const DeviceInfo& device = type == DataType::F16 || type == DataType::BF16
                                 ? detail::planning_device(ctx, type, with_compute.math, scratch)
                                 : ctx.info();
  const detail::LaunchPlan launch =
      detail::grouped_runs_per_problem(device, rows, with_compute)
          ? detail::build_per_problem_launch(device, rows, with_compute)
          : detail::build_grouped_launch(rows, detail::plan_grouped(ctx.info(), rows, options));
  if (options.events) options.events->clear();
  const cl::CommandQueue q(queue, true);
  detail::hand_back(detail::enqueue_plan(ctx, q, launch, buffers, options.events), event);
}

}  // namespace clgemm
