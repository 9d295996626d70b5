// launch_plan.hpp — everything a call enqueues, decided: its commands in order and the
// temporaries they pass data through, with their sizes (plan/launch_builder.hpp writes it).
#pragma once

#include "kernels/command.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace clgemm::detail {

// A buffer the plan needs besides the caller's. On an in-order queue it is kept for later calls
// (Context::scratch, keyed by `role`), which then share it.
struct Temporary {
  std::string role;
  size_t bytes = 0;
  bool zeroed = false;  // zero bytes when allocated (split-K counts, which the kernel resets)
};

// A batch given by arrays: the alpha, beta pairs and a, b, c offset triples of one part's items,
// uploaded for the commands that read them. The scalars go up as `scalar_type` (the compute type).
struct BatchArrays {
  std::vector<double> scalars;
  DataType scalar_type = DataType::F32;
  std::vector<uint64_t> offsets;
};

struct LaunchPlan {
  std::vector<Temporary> temporaries;
  std::vector<Command> commands;
  std::vector<BatchArrays> batch_arrays;  // per part; empty for batches given by strides
  size_t parts = 1;
};

// Whether a temporary passes data from one command to another (a pack, then the GEMM that reads
// it): another thread's commands on the same queue must not come between them.
bool passes_data_between_commands(const LaunchPlan& plan);

}  // namespace clgemm::detail
