// plan_api.cpp — plan_call: what a call would run, from the same planner and builder as gemm().
#include <clgemm/error.hpp>
#include <clgemm/gemm.hpp>

#include "api/gemm_checks.hpp"
#include "plan/launch_builder.hpp"
#include "plan/normalise.hpp"
#include "plan/plan_call.hpp"

#include <sstream>

namespace clgemm {

CallPlan plan_call(const DeviceInfo& device, const GemmCall& call, const GemmOptions& options, size_t batch_count,
                   size_t a_stride, size_t b_stride, size_t c_stride) {
  detail::check_batch_count(batch_count);
  detail::check_enums(call);
  detail::check_index_range(call);
  detail::check_device_types(call, device);
  CallPlan out;
  if (call.m == 0 || call.n == 0) return out;
  const detail::RowMajorGemm g = detail::to_row_major(call);
  detail::BatchSpec spec;
  spec.count = batch_count;
  spec.a_stride = a_stride, spec.b_stride = b_stride, spec.c_stride = c_stride;
  spec = detail::to_row_major(call, spec);
  const bool col = call.layout == Layout::ColMajor;
  detail::LaunchPlan launch;
  if (call.k == 0 || call.alpha == 0.0) {
    launch = detail::build_scale_plan(device, g, spec);
  } else {
    const std::vector<detail::GemmPart> parts = detail::plan_parts(device, g, spec, detail::with_compute(call, options));
    // The parts' blocks in the caller's terms: a column-major C is the transpose of the row-major
    // one the planner sees, and so is the C of a part run reversed (c_trans).
    for (const auto& p : parts) {
      const size_t rows = p.g.c_trans ? p.g.n : p.g.m, cols = p.g.c_trans ? p.g.m : p.g.n;
      out.parts.push_back(col ? PlannedPart{p.col0, cols, p.row0, rows, p.plan}
                              : PlannedPart{p.row0, rows, p.col0, cols, p.plan});
    }
    launch = detail::build_launch_plan(device, parts);
  }
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
