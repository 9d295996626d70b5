// candidate_bench.hpp — one shape's inputs and reference, on which the tuner checks and times
// candidate configurations of a kernel.
#pragma once

#include <clgemm/context.hpp>
#include <clgemm/types.hpp>

#include "exec/problem.hpp"
#include "plan/tile_choice.hpp"

#include <random>
#include <string>
#include <vector>

namespace clgemm::detail {

// One configuration checked and timed (a tuning candidate, or `clgemm tune --try`).
struct Measurement {
  enum Outcome { Ok, Rejected, BuildFailed, LaunchFailed, Wrong } outcome = Rejected;
  KernelParams params;  // as resolved (defaults filled in), or as given when rejected
  double seconds = 0, gflops = 0;
  std::vector<double> command_seconds;  // each enqueued command's own time, in order (the median run)
  std::string note;     // why it failed
};

// Random inputs of one shape (a strided batch where s.batch > 1) with A, B and C all of `type`, and their float64 reference, made
// once; each candidate's result is checked against it before the candidate is timed (by its
// events: packing, and for 16-bit operands the widening while packing, included).
class CandidateBench {
 public:
  // Candidates are planned for `device`: the context's, as gemm() plans for it (planning_device).
  CandidateBench(const Context& ctx, const DeviceInfo& device, const GemmShape& s, DataType type,
                 std::mt19937_64& rng);
  // `ps` must be resolved for the kernel ("xgemm", "direct", "xmma", "wgmma" or "dmma"), with the
  // PRECISION of `type` where the kernel has one.
  Measurement run(const std::string& kernel, const KernelParams& ps, const SplitK& split = {}, bool pack_b = false);

 private:
  const Context& ctx_;
  DeviceInfo device_;
  GemmShape s_;
  DataType type_;
  std::vector<double> ref_;
  cl::Buffer da_, db_, dc_;
  RowMajorGemm g_;
  BatchSpec batch_;  // s.batch items, stored one after another
};

}  // namespace clgemm::detail
