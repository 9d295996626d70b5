// grouped_per_problem.cpp — a grouped call run as each problem's own planned GEMM.
#include "plan/grouped_per_problem.hpp"

#include "plan/launch_builder.hpp"
#include "plan/path_choice.hpp"
#include "plan/plan_call.hpp"

namespace clgemm::detail {

bool grouped_runs_per_problem(const DeviceInfo& device, const std::vector<RowMajorGemm>& problems,
                              const GemmOptions& options) {
  if (problems.empty() || problems.size() > kPerProblemMaxProblems || !device.sm90a_patching ||
      !chooses_freely(options))
    return false;
  const DataType type = problems.front().type;
  if (type != DataType::F16 && type != DataType::BF16) return false;
  double work = 0;
  for (const RowMajorGemm& g : problems) {
    if (g.k == 0 || g.alpha == 0.0) return false;
    work += double(g.m) * double(g.n) * double(g.k);
  }
  return work >= kPerProblemMinMeanWork * double(problems.size());
}

LaunchPlan build_per_problem_launch(const DeviceInfo& device, const std::vector<RowMajorGemm>& problems,
                                    const GemmOptions& options) {
  std::vector<GemmPart> parts;
  for (const RowMajorGemm& g : problems) {
    std::vector<GemmPart> own = plan_parts(device, g, BatchSpec{}, options);
    parts.insert(parts.end(), own.begin(), own.end());
  }
  return build_launch_plan(device, parts);
}

}  // namespace clgemm::detail
