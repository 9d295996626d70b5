// launch_builder.hpp — a call's parts turned into the commands that run them (exec/launch_plan.hpp):
// how each operand reaches its kernel (in place, packed, transposed), the guards, the split-K and
// stream-K geometry, the temporaries with their sizes, the work sizes and every argument.
#pragma once

#include <clgemm/device.hpp>

#include "exec/launch_plan.hpp"
#include "exec/problem.hpp"

#include <vector>

namespace clgemm::detail {

// The commands of the planned parts, in order.
LaunchPlan build_launch_plan(const DeviceInfo& device, const std::vector<GemmPart>& parts);

// The commands of C = beta·C alone (k = 0 or alpha = 0): A and B are not read.
LaunchPlan build_scale_plan(const DeviceInfo& device, const RowMajorGemm& g, const BatchSpec& batch);

}  // namespace clgemm::detail
