// edge_split.hpp — runs a GEMM whose C does not divide into the packed kernel's tiles as up to
// three GEMMs on blocks of C: the interior (whole tiles, no ragged edge), the bottom rows left
// over and the right columns left over (GemmPlan::interior_m / interior_n).
//
// Why: with 128×128 tiles, 2064³ pads C to 17×17 tiles, and the last row and column of tiles do
// a whole tile's work for 16 useful rows or columns: 14 % more arithmetic than 2048³ for 2.4 %
// more useful work, and 33 more tiles to spread over the compute units. The strips left over are
// skinny GEMMs (16 × 2064 × 2064 and 2048 × 16 × 2064) that the skinny class's tiles compute at
// a fraction of that cost; each costs a launch, which only large calls repay.
#pragma once

#include <clgemm/device.hpp>

#include "exec/problem.hpp"

#include <vector>

namespace clgemm::detail {

// The block of C at rows [row0, row0 + rows) and columns [col0, col0 + cols) as a GEMM of its own:
// the same K, alpha and beta, with the offsets of A, B and C moved to the block's first row and
// column (for every batch item: the per-item offsets of `batch` move too).
struct GemmBlock {
  RowMajorGemm g;
  BatchSpec batch;
};
GemmBlock block_of(const RowMajorGemm& g, const BatchSpec& batch, size_t row0, size_t rows, size_t col0, size_t cols);

// The interior of an m × n C in tiles of tile_m × tile_n: its whole tiles. {0, 0} when there is
// no edge to split off (every dimension a multiple of its tile) or no whole tile.
struct Interior {
  size_t m = 0, n = 0;
};
Interior interior_of(size_t m, size_t n, size_t tile_m, size_t tile_n);

// A block of C: rows [row0, row0 + rows) and columns [col0, col0 + cols).
struct Block {
  size_t row0 = 0, rows = 0, col0 = 0, cols = 0;
};
// The strips around the interior of an m × n C: the rows below it (full width), then the columns
// right of it (the interior's rows); an empty one is left out.
std::vector<Block> edge_strips(size_t m, size_t n, const Interior& interior);

// Whether splitting off the ragged edges of a call of m × n × k on a GPU of `units` compute units
// is predicted to pay, given the tile of C of the plan for the whole call (tile_m × tile_n): a
// large call (the strips are enqueued while the interior runs, so their launches leave no gaps),
// strips of at most kMaxEdge rows or columns (the skinny shape class's, whose tiles fit them),
// and an interior that needs one wave of tiles fewer than the whole call. Split against whole on
// the H200 (docs/performance.md): 2064³ +2 %, 4100³ +7 %, 4128³ +6 %, 2048×2064×2048 +8 %; where
// no wave is saved it lost (3999³ -6 %: 1024 tiles whole and 961 interior are both 8 waves), and
// so did wider strips (3000³ -8 %, 2100³ -4 %) and smaller calls (1032³ -33 %, 1548³ -17 %).
constexpr size_t kMaxEdge = 32;
bool edge_split_pays(size_t m, size_t n, size_t k, size_t tile_m, size_t tile_n, size_t units);

// Whether a call that forces nothing runs its ragged edges apart on `device`, given the tile of C
// of the plan for the whole call: edge_split_pays on GPUs, never elsewhere (measured on GPUs only).
bool edges_apart_pay(const DeviceInfo& device, size_t m, size_t n, size_t k, size_t tile_m, size_t tile_n);

}  // namespace clgemm::detail
