// plan_call.hpp — the planner's answer for a whole call: the GEMMs it runs, each with its plan.
#pragma once

#include <clgemm/device.hpp>
#include <clgemm/gemm.hpp>

#include "exec/problem.hpp"

#include <vector>

namespace clgemm::detail {

// The parts a call runs: the whole call, or the interior of C and the strips left over where the
// plan runs the ragged edges apart (GemmPlan::interior_m), each strip planned for its own shape.
// A plan for the tall kernel that meets an op(A) whose rows are not contiguous along k is planned
// again without it (or refused, where the caller forced that path).
std::vector<GemmPart> plan_parts(const DeviceInfo& device, const RowMajorGemm& g, const BatchSpec& batch,
                                 const GemmOptions& options);

// plan_gemm without the tall path (planner.cpp); not kept in the plan cache.
GemmPlan plan_without_tall(const DeviceInfo& device, size_t m, size_t n, size_t k, const GemmOptions& o,
                           DataType type = DataType::F32, size_t batch = 1);

}  // namespace clgemm::detail
