// gemm_exec.hpp — runs a launch plan: allocates its temporaries, builds its kernels, uploads a
// batch's per-item arrays, then enqueues its commands with their arguments. It decides nothing.
#pragma once

#include <clgemm/context.hpp>

#include "exec/launch_plan.hpp"

#include <vector>

namespace clgemm::detail {

// The caller's buffers the commands name as A, B and C (null where no command reads them).
struct CallerBuffers {
  cl_mem a = nullptr, b = nullptr, c = nullptr;
};

// Enqueues `plan` on `queue` and returns an event that completes when all of it has. Kernels are
// built, temporaries allocated and arrays uploaded before the first command is enqueued, so a
// failure leaves the queue untouched. The commands of one part run in order (waiting on each
// other's events on an out-of-order queue, where the parts, which write disjoint blocks of C, may
// run at once). `trace`, if given, receives every event enqueued.
cl::Event enqueue_plan(const Context& ctx, const cl::CommandQueue& queue, const LaunchPlan& plan,
                       const CallerBuffers& buffers, std::vector<cl::Event>* trace = nullptr);

}  // namespace clgemm::detail
