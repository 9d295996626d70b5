// tuner.hpp — searches a kernel's parameter space for one shape on one device, within a time
// budget, checking every candidate's result before its time counts.
//
// Strategy (much faster than exhaustive search): the kernel's defaults first (a baseline that is
// always measured, however small the budget; with budget left, the defaults fitted to the shape and
// the project's measured configurations too), then random valid configurations for about half the
// budget, then local refinement: the neighbours of the best configuration (each parameter moved
// one step along its list of values) until none improves, restarting from the next-best
// configurations while time remains. Build and launch failures are recorded and skipped. No
// candidate starts that would likely end past the budget (CandidateClock).
#pragma once

#include <clgemm/context.hpp>
#include <clgemm/types.hpp>

#include "database/database.hpp"
#include "kernels/descriptor.hpp"
#include "tune/candidate_bench.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace clgemm::detail {

struct TuneTarget {
  std::string shape_class;  // the database entry this tunes
  GemmShape shape;          // the shape measured for it
  std::string kernel;       // "xgemm", "direct", "xmma", "wgmma" or "dmma"
  double budget_s = 0;      // seconds for this target
};

struct TuneProgress {
  const TuneTarget* target = nullptr;
  std::string stage;        // "defaults", "random", "refine"
  size_t tried = 0, failed = 0, wrong = 0;
  double best_gflops = 0;
  double elapsed_s = 0;
};

struct TuneResult {
  TuneTarget target;
  bool found = false;            // at least one candidate ran and was correct
  KernelParams best;
  double best_gflops = 0;
  double default_gflops = 0;     // the kernel's defaults, for comparison
  // The tensor kernels' rule for the shape (tensor_rule_params), which the planner runs where no
  // entry serves, always measured; 0 where the kernel has none, or where it failed or equals the
  // defaults (measured once, as those). `best` is at least as fast.
  double rule_gflops = 0;
  // The fastest correct configuration of each other tile shape, best first (at most 4): the
  // planner's alternatives for shapes where the best tile spreads badly over the compute units.
  std::vector<std::pair<double, KernelParams>> runners_up;
  size_t tried = 0;              // candidates measured or attempted
  size_t build_failures = 0, launch_failures = 0, wrong = 0;
  std::vector<std::string> failure_notes;  // the first few, for the report
  double elapsed_s = 0;
};

// The shapes and budget shares the tuner uses by default for a device: per shape class, each
// kernel that may win it; with `tensor`, the tensor-core kernel that runs `precision` on the
// device (dmma for f64, wgmma where it builds, else xmma as 3xTF32) for the classes it serves
// (mid and large). Shares add up to `total_budget_s`.
std::vector<TuneTarget> default_targets(const DeviceInfo& device, double total_budget_s,
                                        const std::vector<std::string>& classes, bool tensor = false,
                                        DataType precision = DataType::F32);

// What the planner runs for `shape` of `precision` operands on the tensor kernels (dmma, wgmma,
// xmma) where no tuning entry serves it: their rules for tiles (dmma_tiles, wgmma_tiles as TF32
// for f32, xmma_tiles), resolved with the parameters the precision fixes. Nothing for other
// kernels, or where the rule does not resolve on `device`.
std::optional<KernelParams> tensor_rule_params(const GemmKernelDescriptor& d, const DeviceInfo& device,
                                               const GemmShape& shape, DataType precision);

// The parameters a precision fixes in a kernel's search space, which the search leaves alone:
// PRECISION where the kernel has it (32 for f32, f16 and bf16, 64 for f64).
KernelParams precision_fixed_params(const GemmKernelDescriptor& d, DataType precision);

// Throws Error(InvalidArgument) for a value outside DataType, Error(NoFp64) for f64 on a device
// without cl_khr_fp64: what makes a precision untunable on a device.
void check_tuning_precision(const DeviceInfo& device, DataType precision);

// Searches and measures with A, B and C of one element type (`precision`): every candidate
// carries that type's PRECISION where the kernel has the parameter. f16 and bf16 reach xgemm widened to float32 by the packing kernels, so
// the packed path's candidates are float32 kernels timed with that widening.
class Tuner {
 public:
  // Throws what check_tuning_precision throws. Candidates are planned for `planning`, the context's
  // device as gemm() plans for it (clgemm::planning_device: whether wgmma builds), found here
  // where it is not given.
  explicit Tuner(const Context& ctx, uint64_t seed = 1, DataType precision = DataType::F32,
                 const DeviceInfo* planning = nullptr);
  TuneResult tune(const TuneTarget& target, const std::function<void(const TuneProgress&)>& progress = {});
  // Checks and times the given configurations (each a set of overrides of the kernel's defaults)
  // on one shape, in order; nothing is searched or saved. A configuration whose PRECISION differs
  // from the tuner's precision is rejected. Throws Error(InvalidArgument) for the tensor kernel
  // (xmma) with a precision other than f32. With a budget (seconds > 0) it starts
  // no configuration after the first that would likely end past it (the longest of the last few
  // took longer than what is left): the result is then shorter than `configs`.
  std::vector<Measurement> measure(const GemmShape& shape, const std::string& kernel,
                                   const std::vector<KernelParams>& configs,
                                   const std::function<void(size_t done)>& progress = {}, double budget_s = 0);

 private:
  const Context& ctx_;
  DeviceInfo device_;
  uint64_t seed_;
  DataType precision_;
};

// Turns the best of several results for one shape class into a database entry for this device,
// serving calls of `precision`.
TuningEntry entry_for(const DeviceInfo& device, const TuneResult& best, DataType precision = DataType::F32);

}  // namespace clgemm::detail
