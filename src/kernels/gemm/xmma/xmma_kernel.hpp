// xmma_kernel.hpp — the descriptor of gemm/xmma/xmma.cl, the tensor path's kernel (NVIDIA sm_80+).
#pragma once

#include <clgemm/gemm.hpp>

#include "kernels/descriptor.hpp"

namespace clgemm::detail {

const GemmKernelDescriptor& xmma_descriptor();

// Work-items of one xmma work-group: 32 per warp, (BM/WM)·(BN/WN) warps.
long xmma_threads(const KernelParams& ps);

// TERMS for a Math other than Fp32: 3 for Tf32x3, 1 for Tf32.
long terms_of(Math math);

// Whether a configuration of the tensor kernel multiplies in plain TF32 (TERMS = 1): its results
// are checked at TF32's tolerance, and plans name it so.
bool tf32_terms(const KernelParams& ps);

// The tile parameters (BM, BN, WM, WN, STAGES) for C of m×n rows and columns: overrides of the
// defaults, empty where the defaults fit.
KernelParams xmma_tiles(const DeviceInfo& device, size_t m, size_t n);

}  // namespace clgemm::detail
