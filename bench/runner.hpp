// bench/runner.hpp — the measuring protocol: every implementation gets the same inputs for a
// shape, is checked once against the float64 reference, warmed up, then timed over repeats.
#pragma once

#include "bench/checker.hpp"
#include "bench/impl.hpp"
#include "bench/shapes.hpp"
#include "bench/stats.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace clgemm::bench {

enum class Outcome {
  Ok,             // ran, result within tolerance
  Wrong,          // ran, result outside tolerance: shown and flagged, never counted as a peer
  NotApplicable,  // not available in this build or process, or cannot do this problem
  Failed,         // threw (out of memory, a build failure, a library error)
};
const char* outcome_name(Outcome o);  // "ok", "WRONG", "n/a", "FAILED"

struct Result {
  Shape shape;
  std::string impl;
  Outcome outcome = Outcome::NotApplicable;
  std::string note;  // why n/a or failed, what was wrong, or why the repeats were not run
  bool checked = false;
  Check check;
  std::vector<double> times;  // seconds of the timed repeats (empty: not timed)
  Stats stats;
  double gflops = 0;       // from the median time
  double gflops_best = 0;  // from the fastest run
  // With --quant: the bytes of weights this implementation reads (W's blocks, or the dense B in
  // the activations' type) over the median time, in GB/s; 0 otherwise.
  double weight_gbs = 0;
  // Filled by finish_report():
  double percent_peak = -1;  // of the device's FP32 peak; negative when unknown or not applicable
  double vs_clgemm = 0;      // this GFLOP/s over clgemm's at the same shape; 0 when either is missing

  bool timed() const { return !times.empty(); }
};

using ProgressFn = std::function<void(const std::string& text, bool minor)>;

struct RunOptions {
  int repeat = 10;             // timed runs (median and min reported)
  int warmup = 1;              // untimed runs after the checked one
  double time_limit_s = 120;   // an implementation whose repeats would take longer is checked but not timed
  uint64_t seed = 1;           // shape i uses seed + i
  ProgressFn progress;         // may be empty
};

// Runs every implementation on every shape. Never throws for an implementation's failure: that
// becomes a FAILED row. Results are in shape order, then implementation order.
std::vector<Result> run_benchmark(const std::vector<Shape>& shapes, const CallSettings& settings, ImplList& impls,
                                  const RunOptions& options);

}  // namespace clgemm::bench
