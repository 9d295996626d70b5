// wgmma/split.cl — split-K of the last round of tiles (SPLITS > 1, set by the host where a
// product's tiles leave the last round of work-groups mostly empty, kernels/gemm/wgmma/wgmma_split.cpp).
//
// Work-group g < full_tiles computes tile g over all of K, as without SPLITS. The SPLITS · r-th to
// (SPLITS · r + SPLITS − 1)-th work-groups after them compute the SPLITS parts of tile
// full_tiles + r, each an equal share of K's slices (in the same band order as every tile). A part
// stores its float32 accumulators in the workspace `ws`, in the work-items' order, so that each
// store of the work-group is one contiguous run; then it counts itself on the tile's counter. The
// part that counts last adds all of the tile's parts in part order — so the sum does not depend
// on which part finished last — sets the counter back to zero for the next call, and goes on to
// the usual epilogue with the sums as its accumulators. The others are done. In a batch, every
// item has its own split tiles, workspace and counters, one after another.

#ifndef SPLITS
#define SPLITS 1
#endif
#if SPLITS < 1 || SPLITS > 16
#error "SPLITS is 1 to 16"
#endif

#if SPLITS > 1
// Floats of one part of a tile in the workspace: every work-item's accumulators.
#define PART_FLOATS ((size_t)THREADS * NACC * MT)

// acc[i] of every work-item lies at i · THREADS + lid of its part.
inline void store_part(__global float* part_at, const float* acc0, const float* acc1, const uint lid) {
#pragma unroll
  for (int i = 0; i < NACC; ++i) part_at[(size_t)i * THREADS + lid] = acc0[i];
#if MT == 2
#pragma unroll
  for (int i = 0; i < NACC; ++i) part_at[(size_t)(NACC + i) * THREADS + lid] = acc1[i];
#endif
}

// acc = the sum of the tile's parts at this work-item's positions, in part order, its own part
// (which it stored) included. One part at a time, all of its loads in flight together, in a loop
// that is not unrolled: the kernel keeps within 128 registers, two work-groups of 256 work-items
// per SM (ptxas, f16 128×128: 124 registers, 116 without SPLITS).
inline void sum_parts(__global volatile const float* tile_at, float* acc, const int block, const uint lid) {
  __global volatile const float* at = tile_at + (size_t)block * NACC * THREADS + lid;
#pragma unroll
  for (int i = 0; i < NACC; ++i) acc[i] = at[(size_t)i * THREADS];
#pragma unroll 1
  for (int j = 1; j < SPLITS; ++j) {
    at += PART_FLOATS;
#pragma unroll
    for (int i = 0; i < NACC; ++i) acc[i] += at[(size_t)i * THREADS];
  }
}
#endif
