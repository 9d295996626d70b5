// tile_choice.cpp — the load-balance and split-K model of tile_choice.hpp.
#include "plan/tile_choice.hpp"

#include <algorithm>
#include <cmath>

namespace clgemm::detail {

namespace {

// A block's cost besides its K-depth, and a part's cost for storing and adding its partial tile,
// in K-depth (H200: about 65 ns per unit of depth for a 64×128 tile; 64 is some 4 µs).
constexpr double kFixedDepth = 64, kPartDepth = 32;
constexpr size_t kMaxSplits = 16;
constexpr double kMinSplitWork = 33554432.0;  // 2^25 (about 322³)
constexpr size_t kBigTile = 64 * 128;
// Tiles from this size on share a split last wave among one block per unit (stream-K) instead
// of cutting each tile into S parts: H200, 2064³ in 128×128 tiles, 25 tiles left after two
// waves: 10 parts (250 blocks) 0.452 ms, 25 tiles shared by 132 blocks 0.427. Smaller tiles keep
// the parts (1032³ in 64×128: 21 tiles shared by 132 blocks 0.115 ms, 6 parts 0.081).
constexpr size_t kStreamTile = 128 * 128;
// ... but only after at most two rounds of whole tiles (one per unit): past that, sharing the last
// wave lost on the H200 (4128³, 1056 whole tiles and 33 left: 33 tiles shared by 132 groups
// 3.22 ms, unsplit 3.13).
constexpr size_t kStreamMaxRounds = 2;
// The split build of 128×128 tiles runs at two blocks per SM and as fast as the unsplit one, so a
// last round in which some units would hold two blocks (and so take a whole round, as long as a
// full one) is shared by a group per place (units × MINWG), one round of stream-K. H200, kernel
// alone, unsplit -> shared: 4096³ (232 tiles left of 1024 on 264 places) 2.691 -> 2.663 ms;
// 8192³ (136 left of 4096) 21.31 -> 20.96; 6144³ 9.02 -> 8.87; 4096×4096×16384 10.70 -> 10.53.
// Not with short K, where the parts' fix-up weighs more: 4096×4096×1024 0.688 -> 0.700 (K = 2048
// is not measured; the rule starts at 4096). A last round of at most one block per unit runs
// faster (each block alone on its SM) and stays with the rules above (4128³: 33 left).
constexpr size_t kStreamRoundMinDepth = 4096;
// An alternative replaces the entry only when predicted this much faster: the model is off by
// 5-15 % at shapes away from the tuned one, and the entry is the one measured fastest (1032³ on
// the H100: the 64×64 runner-up in 5 parts, predicted 5 % faster than the entry's 64×128 tiles
// in 6, measured 25.4 against 27.1 TFLOP/s).
constexpr double kAlternativeMargin = 0.90;
// ... except where both are measurements at the call's own shape (points, below), which the
// model does not scale: then only the spread of the medians they are (a few %) is left to cover.
// H200, 129³: 16×16 tiles in 4 slices 7.8 µs against the entry's 16×32 8.4
// (the odd size's neighbour, 128³, took 7.1: with the entry 129³ trailed it by 14 % in the bench);
// 300³: 24×32 tiles 12.4 against 13.6.
constexpr double kMeasuredMargin = 0.95;

// The measurement nearest a call (nearest_measurement) is the nearest in log multiply-adds of
// an item, then in its form: a point at 100×100×100000 says nothing about 1000³, whose
// multiply-adds it shares, and a deep-K call is best predicted from a deep-K point (kShapeWeight,
// per unit of log depth K/sqrt(m·n) and of log width n/m). A batch's item count only scales
// the waves (kBatchWeight).
constexpr double kShapeWeight = 0.5;
constexpr double kBatchWeight = 0.25;

// Deep K on fewer tiles than units (100×100×100000, 64×64×65536): the whole grid is split, into
// up to kDeepPartsPerUnit parts per unit (and kMaxDeepSplits per tile), since one small-tile block
// per SM leaves most of it idle. H200, tiles of 32×128 over K = 100000 (4 tiles): 16 parts per
// tile 11.8 TFLOP/s, 32 parts 15.2, 64 parts 16.9; 32×64 over 64×64×65536 (2 tiles): 64 parts
// 12.6, 128 parts 12.7; 16×32 over 32×32×131072 (2 tiles): 64 parts 7.6.
constexpr size_t kDeepMinK = 8192;
constexpr size_t kDeepPartsPerUnit = 2;
constexpr size_t kMaxDeepSplits = 256;

// Blocks on the busiest compute unit (see tile_choice.hpp).
double share(size_t n, size_t units) { return double(std::max<size_t>(1, ceil_div(n, std::max<size_t>(units, 1)))); }

// The blocks a split's parts may fill: the units, or twice as many after exactly two whole waves
// of big tiles (at least 64×128), whose blocks then already share each unit two ways. Measured
// on the H100 (132 SMs): 1548³ in 64×128 tiles, two waves and 61 tiles left: 3 parts (183
// blocks) 0.235 ms, 2 parts 0.256, none 0.270. But 774³ in 32×64 tiles, also two waves and 61
// left, lost with 4 parts (small blocks share units anyway), and so did 4096³ in 128×128 tiles,
// seven waves and 100 left, in 9 parts (48.7 -> 45.0 TFLOP/s); more waves than two keep the
// rule of one. After one wave, at most one part per unit: 1032³, 21 tiles left: 6 parts (126
// blocks) 0.081 ms, 7 parts 0.115.
size_t part_slots(const TileCandidate& c, size_t tiles, size_t split_tiles, size_t units) {
  units = std::max<size_t>(units, 1);
  const bool shared = (tiles - split_tiles) / units == 2 && c.tile_m * c.tile_n >= kBigTile;
  return shared ? 2 * units : units;
}

// Deep K on fewer tiles than units (kDeepMinK): the whole grid is split (deep_split).
bool deep_split(const GemmShape& s, size_t tiles, size_t units) {
  return tiles < std::max<size_t>(units, 1) && s.k >= kDeepMinK;
}

// The blocks the parts of a split may fill: kDeepPartsPerUnit per unit for a deep split, else
// part_slots.
size_t split_slots(const TileCandidate& c, const GemmShape& s, size_t tiles, size_t split_tiles, size_t units) {
  return deep_split(s, tiles, units) ? kDeepPartsPerUnit * std::max<size_t>(units, 1)
                                     : part_slots(c, tiles, split_tiles, units);
}

// Rounds of `units` × c.slots places that `blocks` blocks take: a last round of at most one
// block per unit costs 1/c.alone of a round, since those blocks have their units to themselves.
// (H200, 3xTF32, 128×128 tiles two per SM: 4128³ is 1089 blocks, four rounds of 264 and 33 left;
// 2.65 ms measured, 2.94 predicted with a whole fifth round, 2.65 with half of one.)
double rounds(const TileCandidate& c, size_t blocks, size_t units) {
  const size_t slots = std::max<size_t>(c.slots, 1), places = units * slots;
  const size_t full = blocks / places, left = blocks % places;
  if (left == 0) return double(std::max<size_t>(full, 1));
  return double(full) + (left <= units ? 1.0 / std::max(1.0, c.alone) : 1.0);
}

double cost(const TileCandidate& c, const GemmShape& s, size_t units, const SplitK& split) {
  units = std::max<size_t>(units, 1);
  const size_t tiles = ceil_div(s.m, c.tile_m) * ceil_div(s.n, c.tile_n) * std::max<size_t>(s.batch, 1);
  const size_t kp = ceil_div(s.k, c.tile_k) * c.tile_k;
  const double whole = double(kp) + kFixedDepth;
  if (split.splits <= 1 || split.split_tiles == 0) return rounds(c, tiles, units) * whole;
  units *= std::max<size_t>(c.slots, 1);  // splits are xgemm's (one slot): as before
  const size_t full = tiles - split.split_tiles;  // whole waves: a multiple of units
  const double part = double(split_depth(kp, c.tile_k, split.splits)) + kFixedDepth + kPartDepth;
  return (full > 0 ? share(full, units) * whole : 0.0) +
         share(split.split_tiles * split.splits, split_slots(c, s, tiles, split.split_tiles, units)) * part;
}

}  // namespace

TileCandidate candidate_of(const GemmKernelDescriptor& desc, const KernelParams& full, double gflops,
                           const GemmShape& tuned) {
  const auto [tm, tn] = desc.tile(full);
  const size_t tk = full.count("KWG") ? size_t(full.at("KWG")) : 1;
  const size_t min_groups = full.count("MINWG") && full.at("MINWG") > 0 ? size_t(full.at("MINWG")) : 0;
  return {tm, tn, tk, gflops, tuned, {}, 1, 1, min_groups};
}

TileCandidate candidate_of(const GemmKernelDescriptor& desc, const KernelParams& full, double gflops,
                           const GemmShape& tuned, const DeviceInfo& device) {
  TileCandidate c = candidate_of(desc, full, gflops, tuned);
  if (desc.resident) c.slots = std::max<size_t>(1, desc.resident(full, device));
  if (desc.alone) c.alone = std::max(1.0, desc.alone(full, device));
  return c;
}

SplitK split_last_wave(size_t tiles, size_t units, size_t k_steps, size_t splits) {
  units = std::max<size_t>(units, 1);
  const size_t left = tiles < units ? tiles : tiles % units;
  splits = std::min(splits, k_steps);
  if (splits <= 1 || left == 0) return {};
  splits = ceil_div(k_steps, ceil_div(k_steps, splits));  // no empty part
  return splits <= 1 ? SplitK{} : SplitK{splits, left};
}

SplitK requested_split(const TileCandidate& c, const GemmShape& s, size_t units, size_t splits, size_t split_tiles) {
  const size_t tiles = ceil_div(s.m, c.tile_m) * ceil_div(s.n, c.tile_n), k_steps = ceil_div(s.k, c.tile_k);
  if (split_tiles == 0) return split_last_wave(tiles, units, k_steps, splits);
  const size_t left = std::min(split_tiles, tiles);
  return split_last_wave(left, left + 1, k_steps, splits);  // a grid with just those tiles left over
}

double predicted_seconds(const TileCandidate& c, const GemmShape& call, size_t units, const SplitK& split) {
  const GemmShape& t = c.tuned;
  const double tuned_seconds = gemm_flops(t) / (c.gflops * 1e9);
  return tuned_seconds * cost(c, call, units, split) / cost(c, t, units, c.tuned_split);
}

TileCandidate nearest_measurement(const std::vector<TileCandidate>& measured, const GemmShape& call, size_t units) {
  const auto ln = [](double x) { return std::log(std::max(x, 1.0)); };
  const auto madds = [&](const GemmShape& s) { return ln(double(s.m)) + ln(double(s.n)) + ln(double(s.k)); };
  // How deep K is against C's side, and how wide C is against its height.
  const auto depth = [&](const GemmShape& s) { return ln(double(s.k)) - 0.5 * (ln(double(s.m)) + ln(double(s.n))); };
  const auto width = [&](const GemmShape& s) { return ln(double(s.n)) - ln(double(s.m)); };
  const auto distance = [&](const GemmShape& s) {
    return std::fabs(madds(call) - madds(s)) +
           kShapeWeight * (std::fabs(depth(call) - depth(s)) + std::fabs(width(call) - width(s))) +
           kBatchWeight * std::fabs(ln(double(call.batch)) - ln(double(s.batch)));
  };
  size_t best = 0;
  for (size_t i = 1; i < measured.size(); ++i)
    if (distance(measured[i].tuned) < distance(measured[best].tuned)) best = i;
  TileCandidate c = measured.at(best);
  if (best > 0) c.tuned_split = best_split(c, c.tuned, units);
  return c;
}

SplitK best_split(const TileCandidate& c, const GemmShape& call, size_t units) {
  if (call.batch > 1) return {};  // a batch's items fill the units; the batched entries are measured unsplit
  const size_t tiles = ceil_div(call.m, c.tile_m) * ceil_div(call.n, c.tile_n);
  const size_t k_steps = ceil_div(call.k, c.tile_k);
  SplitK best;
  if (c.tile_m * c.tile_n >= kStreamTile && c.min_groups > 1 && k_steps * c.tile_k >= kStreamRoundMinDepth) {
    const size_t places = std::max<size_t>(units, 1) * c.min_groups, left = tiles % places;
    if (tiles > places && left > units) return SplitK{2, left, places};
  }
  // Tiny calls are not split: their time is mostly fixed costs, which a split adds to (258³ in
  // 32×64 tiles on the H100: 0.021 ms in 2 parts, 0.017 unsplit).
  if (double(call.m) * double(call.n) * double(call.k) < kMinSplitWork) return best;
  double best_time = 0.95 * predicted_seconds(c, call, units);
  const bool deep = deep_split(call, tiles, units);
  for (size_t s = 2; s <= (deep ? kMaxDeepSplits : kMaxSplits); ++s) {
    const SplitK split = split_last_wave(tiles, units, k_steps, s);
    if (split.splits <= 1) continue;
    const size_t slots = split_slots(c, call, tiles, split.split_tiles, units);
    if (split.split_tiles * split.splits > slots) continue;
    // After whole waves, split only a last wave that leaves three quarters of the slots idle:
    // where it fills more, the extra blocks already share units with others (small tiles hold
    // several per unit), and splitting measured slower (774³ in 64×64 tiles, 37 tiles left on
    // 132 SMs: 0.075 ms split in 3 against 0.068 unsplit, H100).
    if (split.split_tiles < tiles && split.split_tiles * 4 > slots) continue;
    const double t = predicted_seconds(c, call, units, split);
    if (t < best_time) best = split, best_time = t;
  }
  if (best.splits > 1 && best.split_tiles < tiles && c.tile_m * c.tile_n >= kStreamTile) {
    if (tiles - best.split_tiles > kStreamMaxRounds * std::max<size_t>(units, 1)) return SplitK{};
    best.sk_groups = units;
  }
  return best;
}

namespace {
// Whether the prediction of `c` at `call` with `split` is a measurement, not the model's scaling.
bool measured_at(const TileCandidate& c, const GemmShape& call, const SplitK& split) {
  return c.tuned.m == call.m && c.tuned.n == call.n && c.tuned.k == call.k && c.tuned.batch == call.batch &&
         split.splits == c.tuned_split.splits &&
         split.split_tiles == c.tuned_split.split_tiles && split.sk_groups == c.tuned_split.sk_groups;
}
}  // namespace

TilePick pick_tile(const std::vector<TileCandidate>& candidates, const GemmShape& call, size_t units,
                   bool allow_split) {
  TilePick best;
  for (size_t i = 0; i < candidates.size(); ++i) {
    const SplitK split = allow_split ? best_split(candidates[i], call, units) : SplitK{};
    const double t = predicted_seconds(candidates[i], call, units, split);
    const bool measured_here = measured_at(candidates[i], call, split) && measured_at(candidates[0], call, best.split);
    const double margin = measured_here ? kMeasuredMargin : kAlternativeMargin;
    if (i == 0 || t < (best.index == 0 ? margin : 1.0) * best.seconds) best = {i, split, t};
  }
  return best;
}

}  // namespace clgemm::detail
