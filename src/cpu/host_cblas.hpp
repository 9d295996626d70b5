// host_cblas.hpp — OpenBLAS's cblas_sgemm and cblas_dgemm, opened at first use rather than
// linked, so that loading libclgemm brings no BLAS into a process: preloaded, the BLAS
// interposer (dropin/blas) would otherwise put OpenBLAS ahead of the program's own BLAS.
#pragma once

#include <cblas.h>

namespace clgemm::cpu::detail {

struct HostCblas {
  decltype(&cblas_sgemm) sgemm = nullptr;
  decltype(&cblas_dgemm) dgemm = nullptr;
};

// OpenBLAS as libopenblas.so.0, else the file the build found; the functions come from that
// library itself, never from an interposer loaded before it. Throws Error(Unsupported) naming
// both where neither opens.
const HostCblas& host_cblas();

}  // namespace clgemm::cpu::detail
