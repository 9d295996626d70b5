// gemm_exec.hpp — turns a checked row-major GEMM and a plan into enqueued OpenCL commands.
#pragma once

#include <clgemm/gemm.hpp>

#include "gemm/gemm_checks.hpp"

#include <vector>

namespace clgemm::detail {

// Which GEMMs of a batch to run: a count with fixed strides, or explicit per-batch arrays (in
// row-major terms: after to_row_major, a and b offsets are already swapped for column-major calls).
struct BatchSpec {
  size_t count = 1;
  size_t a_stride = 0, b_stride = 0, c_stride = 0;
  bool arrays = false;
  std::vector<float> alphas, betas;
  std::vector<size_t> a_offsets, b_offsets, c_offsets;
};

// Enqueues everything on `queue`; returns an event that completes when all of it has. Kernels are
// built and temporaries allocated before the first command is enqueued, so a failure leaves the
// queue untouched. Commands wait on each other through events, so out-of-order queues work too.
// `trace`, if given, receives every event enqueued (for timing the whole call on the device).
cl::Event enqueue_gemm(const Context& ctx, const cl::CommandQueue& queue, const RowMajorGemm& g, const BatchSpec& batch,
                       const GemmPlan& plan, std::vector<cl::Event>* trace = nullptr);

// One GEMM of a call that runs as several, on disjoint blocks of C (edge_split.hpp).
struct GemmPart {
  RowMajorGemm g;
  BatchSpec batch;
  GemmPlan plan;
};

// The parts in order, with the same guarantees: all are built and allocated before any command
// is enqueued; the event completes when all of them have.
cl::Event enqueue_gemm(const Context& ctx, const cl::CommandQueue& queue, const std::vector<GemmPart>& parts,
                       std::vector<cl::Event>* trace = nullptr);

// Only C = beta·C (k = 0 or alpha = 0): A and B are not read.
cl::Event enqueue_scale(const Context& ctx, const cl::CommandQueue& queue, const RowMajorGemm& g, const BatchSpec& batch,
                        std::vector<cl::Event>* trace = nullptr);

}  // namespace clgemm::detail
