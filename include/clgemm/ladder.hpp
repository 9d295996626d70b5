// clgemm/ladder.hpp — the optimisation ladder: every rung a real, tested GEMM kernel.
//
// All rungs compute C = A·B in float32 for row-major, densely stored A (m×k), B (k×n), C (m×n),
// any m, n, k ≥ 1. A rung that needs tile-multiple sizes or a transposed operand gets them from
// temporary buffers that the run prepares on the device; C itself is only ever written inside
// its m×n elements.
#pragma once

#include <clgemm/context.hpp>
#include <clgemm/types.hpp>

#include <string>
#include <vector>

namespace clgemm {

struct RungInfo {
  int number;              // 1..8, in teaching order
  std::string id;          // short name for the CLI: "naive", "tiled", ...
  std::string title;       // one line: what the rung does
  std::string file;        // kernel source under src/kernels
  std::vector<std::string> param_names;
  KernelParams gpu_defaults = {};  // filled by ladder_rungs() from the descriptor
  KernelParams cpu_defaults = {};
};

std::vector<RungInfo> ladder_rungs();

// One rung prepared for one shape: kernels compiled, temporaries allocated, parameters checked
// against the device. Cheap to enqueue many times (what benchmarks do).
class LadderRun {
 public:
  // `overrides` replaces defaults by name; an unknown name, a value that breaks a constraint or a
  // configuration that does not fit the device throws Error with the reason.
  LadderRun(const Context& ctx, int rung, const GemmShape& shape, const KernelParams& overrides = {});
  ~LadderRun();
  LadderRun(LadderRun&&) noexcept;
  LadderRun& operator=(LadderRun&&) noexcept;

  // Enqueues all work for C = A·B on the context's queue; returns one event per command, in order
  // (operand preparation, the GEMM kernel, copy-back), so the caller can time the whole span.
  std::vector<cl::Event> enqueue(const cl::Buffer& a, const cl::Buffer& b, const cl::Buffer& c);

  const KernelParams& params() const;
  const RungInfo& rung() const;
  // The -D options the kernel was built with, e.g. "-DTS=16".
  std::string build_options() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace clgemm
