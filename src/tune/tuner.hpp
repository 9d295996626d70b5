// tuner.hpp — searches a kernel's parameter space for one shape on one device, within a time
// budget, checking every candidate's result before its time counts.
//
// Strategy (much faster than exhaustive search): the kernel's defaults first (a baseline that is
// always measured, however small the budget), then random valid configurations for about half the
// budget, then local refinement: the neighbours of the best configuration (each parameter moved
// one step along its list of values) until none improves, restarting from the next-best
// configurations while time remains. Build and launch failures are recorded and skipped.
#pragma once

#include <clgemm/context.hpp>
#include <clgemm/ladder.hpp>

#include "tune/database.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace clgemm::detail {

struct TuneTarget {
  std::string shape_class;  // the database entry this tunes
  GemmShape shape;          // the shape measured for it
  std::string kernel;       // "xgemm" or "direct"
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
  size_t tried = 0;              // candidates measured or attempted
  size_t build_failures = 0, launch_failures = 0, wrong = 0;
  std::vector<std::string> failure_notes;  // the first few, for the report
  double elapsed_s = 0;
};

// The shapes and budget shares the tuner uses by default for a device: per shape class, each
// kernel that may win it. Shares add up to `total_budget_s`.
std::vector<TuneTarget> default_targets(const DeviceInfo& device, double total_budget_s,
                                        const std::vector<std::string>& classes);

class Tuner {
 public:
  explicit Tuner(const Context& ctx, uint64_t seed = 1);
  TuneResult tune(const TuneTarget& target, const std::function<void(const TuneProgress&)>& progress = {});

 private:
  const Context& ctx_;
  uint64_t seed_;
};

// Turns the best of several results for one shape class into a database entry for this device.
TuningEntry entry_for(const DeviceInfo& device, const TuneResult& best);

}  // namespace clgemm::detail
