// offload.hpp — whether a BLAS call runs on the OpenCL device, and running it there.
#pragma once

#include "dropin/blas/blas_gemm.hpp"

#include <functional>

namespace clgemm::blas {

// Runs a valid, non-trivial call on the device where the policy says it pays (policy.hpp) and
// returns true once C holds the result; false where the host is to run it: the policy chose the
// host, there is no device, or the device failed before any of C was written (said once on
// stderr; C is then untouched). A C whose operands do not fit the device at once runs in blocks
// that do (halved along C's longer side); should the device fail after some blocks, `host` runs
// the rest. `host` also runs the one-time measurement of the host's rate. Thread-safe: calls from
// several threads take turns on the device. `host_symbol` is the host function itself: its library
// names the host BLAS in the rates kept on disk (policy.hpp).
bool run_on_device(const BlasGemm& g, const char* routine, const std::function<void(const BlasGemm&)>& host,
                   const void* host_symbol);

// Whether CLGEMM_TRACE is set to something other than 0, and the trace's line for one call.
bool tracing();
void trace(const char* routine, const BlasGemm& g, const char* where);

}  // namespace clgemm::blas
