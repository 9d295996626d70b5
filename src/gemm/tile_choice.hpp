// tile_choice.hpp — picks, among configurations measured on one shape, the one predicted fastest
// on another shape nearby (same shape class), from how their tiles spread over the compute units.
//
// Why: a tile that suits 1024³ can lose a third of its speed at 1032³, where 16 tiles per side
// become 17 and some compute units get one block more than the rest while the others wait (on
// the H200, 64×128 tiles: 128 blocks for 132 SMs at 1024³, 153 at 1032³: 32.5 -> 19.2 TFLOP/s).
// A smaller tile suffers less. The model: a configuration's time is proportional to the K-depth
// it runs (K rounded up to its tile) times the blocks a compute unit handles, taken halfway
// between perfect balance (blocks / units) and the busiest unit (ceil(blocks / units)), and at
// least one block (fewer blocks than units do not make a block faster); its constant comes from
// the time measured at the tuned shape. It is used only to compare
// configurations on shapes close to the one they were measured on.
#pragma once

#include <clgemm/ladder.hpp>

#include <vector>

namespace clgemm::detail {

struct TileCandidate {
  size_t tile_m = 0, tile_n = 0, tile_k = 0;  // the work-group's tile of C and K-depth
  double gflops = 0;                         // measured at the tuned shape
};

// Predicted seconds of `c` at `call`, from its measurement at `tuned`, on `units` compute units.
double predicted_seconds(const TileCandidate& c, const GemmShape& tuned, const GemmShape& call, size_t units);

// Index of the candidate predicted fastest at `call` (candidates must not be empty).
size_t pick_tile(const std::vector<TileCandidate>& candidates, const GemmShape& tuned, const GemmShape& call,
                 size_t units);

}  // namespace clgemm::detail
