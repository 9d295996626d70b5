// bench/report.hpp — everything one `clgemm bench` run produced, and the comparisons derived
// from it (% of peak, ratio to clgemm, clgemm against the best peer).
#pragma once

#include "bench/bandwidth.hpp"
#include "bench/impl.hpp"
#include "bench/peak.hpp"
#include "bench/problem.hpp"
#include "bench/runner.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace clgemm::bench {

// clgemm beside the fastest correct peer (clblast, cublas, openblas) of the same arithmetic at one
// shape: FP32, or FP64 for float64 runs. TF32 and f16 sums (CLBlastHgemm, cublasHgemm) are left
// out as different precisions; ladder rungs and the triple loop are not peers.
struct Comparison {
  Shape shape;
  double clgemm_gflops = 0;   // 0 when clgemm was not timed or was wrong
  std::string best_peer;      // empty when no peer was timed and correct
  double best_peer_gflops = 0;
  double ratio = 0;           // clgemm over best peer; 0 when either is missing
};

// An odd size (N×N×N, N a multiple of 129) beside its neighbour (the multiple of 128 below it)
// for one implementation: the odd-size goal's ratio. Where the run measured the neighbour more
// than once (square and odd-pairs presets together), the measurement nearest in run order counts.
struct OddNeighbour {
  std::string impl;
  Shape odd, neighbour;
  double odd_gflops = 0, neighbour_gflops = 0;
  double change = 0;  // odd_gflops / neighbour_gflops - 1: -0.1 is 10 % slower
};

struct ImplEntry {
  ImplInfo info;
  std::string unavailable;  // empty when it could run in this process
  bool peak_applies = false;  // peak_applies() with the report's peak's arithmetic
};

struct Report {
  nlohmann::json environment;  // date, command, device, host, library versions (free-form)
  CallSettings settings;
  RunOptions options;          // repeat, warm-up, limits and seed (progress unused)
  double cpu_limit_s = 0;
  std::optional<Peak> peak;
  std::optional<CopyBandwidth> copy;  // measured for --quant runs, whose GEMVs are memory-bound
  std::vector<ImplEntry> impls;
  std::vector<Result> results;
  std::vector<Comparison> comparisons;  // one per shape, filled by finish_report()
  std::vector<OddNeighbour> odd_neighbours;  // filled by finish_report(), in run order of the odd sizes

  const ImplEntry* impl(const std::string& name) const;
};

// Fills each result's percent_peak and vs_clgemm, the per-shape comparisons and the odd sizes
// against their neighbours (correct, timed results only).
void finish_report(Report& report);

}  // namespace clgemm::bench
