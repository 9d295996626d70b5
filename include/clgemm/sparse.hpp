// clgemm/sparse.hpp — block-skip sparse GEMM: C = A·B where A has all-zero TS×TS tiles.
//
// A, B, C are float32, row-major and dense in memory (A m×k, B k×n, C m×n, any sizes ≥ 1). The
// sparsity of A is found on the device: build_map() marks every TS×TS tile of A that holds a
// non-zero and lists, for each tile-row of A, its non-zero k-tiles. multiply() then runs a
// register-blocked GEMM kernel in which each work-group walks only its tile-row's list: a zero
// tile costs neither loads nor multiply-adds. The same kernel run over the full list is the dense
// baseline (SkipMode::Dense), so the two timings differ only by the skipping.
//
//   clgemm::BlockSparseGemm g(ctx, {m, n, k});
//   g.build_map(a);             // once per sparsity pattern of A
//   g.multiply(a, b, c);        // as often as wanted; A may change as long as its zero tiles stay zero
//   ctx.queue().finish();
//
// C is only ever written inside its m×n elements; A and B are only read.
#pragma once

#include <clgemm/context.hpp>
#include <clgemm/types.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace clgemm {

// Which TS×TS tiles of an m×k matrix hold a non-zero (x != 0; -0.0 counts as zero, NaN as not).
// Tiles at the ragged right and bottom edges cover only the part inside the matrix.
struct TileMap {
  size_t tile = 0;                // TS
  size_t rows = 0, cols = 0;      // ceil(m / TS) tile-rows, ceil(k / TS) tile-columns
  std::vector<uint8_t> nonzero;   // rows × cols, row-major: 1 = the tile has a non-zero

  bool at(size_t tile_row, size_t tile_col) const { return nonzero[tile_row * cols + tile_col] != 0; }
  size_t count() const;           // non-zero tiles
  double density() const;         // count() / (rows · cols); 0 for an empty map
};

// The map of a row-major host matrix, computed on the host (for checks and for callers that
// already have A in host memory).
TileMap tile_map_host(const float* a, size_t m, size_t k, size_t tile);

// A random row-major m×k matrix in which round(density · tiles) of its TS×TS tiles, chosen at
// random, hold uniform values in [-1, 1) and all others are zero. The tests and `clgemm sparse`
// both describe their cases with it. density must be in [0, 1].
std::vector<float> random_tile_sparse(size_t m, size_t k, size_t tile, double density, uint64_t seed);

enum class SkipMode {
  SkipZeroTiles,  // the block-skip run: only the non-zero k-tiles of each tile-row
  Dense,          // the same kernel over every k-tile: the baseline the skipping is measured against
};

// Tunables of the sparse kernels (all passed as -D): TS (tile side = rows of C per work-group),
// TSN (columns of C per work-group), TK (depth staged in local memory per step), WPTM × WPTN (C
// elements per work-item), MAP_WG (work-items per group of the map kernel).
struct SparseParamInfo {
  std::string name;
  long gpu_default;
  long cpu_default;
  std::string meaning;
};
const std::vector<SparseParamInfo>& sparse_params();

// The block-skip GEMM prepared for one context, shape and tile configuration: kernels compiled,
// the map and list buffers allocated. Enqueue methods use ctx.queue() (in order), return their
// events (for elapsed_seconds) and do not wait. Not safe to use from two threads at once (one
// object per thread; the Context may be shared).
class BlockSparseGemm {
 public:
  // `overrides` replaces defaults by name (e.g. {{"TS", 64}}). Throws Error(InvalidArgument) for
  // a zero size, sizes beyond 32-bit indexing, an unknown parameter or one that breaks a
  // constraint, and Error(OutOfResources) for a work-group or local memory the device lacks.
  BlockSparseGemm(const Context& ctx, const GemmShape& shape, const KernelParams& overrides = {});
  ~BlockSparseGemm();
  BlockSparseGemm(BlockSparseGemm&&) noexcept;
  BlockSparseGemm& operator=(BlockSparseGemm&&) noexcept;

  // Builds the tile map of A (m×k), the per-tile-row lists of non-zero k-tiles and the order in
  // which to run the tile-rows (longest list first) on the device: three small kernels.
  std::vector<cl::Event> build_map(const cl::Buffer& a);

  // C = A·B. SkipZeroTiles needs build_map() first (else Error(InvalidArgument)); the zero tiles
  // of A must still be zero. Dense ignores the map. One kernel, one event.
  std::vector<cl::Event> multiply(const cl::Buffer& a, const cl::Buffer& b, const cl::Buffer& c,
                                  SkipMode mode = SkipMode::SkipZeroTiles);

  // Reads the map that build_map() produced (waits for it). Throws if build_map() was never called.
  TileMap tile_map() const;

  const GemmShape& shape() const;
  size_t tile_size() const;                 // TS
  const KernelParams& params() const;
  std::string build_options() const;        // of the GEMM kernel, e.g. "-DGUARD=0 -DTK=16 ..."
  bool guarded() const;                     // true when the sizes need the bounds-checked kernel

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace clgemm
