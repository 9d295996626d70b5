// grouped_launch.hpp — a grouped call (gemm_grouped) planned and turned into its one command:
// the kernel's tiles for the device, the work list of every problem's tiles of C end to end, and
// the arrays the kernel reads it from.
#pragma once

#include <clgemm/device.hpp>
#include <clgemm/gemm.hpp>

#include "exec/launch_plan.hpp"
#include "exec/problem.hpp"

#include <optional>
#include <vector>

namespace clgemm::detail {

// Which kernel runs a grouped call.
enum class GroupedKernel { Grouped, Xgemm, Dmma };

// The kernel and parameters of a grouped call:
// - dmma (GROUPED) for f64 problems on the FP64 tensor cores, where it reads every problem in
//   place (one pair of transposes) and they have at least 64³ multiply-adds on average and 2^26
//   in all, or where GemmOptions::force_path asks for the tensor path (an error where it cannot
//   run); dmma_grouped_tiles;
// - else xgemm (GROUPED) where it reads every problem in place (the cp.async pipeline, f32 or
//   f64, one pair of transposes) and nothing is forced, with the batched class's tiles for items
//   of the problems' mean size;
// - else the grouped kernel (gemm/grouped/grouped.cl) with the caller's overrides
//   (GemmOptions::force_params, the direct kernel's names) on its defaults for the device and
//   type. Its 64×64 tiles beat 128×128 ones of 8×8 per work-item on the H100 (random:64:64:1024
//   problems: 14.2 against 6.8 TFLOP/s).
// `source` says which.
struct GroupedPlan {
  GroupedKernel kernel = GroupedKernel::Grouped;
  KernelParams params;
  std::string source;
};
GroupedPlan plan_grouped(const DeviceInfo& device, const std::vector<RowMajorGemm>& problems,
                         const GemmOptions& options);

// One launch for all of `problems` (row-major, sharing A, B and C buffers, element types and
// compute type; problems with no element of C take no tiles). Empty when none has any.
LaunchPlan build_grouped_launch(const std::vector<RowMajorGemm>& problems, const GroupedPlan& plan);

}  // namespace clgemm::detail
