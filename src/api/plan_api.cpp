// plan_api.cpp — plan_call: what a call would run, from the same planner and builder as gemm().
#include <clgemm/error.hpp>
#include <clgemm/gemm.hpp>

#include "api/call_launch.hpp"
#include "api/gemm_checks.hpp"
#include "plan/launch_builder.hpp"
#include "plan/normalise.hpp"
#include "plan/plan_call.hpp"

#include <sstream>

namespace clgemm {

namespace detail {

LaunchPlan launch_of(const DeviceInfo& device, const GemmCall& call, const GemmOptions& options, size_t batch_count,
                     size_t a_stride, size_t b_stride, size_t c_stride, std::vector<PlannedPart>* parts_out) {
  check_batch_count(batch_count);
  check_enums(call);
  check_index_range(call);
  check_device_types(call, device);
  if (call.m == 0 || call.n == 0) return {};
  const RowMajorGemm g = to_row_major(call);
  BatchSpec spec;
  spec.count = batch_count;
  spec.a_stride = a_stride, spec.b_stride = b_stride, spec.c_stride = c_stride;
  spec = to_row_major(call, spec);
  if (!reads_operands(call.k, call.alpha)) return build_scale_plan(device, g, spec);
  const std::vector<GemmPart> parts = plan_parts(device, g, spec, with_compute(call, options));
  // The parts' blocks in the caller's terms: a column-major C is the transpose of the row-major
  // one the planner sees, and so is the C of a part run reversed (c_trans).
  const bool col = call.layout == Layout::ColMajor;
  for (const auto& p : parts) {
    const size_t rows = p.g.c_trans ? p.g.n : p.g.m, cols = p.g.c_trans ? p.g.m : p.g.n;
    if (parts_out)
      parts_out->push_back(col ? PlannedPart{p.col0, cols, p.row0, rows, p.plan}
                               : PlannedPart{p.row0, rows, p.col0, cols, p.plan});
  }
  return build_launch_plan(device, parts);
}

}  // namespace detail

CallPlan plan_call(const DeviceInfo& device, const GemmCall& call, const GemmOptions& options, size_t batch_count,
                   size_t a_stride, size_t b_stride, size_t c_stride) {
  CallPlan out;
  const detail::LaunchPlan launch =
      detail::launch_of(device, call, options, batch_count, a_stride, b_stride, c_stride, &out.parts);
  for (const auto& c : launch.commands)
    out.commands.push_back({c.what, c.entry, c.options, c.dims, c.global, c.local, c.part});
  for (const auto& t : launch.temporaries) out.temporaries.push_back({t.role, t.bytes});
  return out;
}

const char* path_name(GemmPath path) {
  switch (path) {
    case GemmPath::Auto: return "auto";
    case GemmPath::Packed: return "packed";
    case GemmPath::Tall: return "tall";
    case GemmPath::Tensor: return "tensor";
    case GemmPath::Wide: return "wide";
    case GemmPath::Tiny: return "tiny";
    case GemmPath::Wgmma: return "wgmma";
    default: return "direct";
  }
}

std::string CallPlan::describe() const {
  std::ostringstream os;
  for (size_t i = 0; i < parts.size(); ++i) {
    const PlannedPart& p = parts[i];
    os << "part " << i << ", rows " << p.row0 << ".." << p.row0 + p.rows << " and columns " << p.col0 << ".."
       << p.col0 + p.cols << " of C: " << p.plan.describe() << "\n";
  }
  os << commands.size() << (commands.size() == 1 ? " command" : " commands") << ":\n";
  for (const auto& c : commands) {
    os << "  [part " << c.part << "] " << c.what << ": " << c.kernel << ", global";
    for (size_t d = 0; d < c.dims; ++d) os << (d ? "x" : " ") << c.global[d];
    os << ", local";
    for (size_t d = 0; d < c.dims; ++d) os << (d ? "x" : " ") << c.local[d];
    os << "\n";
  }
  for (const auto& t : temporaries) os << "temporary " << t.role << ": " << t.bytes << " bytes\n";
  return os.str();
}

}  // namespace clgemm
