// inspect_api.cpp — inspect_call: what the device's compiler made of each kernel a call would run.
#include <clgemm/gemm.hpp>

#include "api/call_launch.hpp"
#include "api/sm90a_probe.hpp"
#include "plan/normalise.hpp"
#include "runtime/local_limits.hpp"

namespace clgemm {

std::vector<KernelReport> inspect_call(const DeviceInfo& device, const GemmCall& call, const GemmOptions& options,
                                       size_t batch_count) {
  const Context ctx(device);
  DeviceInfo scratch;
  const DeviceInfo& planned =
      detail::planning_device(ctx, call.a_type, detail::with_compute(call, options).math, scratch);
  const detail::LaunchPlan launch = detail::launch_of(planned, call, options, batch_count, call.m * call.k,
                                                      call.k * call.n, call.m * call.n);
  std::vector<KernelReport> out;
  for (const auto& c : launch.commands) {
    const auto built = ctx.inspect_kernel(c.sources, c.options, c.entry, c.ptx_rules, c.min_groups_per_cu);
    out.push_back({c.what, c.entry, c.options, built.ptx, built.log, built.local_bytes, built.private_bytes,
                   built.work_group_size, detail::static_local_limit(ctx), planned.local_mem_bytes});
  }
  return out;
}

}  // namespace clgemm
