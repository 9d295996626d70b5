// tensor_plans.hpp — the plans of the tensor-core paths, each or nothing where the planner goes on
// to the SIMT kernels: xmma (f32 with GemmOptions::math Tf32 or Tf32x3, mma.sync), dmma (f64 on the
// FP64 tensor cores) and wgmma (Hopper: f16, bf16, TF32 and 3xTF32). Each throws
// Error(InvalidArgument) where the caller forces it on a device or type it cannot serve.
#pragma once

#include <clgemm/gemm.hpp>

#include <optional>
#include <string>

namespace clgemm::detail {

std::optional<GemmPlan> plan_tensor(const DeviceInfo& device, size_t m, size_t n, size_t k, const GemmOptions& o);

std::optional<GemmPlan> plan_dmma(const DeviceInfo& device, size_t m, size_t n, size_t k, const GemmOptions& o,
                                  size_t batch);

std::optional<GemmPlan> plan_wgmma(const DeviceInfo& device, size_t m, size_t n, size_t k, const GemmOptions& o,
                                   DataType type, size_t batch);

// Why a call whose arithmetic wgmma computes runs elsewhere on an sm_90 device, as a clause to add
// to the plan's reason ("" where it does not matter).
std::string wgmma_refused(const DeviceInfo& device, size_t m, size_t n, size_t k, const GemmOptions& o, DataType type);

// "FP32", "TF32" or "3xTF32".
const char* math_name(Math math);

}  // namespace clgemm::detail
