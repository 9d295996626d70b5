// wgmma_short_rows.hpp — 16-bit products of a few rows of activations against a large weight
// matrix (a language model's decoding and small batches) on the wgmma kernel: when they go there,
// with which tiles and how many parts of K.
#pragma once

#include <clgemm/device.hpp>
#include <clgemm/gemm.hpp>

#include "kernels/descriptor.hpp"

#include <cstddef>

namespace clgemm::detail {

// The fewest and most rows of C the rule takes. A single row stays with the wide kernel, which
// reads B as fast (1×4096×14336 0.049 ms against 0.054); from two rows on the wide kernel's time
// grows with the rows and wgmma's does not (2 rows 0.083 against 0.055 ms, 8 rows 0.104 against
// 0.053). Up to 64 rows take one 64-row tile; 65 to 256 take 128-row tiles.
constexpr size_t kWgmmaShortRowsMin = 2;
constexpr size_t kWgmmaOneTileRowsMax = 64;
constexpr size_t kWgmmaShortRowsMax = 256;
// The least B (n·k elements) the rule takes, 2048². Below it such calls go to the SIMT kernels,
// whose tiles the 16-bit types borrow from f32: 128 experts of 2048×7168 weights, about 64 rows
// each, ran there at 0.19× cuBLAS (one call per expert), and on wgmma at 0.44×.
constexpr double kWgmmaShortRowsMinWeights = 4194304.0;  // 2^22

// Whether a single 16-bit product of m×n×k (m from kWgmmaShortRowsMin to kWgmmaShortRowsMax, n
// and k at least 64, n·k at least kWgmmaShortRowsMinWeights) runs on wgmma with
// wgmma_short_rows_tiles, before the wide kernel and wgmma's square-product tiles. Such a call
// reads B once at memory speed, so a tile mostly empty costs little: H200, bf16, `force_probe
// bf16 wgmma`, 16×4096×14336 0.055 ms in four parts of K against 0.27 on the SIMT kernels,
// 32×14336×4096 0.042 against 0.31, 128×4096×14336 0.087 against 0.112 on the square tiles.
bool wgmma_short_rows_pay(size_t m, size_t n, size_t k, DataType type, size_t items);

// Up to 64 rows: one warpgroup's 64×64 tiles in four slices of 64 elements (128-byte rows), the
// fastest of the tiles measured there (64×128 and 64×256 took 1.4× and 2.5× as long).
inline const KernelParams kWgmmaShortRowTiles = {{"BM", 64}, {"BN", 64}, {"WM", 64}, {"BK", 64}, {"STAGES", 4}};
// 65 to 128 rows: two warpgroups' 128×64 tiles (128×14336×4096 0.060 ms against 0.076 for 64×64
// and 0.070 for the square tiles); 129 to 256 rows: 128×128 (256×4096×14336 0.104 ms against
// 0.118 for 128×64 and 0.125 for the square tiles). `scripts/gpu/decode128.sh`, H200, bf16.
inline const KernelParams kWgmmaMidRowTiles = {{"BM", 128}, {"BN", 64}, {"WM", 64}, {"BK", 64}, {"STAGES", 4}};
inline const KernelParams kWgmmaMidRowWideTiles = {{"BM", 128}, {"BN", 128}, {"WM", 64}, {"BK", 64}, {"STAGES", 4}};

// The tiles for m rows under the rule.
const KernelParams& wgmma_short_rows_tiles(size_t m);

// The parts of K for an m×n C of those tiles, each at least 1024 deep and at most 4:
// - 64-row tiles: enough for two work-groups per compute unit (N = 4096: 64 tiles in 4 parts,
//   0.055 against 0.095 ms whole; N = 14336: 224 tiles whole, 0.042 ms against 0.061 in 4 parts);
// - 128-row tiles, which take one work-group per unit: as many as one round of the units holds
//   (128×4096×14336: 64 tiles in 2 parts 0.087 ms, whole 0.126; 128×14336×4096: 224 tiles whole
//   0.060, in 2 parts 0.077).
size_t wgmma_short_rows_splits(const DeviceInfo& device, size_t m, size_t n, size_t k);

}  // namespace clgemm::detail
