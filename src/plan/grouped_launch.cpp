// grouped_launch.cpp — the grouped call's plan and command (grouped_launch.hpp).
#include "plan/grouped_launch.hpp"

#include <clgemm/error.hpp>

#include "kernels/gemm/grouped_kernel.hpp"
#include "kernels/precision.hpp"

#include <climits>

namespace clgemm::detail {

GroupedPlan plan_grouped(const DeviceInfo& device, DataType type, const GemmOptions& options) {
  KernelParams overrides = options.force_params;
  overrides["PRECISION"] = precision_bits(type);
  GroupedPlan plan;
  plan.params = resolve_params(grouped_descriptor(), device, overrides);
  plan.source = options.force_params.empty() ? "the grouped kernel's defaults for a " + device.kind_name()
                                             : "the caller's overrides of the grouped kernel's defaults";
  return plan;
}

LaunchPlan build_grouped_launch(const std::vector<RowMajorGemm>& problems, const GroupedPlan& plan) {
  LaunchPlan launch;
  if (problems.empty()) return launch;
  const RowMajorGemm& first = problems.front();
  const size_t tm = size_t(p(plan.params, "TM")), tn = size_t(p(plan.params, "TN"));
  BatchArrays arrays;
  arrays.scalar_type = compute_type(first.type);
  size_t tiles = 0;
  for (const RowMajorGemm& g : problems) {
    const size_t tiles_n = (g.n + tn - 1) / tn, count = ((g.m + tm - 1) / tm) * tiles_n;
    const uint64_t trans = (g.trans_a ? 1u : 0u) | (g.trans_b ? 2u : 0u);
    arrays.offsets.insert(arrays.offsets.end(), {g.m, g.n, g.k, g.a.ld, g.b.ld, g.c.ld, g.a.offset, g.b.offset,
                                                 g.c.offset, trans, tiles, std::max<size_t>(tiles_n, 1)});
    arrays.scalars.insert(arrays.scalars.end(), {g.alpha, g.beta});
    tiles += count;
  }
  if (tiles == 0) return launch;
  if (tiles > size_t(INT_MAX) || problems.size() > size_t(INT_MAX))
    throw Error(Status::SizeOverflow, "a grouped call of " + std::to_string(tiles) + " tiles of " +
                                          std::to_string(tm) + "x" + std::to_string(tn) +
                                          " exceeds the 2^31 - 1 work-groups one launch indexes");
  launch.batch_arrays.push_back(std::move(arrays));
  const GemmKernelDescriptor& d = grouped_descriptor();
  Command c;
  c.what = "grouped";
  c.sources = d.program_sources();
  c.entry = d.entry;
  c.options = build_options(plan.params) + storage_options(first.type, first.c_type);
  c.args = {KernelArg::i32(int64_t(problems.size())), KernelArg::mem(BufferRole::BatchOffsets, 0),
            KernelArg::mem(BufferRole::BatchScalars, 0), KernelArg::mem(BufferRole::A),
            KernelArg::mem(BufferRole::B), KernelArg::mem(BufferRole::C)};
  const cl::NDRange local = d.local(plan.params);
  c.dims = 2;
  c.global = {tiles * local[0], local[1], 1};
  c.local = {local[0], local[1], 1};
  launch.commands.push_back(std::move(c));
  return launch;
}

}  // namespace clgemm::detail
