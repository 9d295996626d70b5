// dmma_kernel.hpp — the descriptor of gemm/dmma/dmma.cl, double on NVIDIA's FP64 tensor cores (sm_80+).
#pragma once

#include "kernels/descriptor.hpp"

namespace clgemm::detail {

const GemmKernelDescriptor& dmma_descriptor();

// Work-items of one dmma work-group: 32 per warp, (BM/WM)·(BN/WN) warps.
long dmma_threads(const KernelParams& ps);

// The parameters for `batch` items of C of m×n on `device`: overrides of the defaults (128×64 tiles,
// m8n8k4): the m16n8k8 instruction on sm_90 and newer, and 64×64 tiles where 128×64 ones, over
// all items, would leave compute units idle.
KernelParams dmma_tiles(const DeviceInfo& device, size_t m, size_t n, size_t batch);

// The parameters for a batch of small items of m×n×k: tiles that pad them least (BM 128 from 256
// rows, else 64 or 32; BN 64 or 32; BK 16 where the tile is at most 64×64, else 8), the larger of
// two where both pad alike, and the instruction as dmma_tiles.
KernelParams dmma_batch_tiles(const DeviceInfo& device, size_t m, size_t n, size_t k);

// The parameters for a grouped call: 64×64 tiles 16 deep in two stages, and the instruction as
// dmma_tiles.
KernelParams dmma_grouped_tiles(const DeviceInfo& device);

}  // namespace clgemm::detail
