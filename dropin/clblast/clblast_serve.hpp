// clblast_serve.hpp — a CLBlast GEMM family call computed by clgemm: checked as CLBlast checks it,
// enqueued through clgemm's API on the caller's queue, and traced where CLGEMM_TRACE asks.
#pragma once

#include "dropin/clblast/clblast_checks.hpp"

#include <clgemm/types.hpp>

#include <cstddef>
#include <vector>

namespace clgemm::dropin {

// What varies between the three forms: one product, a batch given by offset arrays, or a strided
// batch. Scalars are the caller's, converted to double.
struct ClblastBatch {
  enum class Form { Single, Listed, Strided } form = Form::Single;
  size_t count = 1;
  std::vector<double> alphas, betas;                      // one each for Single and Strided
  std::vector<size_t> a_offsets, b_offsets, c_offsets;    // one each for Single and Strided
  size_t a_stride = 0, b_stride = 0, c_stride = 0;        // Strided
};

// Runs `g` (its a_last, b_last and c_last are set here from `batch`) on `queue`, with A, B and C of
// `type` (f32, f64 or f16; f16 products summed in float32), after CLBlast's checks; `routine` names
// the call for the trace ("Sgemm", "HgemmStridedBatched"). Returns CLBlast's status: kSuccess,
// the checks' status, kInvalidBatchCount, or, where clgemm fails after the checks pass,
// kOpenCLOutOfResources or kUnknownError (CLGEMM_TRACE=1 says why).
clblast::StatusCode serve_gemm(const char* routine, ClblastGemmArgs g, const ClblastBatch& batch, DataType type,
                               cl_command_queue* queue, cl_event* event);

// Whether CLGEMM_TRACE is set to something other than 0 (read once).
bool tracing();

}  // namespace clgemm::dropin
