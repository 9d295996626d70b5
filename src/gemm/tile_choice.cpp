// tile_choice.cpp — the load-balance model of tile_choice.hpp.
#include "gemm/tile_choice.hpp"

#include <algorithm>
#include <cmath>

namespace clgemm::detail {

namespace {

double ceil_div(size_t a, size_t b) { return double((a + b - 1) / b); }

// Work of the busiest compute unit, in (tile-blocks × K-steps), halfway between balanced and worst,
// and never less than one block: a unit with a single block still takes that block's whole time.
double cost(const TileCandidate& c, const GemmShape& s, size_t units) {
  const double blocks = ceil_div(s.m, c.tile_m) * ceil_div(s.n, c.tile_n);
  const double u = double(std::max<size_t>(units, 1));
  const double per_unit = std::max(1.0, 0.5 * (blocks / u + std::ceil(blocks / u)));
  return per_unit * ceil_div(s.k, c.tile_k) * double(c.tile_k);
}

}  // namespace

double predicted_seconds(const TileCandidate& c, const GemmShape& tuned, const GemmShape& call, size_t units) {
  const double tuned_seconds = 2.0 * double(tuned.m) * double(tuned.n) * double(tuned.k) / (c.gflops * 1e9);
  return tuned_seconds * cost(c, call, units) / cost(c, tuned, units);
}

size_t pick_tile(const std::vector<TileCandidate>& candidates, const GemmShape& tuned, const GemmShape& call,
                 size_t units) {
  size_t best = 0;
  double best_time = predicted_seconds(candidates[0], tuned, call, units);
  for (size_t i = 1; i < candidates.size(); ++i) {
    const double t = predicted_seconds(candidates[i], tuned, call, units);
    if (t < best_time) best = i, best_time = t;
  }
  return best;
}

}  // namespace clgemm::detail
