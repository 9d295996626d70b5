// gemm_exec.hpp — turns a checked, planned row-major GEMM into enqueued OpenCL commands.
#pragma once

#include <clgemm/gemm.hpp>

#include "exec/problem.hpp"

#include <vector>

namespace clgemm::detail {

// Enqueues everything on `queue`; returns an event that completes when all of it has. Kernels are
// built and temporaries allocated before the first command is enqueued, so a failure leaves the
// queue untouched. Commands wait on each other through events, so out-of-order queues work too.
// `trace`, if given, receives every event enqueued (for timing the whole call on the device).
cl::Event enqueue_gemm(const Context& ctx, const cl::CommandQueue& queue, const RowMajorGemm& g, const BatchSpec& batch,
                       const GemmPlan& plan, std::vector<cl::Event>* trace = nullptr);

// The parts in order, with the same guarantees: all are built and allocated before any command
// is enqueued; the event completes when all of them have.
cl::Event enqueue_gemm(const Context& ctx, const cl::CommandQueue& queue, const std::vector<GemmPart>& parts,
                       std::vector<cl::Event>* trace = nullptr);

// Only C = beta·C (k = 0 or alpha = 0): A and B are not read.
cl::Event enqueue_scale(const Context& ctx, const cl::CommandQueue& queue, const RowMajorGemm& g, const BatchSpec& batch,
                        std::vector<cl::Event>* trace = nullptr);

}  // namespace clgemm::detail
