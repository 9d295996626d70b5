// grouped_per_problem.hpp — a grouped call of 16-bit problems on Hopper's tensor cores, run as
// each problem's own planned GEMM, one after another in one plan.
#pragma once

#include <clgemm/device.hpp>
#include <clgemm/gemm.hpp>

#include "exec/launch_plan.hpp"
#include "exec/problem.hpp"

#include <vector>

namespace clgemm::detail {

// The most problems, and the fewest multiply-adds a problem has on average, for which the call
// runs problem by problem: below that average a launch costs more than the grouped kernel's share
// of the problem.
constexpr size_t kPerProblemMaxProblems = 1024;
constexpr double kPerProblemMinMeanWork = 33554432.0;  // 2^25 multiply-adds, about 320³

// Whether `problems` (those with work, row-major) run as one planned GEMM each: f16 or bf16
// operands on a device that takes the wgmma path (`device` as planning_device gives it), nothing
// forced, every problem reading A and B (alpha ≠ 0, k > 0), at most kPerProblemMaxProblems of them
// with kPerProblemMinMeanWork on average. The grouped kernel computes 16-bit products on the SIMT
// cores, at 2 % of what the tensor cores reach on a mixture-of-experts layer (H200, bf16,
// moe:8:14336:4096: 15.6 TFLOP/s against cuBLAS's 698 in one call per problem).
bool grouped_runs_per_problem(const DeviceInfo& device, const std::vector<RowMajorGemm>& problems,
                              const GemmOptions& options);

// Every problem's parts (plan_parts, as a single call of its shape), in order, turned into one
// plan's commands.
LaunchPlan build_per_problem_launch(const DeviceInfo& device, const std::vector<RowMajorGemm>& problems,
                                    const GemmOptions& options);

}  // namespace clgemm::detail
