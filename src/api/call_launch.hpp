// call_launch.hpp — the commands a call would run, as plan_call and inspect_call both need them.
#pragma once

#include <clgemm/gemm.hpp>

#include "exec/launch_plan.hpp"

#include <vector>

namespace clgemm::detail {

// The launch plan of `call` on `device` (checked as gemm() checks it; empty where C is), and, where
// `parts_out` is given, the parts' blocks of C in the caller's terms.
LaunchPlan launch_of(const DeviceInfo& device, const GemmCall& call, const GemmOptions& options, size_t batch_count,
                     size_t a_stride, size_t b_stride, size_t c_stride, std::vector<PlannedPart>* parts_out = nullptr);

}  // namespace clgemm::detail
