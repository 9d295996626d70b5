// tile_choice.hpp — picks, among configurations measured on one shape, the one predicted fastest
// on another shape nearby (same shape class), from how their tiles spread over the compute units;
// and whether to split the last, partial wave of tiles along K (split-K).
//
// Why: a tile that suits 1024³ can lose a third of its speed at 1032³, where 16 tiles per side
// become 17 and some compute units get one block more than the rest while the others wait (on
// the H200, 64×128 tiles: 128 blocks for 132 SMs at 1024³, 153 at 1032³: 32.5 -> 19.2 TFLOP/s).
// A smaller tile suffers less; cutting the 21 tiles of the last wave into 6 parts along K, one
// block each, fills the idle units.
//
// The model, in units of K-depth: a block costs its K-depth plus a fixed amount (kFixedDepth:
// filling the copy pipeline, storing C), and the busiest compute unit, with ceil(blocks / units)
// blocks, sets the time. With a split, the whole waves cost as before, and the last wave's parts
// (at most one per unit) add one part's cost, which also pays for storing and adding up its
// partial tile (kPartDepth). The constant comes from the time measured at the tuned shape
// (without a split). It is used only to compare configurations on shapes near the ones they were
// measured on. Checked against the H100 and H200 (docs/tuning.md): 1536³ and 2064³ in 128×128
// tiles within 3 %, 1032³ in 64×128 tiles 16 % high unsplit and 3-12 % high split.
// A kernel that says how many blocks a unit holds at once (GemmKernelDescriptor::resident: the
// tensor kernel) is counted in rounds of units × that many blocks instead, and a last round of
// at most one block per unit costs 1/alone of a round.
#pragma once

#include <clgemm/types.hpp>

#include "kernels/descriptor.hpp"
#include "kernels/gemm/xgemm/xgemm_kernel.hpp"

#include <vector>

namespace clgemm::detail {

// Split-K of the last wave: the last `split_tiles` tiles (row by row) are each computed by
// `splits` blocks over consecutive K ranges of `k_split`; splits = 1 means no split. With
// sk_groups > 0, that many blocks share those tiles' K-steps equally instead (stream-K).
struct SplitK {
  size_t splits = 1, split_tiles = 0, sk_groups = 0;
};

struct TileCandidate {
  size_t tile_m = 0, tile_n = 0, tile_k = 0;  // the work-group's tile of C and K-depth
  double gflops = 0;                         // measured at the tuned shape
  GemmShape tuned;                           // the shape it was measured on
  SplitK tuned_split;                        // ... with this split (none for a tuning run's)
  // Blocks one compute unit runs at once (GemmKernelDescriptor::resident): the model's waves
  // hold units × slots blocks.
  size_t slots = 1;
  // How many times faster a block runs alone on its unit (GemmKernelDescriptor::alone): a last
  // round of at most one block per unit costs 1/alone of a round.
  double alone = 1;
  // The blocks per unit that the configuration's registers were capped for (xgemm's MINWG; 0:
  // none). Only the stream-K rule of best_split reads it.
  size_t min_groups = 0;
};

// The model's view of configuration `full` (all parameters resolved) of a kernel with a tile:
// its tile of C, its K-depth (KWG, else 1), and `gflops` measured at `tuned`.
TileCandidate candidate_of(const GemmKernelDescriptor& desc, const KernelParams& full, double gflops,
                           const GemmShape& tuned);
// The same with `slots` from the descriptor's `resident` on `device`.
TileCandidate candidate_of(const GemmKernelDescriptor& desc, const KernelParams& full, double gflops,
                           const GemmShape& tuned, const DeviceInfo& device);

// A split of `splits` parts for a grid of `tiles` tiles on `units` compute units with `k_steps`
// tiles along K: the tiles beyond the last whole wave (all of them when there are fewer than
// units) are split; the parts are evened out so that none is empty. {1, 0} when nothing is left
// to split.
SplitK split_last_wave(size_t tiles, size_t units, size_t k_steps, size_t splits);

// The split a caller asks for (S = `splits` >= 2): the last partial wave in S parts, or exactly
// the last `split_tiles` tiles when that is not 0; evened out as above.
SplitK requested_split(const TileCandidate& c, const GemmShape& s, size_t units, size_t splits, size_t split_tiles);

// Predicted seconds of `c` at `call` with `split`, from its measurement at c.tuned (with
// c.tuned_split), on `units` compute units.
double predicted_seconds(const TileCandidate& c, const GemmShape& call, size_t units, const SplitK& split = {});

// The split predicted fastest for `c` at `call`: at most 16 parts, at most one part per compute
// unit (two after exactly two whole waves of tiles of at least 64×128; see part_slots in
// tile_choice.cpp); after whole waves, only a last wave of at most a quarter of those slots; none
// for calls under 2^25 multiply-adds; {1, 0} unless it saves at least 5 %. Before all that: tiles
// of at least 128×128 capped for c.min_groups > 1 blocks per unit, with K of at least 4096, share
// a last round in which some units would hold two blocks among units × min_groups groups
// (stream-K; see kStreamRoundMinDepth in tile_choice.cpp).
SplitK best_split(const TileCandidate& c, const GemmShape& call, size_t units);

// One configuration measured on several shapes (`measured`: the same tiles, each with its own
// tuned shape and gflops; the first is the tuning run's): the measurement nearest `call` in
// log multiply-adds per item, then in form (depth of K, width of C) and item count (ties keep
// the earlier; weights in tile_choice.cpp), with tuned_split set to the split best_split takes at
// its shape for all but the first, which were measured that way (`clgemm tune --try` with
// SPLIT=0). The model is trusted least far from where it was measured.
TileCandidate nearest_measurement(const std::vector<TileCandidate>& measured, const GemmShape& call, size_t units);

struct TilePick {
  size_t index = 0;  // into the candidates
  SplitK split;
  double seconds = 0;
};

// The candidate (with its best split, when `allow_split`) predicted fastest at `call`; the first
// candidate (the tuned entry) is kept unless another is predicted at least 10 % faster, or 5 %
// where both predictions are measurements at `call` itself, with the split they were measured
// with (points; candidates must not be empty).
TilePick pick_tile(const std::vector<TileCandidate>& candidates, const GemmShape& call, size_t units,
                   bool allow_split = true);

}  // namespace clgemm::detail
