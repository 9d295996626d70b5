// gemm_checks.hpp — argument checks of the BLAS-style API, and the row-major form of a call.
// Every check throws Error with its own status and a message naming the argument and values; the
// checks run before anything is enqueued, so a failed call writes nothing.
#pragma once

#include <clgemm/device.hpp>
#include <clgemm/gemm.hpp>

#include <vector>

namespace clgemm::detail {

// A call after column-major ones are turned into row-major ones (C^T = op(B)^T·op(A)^T: swap A and
// B, and m and n). Operands are row-major views: A is m×k (k×m when trans_a), B is k×n (n×k when
// trans_b), C is m×n, each with its leading dimension.
struct RowMajorGemm {
  size_t m = 0, n = 0, k = 0;
  bool trans_a = false, trans_b = false;
  float alpha = 1.0f, beta = 0.0f;
  MatrixRef a, b, c;
};

RowMajorGemm to_row_major(const GemmCall& call);

// Layout and transpose values, and a valid queue.
void check_enums(const GemmCall& call);
void check_queue(cl_command_queue queue);
// Can the queue's device build and run clgemm's kernels?
void check_device(const DeviceInfo& device);

// Leading dimensions, buffers and their sizes for `batch_count` GEMMs whose operands start at the
// given offsets (one entry per batch, or one entry for a single call). Skips operands the call
// will not read (A and B when k = 0 or alpha = 0).
void check_operands(const GemmCall& call, const std::vector<size_t>& a_offsets, const std::vector<size_t>& b_offsets,
                    const std::vector<size_t>& c_offsets);

// offset + (count - 1) · stride for strided batches, with overflow checking.
size_t last_offset(size_t offset, size_t stride, size_t count, const char* name);

// The 32-bit index range kernels use: every ld and extent must fit in an int.
void check_index_range(const GemmCall& call);

}  // namespace clgemm::detail
