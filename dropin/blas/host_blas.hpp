// host_blas.hpp — the host BLAS that calls fall back to: $CLGEMM_BLAS_HOST (a library path), else
// the definition of the same name in another library of the process (the BLAS the program was
// linked to, or the one NumPy bundles, loaded privately).
#pragma once

namespace clgemm::blas {

// The host's definition of the function named `name`, other than the interposer's own; null
// where there is none (the caller then reports it and leaves C as it is).
void* host_function(const char* name);

}  // namespace clgemm::blas
