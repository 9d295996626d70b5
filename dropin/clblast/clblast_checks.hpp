// clblast_checks.hpp — CLBlast's own argument checks for its GEMM routines, in its order and with
// its status for each bad argument (CLBlast 1.5: Xgemm::ProcessArguments, TestMatrixA/B/C and the
// batched forms), so that a program sees from the shim what it saw from CLBlast.
#pragma once

#include <clblast.h>

#include <cstddef>
#include <vector>

namespace clgemm::dropin {

// One GEMM family call as CLBlast receives it. Offsets count elements of `element_bytes`.
struct ClblastGemmArgs {
  clblast::Layout layout = clblast::Layout::kRowMajor;
  clblast::Transpose a_transpose = clblast::Transpose::kNo, b_transpose = clblast::Transpose::kNo;
  size_t m = 0, n = 0, k = 0;
  cl_mem a = nullptr, b = nullptr, c = nullptr;
  size_t a_ld = 0, b_ld = 0, c_ld = 0;
  size_t element_bytes = 4;
  // The largest offset of each matrix that a call reads or writes: the offset, the largest of a
  // batch's offsets, or a strided batch's offset + (count - 1) · stride.
  size_t a_last = 0, b_last = 0, c_last = 0;
  // GemmBatched leaves A's and B's leading dimensions unchecked, as CLBlast does.
  bool check_ab_ld = true;
};

// kSuccess, or the status CLBlast returns: kInvalidValue for a layout or transpose outside the
// enumerations, kInvalidDimension where m, n or k is 0, then per matrix kInvalidLeadDimX (ld below
// its first dimension as stored), kInvalidMatrixX (not a buffer) and kInsufficientMemoryX.
clblast::StatusCode check_gemm(const ClblastGemmArgs& g);

// The queue, as CLBlast's routine finds its device: kInvalidCommandQueue where it is null or not
// a queue; kNoDoublePrecision for 8-byte elements on a device without cl_khr_fp64.
clblast::StatusCode check_queue(cl_command_queue* queue, size_t element_bytes);

// The largest of `offsets` (empty: 0).
size_t largest(const size_t* offsets, size_t count);

}  // namespace clgemm::dropin
