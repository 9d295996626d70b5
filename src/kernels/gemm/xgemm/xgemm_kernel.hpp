// xgemm_kernel.hpp — the descriptor of gemm/xgemm/xgemm.cl, the tunable kernel of the packed path.
#pragma once

#include "kernels/descriptor.hpp"
#include "kernels/nvidia_arch.hpp"  // has_cp_async

namespace clgemm::detail {

const GemmKernelDescriptor& xgemm_descriptor();

// Work-items of one xgemm work-group (MDIMC·NDIMC).
long wgs(const KernelParams& ps);

// The stream-K groups the kernel runs on `device` for `groups` asked over `split_tiles` tiles:
// where a share may not span tiles (the kernel's loop over tiles is built only on NVIDIA: PoCL
// 3.1 computed garbage with its barriers), rounded down to a multiple of the tiles, which keeps
// each share in one.
size_t runnable_sk_groups(size_t groups, size_t split_tiles, const DeviceInfo& device);

// The K-depth of one part of a tile split `splits` ways along its padded depth: whole tiles of
// `tile_k`.
size_t split_depth(size_t k_padded, size_t tile_k, size_t splits);

}  // namespace clgemm::detail
