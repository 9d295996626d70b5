// tile_choice_test.cpp — the load-balance model that picks among a tuned entry's alternatives,
// and the planner using it.
#include <clgemm/gemm.hpp>

#include "plan/tile_choice.hpp"
#include "database/database.hpp"
#include "test_support.hpp"

#include <optional>

namespace clgemm::test {
namespace {

// Measured on the H200 (132 SMs) at 1024³ with the sm_90 entries: 64×128 tiles at 32.5 TFLOP/s, 32×64
// tiles at 26.7. At 1024³ the big tile wins; at 1032³ it needs 153 blocks for 132 SMs, and
// without a split the small tile (561 blocks) wins: measured 19.2 against 22.1 TFLOP/s.
const GemmShape kTuned{1024, 1024, 1024};
const detail::TileCandidate kBig{64, 128, 16, 32451, kTuned, {}}, kSmall{32, 64, 32, 26715, kTuned, {}};
// The mid entry's 128×128 tiles, 45.4 TFLOP/s at 2048³ on the H100 (0.378 ms, packing A included).
const detail::TileCandidate kMid{128, 128, 16, 45417, {2048, 2048, 2048}, {}};

TEST(TileChoice, PredictsTheMeasuredTimeAtTheTunedShape) {
  const double t = detail::predicted_seconds(kBig, kTuned, 132);
  EXPECT_NEAR(t, gemm_flops(kTuned) / 32451e9, 1e-12);
}

TEST(TileChoice, PrefersTheTileThatSpreadsEvenly) {
  const GemmShape odd{1032, 1032, 1032};
  EXPECT_EQ(detail::pick_tile({kBig, kSmall}, kTuned, 132, false).index, 0u);
  EXPECT_EQ(detail::pick_tile({kBig, kSmall}, odd, 132, false).index, 1u);
  EXPECT_EQ(detail::pick_tile({kSmall, kBig}, odd, 132, false).index, 0u) << "order does not matter";
  // The model against measurements (H200 and H100): 1032³ unsplit, within 20 % (it is high for
  // the big tile); the 128×128 tiles at 1536³ and 2064³, within 5 %.
  EXPECT_NEAR(detail::predicted_seconds(kBig, odd, 132), 0.114e-3, 0.20 * 0.114e-3);
  EXPECT_NEAR(detail::predicted_seconds(kSmall, odd, 132), 0.100e-3, 0.20 * 0.100e-3);
  EXPECT_NEAR(detail::predicted_seconds(kMid, {1536, 1536, 1536}, 132), 0.294e-3, 0.05 * 0.294e-3);
  EXPECT_NEAR(detail::predicted_seconds(kMid, {2064, 2064, 2064}, 132), 0.569e-3, 0.05 * 0.569e-3);
  // Fewer blocks than compute units: a block takes no less time than it did among others.
  EXPECT_NEAR(detail::predicted_seconds(kBig, {512, 512, 1024}, 132), detail::predicted_seconds(kBig, kTuned, 132),
              1e-12);
  // More K costs more, a little less than proportionally (a block's fixed cost); K rounds up to
  // the tile's depth.
  const double t1 = detail::predicted_seconds(kBig, {1024, 1024, 2048}, 132);
  EXPECT_LT(t1, 2 * detail::predicted_seconds(kBig, kTuned, 132));
  EXPECT_GT(t1, 1.9 * detail::predicted_seconds(kBig, kTuned, 132));
  EXPECT_GT(detail::predicted_seconds(kBig, {1024, 1024, 1025}, 132),
            detail::predicted_seconds(kBig, kTuned, 132) * 1.01);
}

// Blocks that share a compute unit (slots) make rounds of units × slots places: 2064³ in 128×64
// tiles, four per SM, is 561 blocks for 528 places, two rounds, where one per SM would see five
// rounds of 132 with the last 85 % full.
TEST(TileChoice, RoundsHoldUnitsTimesSlotsBlocks) {
  detail::TileCandidate one{128, 64, 1, 50000, {2048, 2048, 2048}, {}}, four = one;
  four.slots = 4;
  const GemmShape ragged{2064, 2064, 2064};
  // One per SM: 512 tiles in 4 rounds at 2048³, 561 in 5 at 2064³. Four per SM: 1 and 2 rounds.
  EXPECT_NEAR(detail::predicted_seconds(one, ragged, 132) / detail::predicted_seconds(one, one.tuned, 132),
              5.0 * (2064 + 64) / (4.0 * (2048 + 64)), 1e-9);
  EXPECT_NEAR(detail::predicted_seconds(four, ragged, 132) / detail::predicted_seconds(four, four.tuned, 132),
              2.0 * (2064 + 64) / (1.0 * (2048 + 64)), 1e-9);
  // Blocks that run twice as fast alone: the 33 left over, one per unit, cost half a round.
  four.alone = 2;
  EXPECT_NEAR(detail::predicted_seconds(four, ragged, 132) / detail::predicted_seconds(four, four.tuned, 132),
              1.5 * (2064 + 64) / (1.0 * (2048 + 64)), 1e-9);
  // ... but not a last round that puts two on some units (2048×2688: 672 blocks, 144 left).
  EXPECT_NEAR(detail::predicted_seconds(four, {2048, 2688, 2048}, 132) /
                  detail::predicted_seconds(four, four.tuned, 132),
              2.0, 1e-9);
}

TEST(SplitK, SplitsOnlyTheLastPartialWave) {
  // 153 tiles on 132 units: one whole wave, 21 tiles left; 65 steps along K in 6 parts of 11.
  const detail::SplitK s = detail::split_last_wave(153, 132, 65, 6);
  EXPECT_EQ(s.splits, 6u);
  EXPECT_EQ(s.split_tiles, 21u);
  EXPECT_EQ(detail::split_depth(1040, 16, 6), 11u * 16);
  // Fewer tiles than units: all of them.
  EXPECT_EQ(detail::split_last_wave(18, 132, 24, 7).split_tiles, 18u);
  // Whole waves leave nothing to split; a single step along K cannot be split.
  EXPECT_EQ(detail::split_last_wave(264, 132, 64, 4).splits, 1u);
  EXPECT_EQ(detail::split_last_wave(5, 132, 1, 4).splits, 1u);
  // No empty part: 5 steps in 4 parts would be 2+2+1+0, so 3 parts (2+2+1).
  EXPECT_EQ(detail::split_last_wave(5, 132, 5, 4).splits, 3u);
  // What a caller asks for: the last partial wave, or exactly the last few tiles.
  EXPECT_EQ(detail::requested_split(kBig, {1032, 1032, 1032}, 132, 4, 0).split_tiles, 21u);
  EXPECT_EQ(detail::requested_split(kBig, {1032, 1032, 1032}, 132, 4, 3).split_tiles, 3u);
}

TEST(SplitK, ModelSplitsWhereTheLastWaveIsPartial) {
  const GemmShape odd{1032, 1032, 1032};
  // At the tuned shape (128 tiles for 132 units) nothing is gained by splitting.
  EXPECT_EQ(detail::best_split(kBig, kTuned, 132).splits, 1u);
  // At 1032³ the 21 tiles left after the first wave are split, into at most 132 parts (6: what
  // was measured fastest on the H100, 0.083 ms against 0.116 unsplit), and predicted faster.
  const detail::SplitK s = detail::best_split(kBig, odd, 132);
  EXPECT_EQ(s.splits, 6u);
  EXPECT_EQ(s.split_tiles, 21u);
  EXPECT_LT(detail::predicted_seconds(kBig, odd, 132, s), 0.95 * detail::predicted_seconds(kBig, odd, 132));
  EXPECT_NEAR(detail::predicted_seconds(kBig, odd, 132, s), 0.083e-3, 0.10 * 0.083e-3);
  // Few tiles and deep K (384³ in 64×128 tiles: 18 tiles): a split into many parts.
  EXPECT_GE(detail::best_split(kBig, {384, 384, 384}, 132).splits, 4u);
  // The pick carries the split of the winning candidate.
  const detail::TilePick pick = detail::pick_tile({kBig, kSmall}, odd, 132);
  EXPECT_GE(pick.split.splits, 2u);
  EXPECT_LE(pick.seconds, detail::predicted_seconds(kBig, odd, 132));
}

// The sm_90 medium entry (64×128) and its 64×64 runner-up, measured on the H200 at 1024³.
const detail::TileCandidate kM1{64, 128, 16, 32848, kTuned, {}}, kM2{64, 64, 16, 31730, kTuned, {}};

TEST(SplitK, PartsShareUnitsWithWholeWaves) {
  // 1548³ in 64×128 tiles: 325 tiles, two whole waves on 132 units and 61 tiles left (more
  // than a quarter of the units, less than a quarter of the 264 slots). Measured on the H100:
  // 3 parts 0.235 ms, 2 parts 0.256, none 0.270. The parts count against 264 slots, so the
  // split has at least 3 parts and is predicted faster than none.
  const GemmShape s{1548, 1548, 1548};
  const detail::SplitK split = detail::best_split(kM1, s, 132);
  EXPECT_EQ(split.split_tiles, 61u);
  EXPECT_GE(split.splits, 3u);
  EXPECT_LE(split.splits * split.split_tiles, 264u);
  EXPECT_LT(detail::predicted_seconds(kM1, s, 132, split), 0.95 * detail::predicted_seconds(kM1, s, 132));
  // After one whole wave, still at most one part per unit (1032³: 6 parts of 21 tiles, not 7).
  EXPECT_EQ(detail::best_split(kM1, {1032, 1032, 1032}, 132).splits, 6u);
  // Small tiles, or more than two waves, keep one part per unit and a quarter of the units:
  // 774³ in 32×64 tiles (61 left after two waves) and 4096³ in 128×128 tiles (100 left after
  // seven) measured slower split (H100), and are not split.
  EXPECT_EQ(detail::best_split(kSmall, {774, 774, 774}, 132).splits, 1u);
  EXPECT_EQ(detail::best_split({128, 128, 16, 48949, {4096, 4096, 4096}, {}}, {4096, 4096, 4096}, 132).splits, 1u);
}

TEST(SplitK, BigTilesShareTheLastWaveStreamK) {
  // 2064³ in 128×128 tiles: 289 tiles, 25 left after two waves. Measured on the H200: 25 tiles
  // shared by 132 blocks 0.427 ms, in 10 parts (250 blocks) 0.452. One group per unit.
  const detail::SplitK big = detail::best_split(kMid, {2064, 2064, 2064}, 132);
  EXPECT_EQ(big.split_tiles, 25u);
  EXPECT_EQ(big.sk_groups, 132u);
  // Smaller tiles keep whole parts (1032³ in 64×128: 21 tiles shared by 132 blocks measured
  // 0.115 ms, 6 parts 0.081), and so does a split of every tile (fewer tiles than units).
  EXPECT_EQ(detail::best_split(kM1, {1032, 1032, 1032}, 132).sk_groups, 0u);
  const detail::SplitK all = detail::best_split(kMid, {384, 384, 1024}, 132);
  EXPECT_GE(all.splits, 2u);
  EXPECT_EQ(all.sk_groups, 0u);
  // After more than two rounds of whole tiles the big tiles stay unsplit: 4128³ (1056 whole tiles
  // and 33 left) measured 3.22 ms shared by 132 groups and 3.13 unsplit (H200).
  EXPECT_EQ(detail::best_split(kMid, {4128, 4128, 4128}, 132).splits, 1u);
  EXPECT_EQ(detail::best_split(kMid, {4128, 4128, 4128}, 132).sk_groups, 0u);
}

TEST(SplitK, BigTilesAtTwoPerUnitShareALastRoundThatDoublesUp) {
  // The large entry: 128×128 tiles capped for two groups per SM (MINWG 2), 264 places on 132 SMs.
  detail::TileCandidate large{128, 128, 16, 48949, {4096, 4096, 4096}, {}};
  large.min_groups = 2;
  // 4096³: 1024 tiles, three rounds and 232 left, so 100 SMs would hold two blocks in the last
  // round: the 232 shared by 264 groups (H200: 2.691 -> 2.663 ms, kernel alone).
  const detail::SplitK at4096 = detail::best_split(large, {4096, 4096, 4096}, 132);
  EXPECT_GE(at4096.splits, 2u);
  EXPECT_EQ(at4096.split_tiles, 232u);
  EXPECT_EQ(at4096.sk_groups, 264u);
  // 8192³: 4096 tiles, fifteen rounds and 136 left (21.31 -> 20.96 ms).
  const detail::SplitK at8192 = detail::best_split(large, {8192, 8192, 8192}, 132);
  EXPECT_EQ(at8192.split_tiles, 136u);
  EXPECT_EQ(at8192.sk_groups, 264u);
  // A last round of at most one block per SM (4128³: 33 left; 2064³: 25) keeps the rules
  // before, and so does a call within one round (2048³: 256 tiles) or without the cap.
  EXPECT_EQ(detail::best_split(large, {4128, 4128, 4128}, 132).sk_groups, 0u);
  EXPECT_EQ(detail::best_split(large, {2064, 2064, 2064}, 132).sk_groups, 132u);
  EXPECT_EQ(detail::best_split(large, {2048, 2048, 2048}, 132).splits, 1u);
  // Nor with short K (4096×4096×1024: 0.688 ms unsplit, 0.700 shared).
  EXPECT_EQ(detail::best_split(large, {4096, 4096, 1024}, 132).sk_groups, 0u);
  large.min_groups = 0;
  EXPECT_EQ(detail::best_split(large, {4096, 4096, 4096}, 132).splits, 1u);
  // Smaller tiles never take it.
  detail::TileCandidate medium{64, 128, 16, 32451, {1024, 1024, 1024}, {}};
  medium.min_groups = 2;
  EXPECT_EQ(detail::best_split(medium, {4096, 4096, 4096}, 132).sk_groups, 0u);
}

TEST(SplitK, TinyCallsAreNotSplit) {
  // 258³ in 32×64 tiles: 45 tiles for 132 units, but 2^24 multiply-adds; split in 2 it measured
  // 0.021 ms against 0.017 (H100).
  EXPECT_EQ(detail::best_split(kSmall, {258, 258, 258}, 132).splits, 1u);
  EXPECT_GE(detail::best_split(kBig, {384, 384, 384}, 132).splits, 2u);
}

// Deep K on fewer tiles than units: the whole grid is cut into up to two parts per unit, far
// beyond the 16 parts of a last wave, while K >= 8192; a batch is never split.
TEST(SplitK, DeepKOnFewTilesFillsTwoBlocksPerUnit) {
  const GemmShape deep{100, 100, 100000};  // 2 tiles of 64×128
  const detail::SplitK s = detail::best_split(kBig, deep, 132);
  EXPECT_EQ(s.split_tiles, 2u);
  EXPECT_GT(s.splits, 16u);
  EXPECT_LE(s.splits * s.split_tiles, 264u);
  const detail::SplitK shallow = detail::best_split(kBig, {100, 100, 4096}, 132);
  EXPECT_LE(shallow.splits, 16u) << "K below 8192 keeps the last-wave limits";
  EXPECT_EQ(detail::best_split(kBig, {100, 100, 100000, 8}, 132).splits, 1u);
  const GemmPlan plan = plan_gemm(fake_h200(), 100, 100, 100000);
  EXPECT_GT(plan.splits * plan.split_tiles, 132u) << plan.describe();
}

TEST(TileChoice, KeepsTheEntryUnlessAnAlternativeIsClearlyFaster) {
  // 1032³ (H100): the entry in 6 parts measured 27.1 TFLOP/s, the runner-up in 5 parts 25.4; the
  // model predicts the runner-up 5 % faster, within its error, so the entry stays.
  const GemmShape odd{1032, 1032, 1032};
  const detail::TilePick pick = detail::pick_tile({kM1, kM2}, odd, 132);
  EXPECT_EQ(pick.index, 0u);
  EXPECT_EQ(pick.split.splits, 6u);
  EXPECT_LT(detail::predicted_seconds(kM2, odd, 132, detail::best_split(kM2, odd, 132)), pick.seconds)
      << "the runner-up is predicted faster, but not by 10 %";
  // At the tuned shape the entry is the one measured fastest.
  EXPECT_EQ(detail::pick_tile({kM1, kM2, kSmall}, kTuned, 132).index, 0u);
  // A clearly better spread still wins (PrefersTheTileThatSpreadsEvenly: 1032³ unsplit).
  EXPECT_EQ(detail::pick_tile({kBig, kSmall}, odd, 132, false).index, 1u);
}

TEST(PackB, PlannerCopiesAnUnalignedBOnlyForLargeCalls) {
  const DeviceInfo& dev = shared_context().info();
  EXPECT_TRUE(plan_gemm(dev, 3999, 3999, 3999).pack_b);  // H100: 3.204 -> 2.846 ms with the copy
  EXPECT_FALSE(plan_gemm(dev, 774, 774, 774).pack_b);    // 0.062 -> 0.072 ms with it
  EXPECT_FALSE(plan_gemm(dev, 16, 4096, 4096).pack_b);   // one pass over a large B for 16 rows
  GemmOptions on, off;
  on.force_pack_b = GemmOptions::Toggle::On;
  off.force_pack_b = GemmOptions::Toggle::Off;
  EXPECT_TRUE(plan_gemm(dev, 774, 774, 774, on).pack_b);
  EXPECT_FALSE(plan_gemm(dev, 3999, 3999, 3999, off).pack_b);
}

TEST(TileChoice, PlannerPicksAnAlternativeWhereItSpreadsBetter) {
  std::optional<ScopedDatabase> user_db(std::in_place);
  DeviceInfo dev = shared_context().info();
  dev.name = "tile choice device " + std::to_string(fresh_seed());
  dev.compute_units = 132;
  detail::TuningEntry e;
  e.device = dev.name, e.architecture = "", e.vendor = "v", e.device_type = dev.kind_name();
  // The class of 1024³ and 1032³ on this device's kind ("medium" on GPUs, "large" on CPUs).
  const std::string cls = detail::shape_class(dev.kind, 1024, 1024, 1024);
  ASSERT_EQ(detail::shape_class(dev.kind, 1032, 1032, 1032), cls);
  e.shape_class = cls, e.kernel = "xgemm", e.shape = kTuned, e.gflops = kBig.gflops, e.date = "2026-11-22";
  e.params = {{"MWG", 64}, {"NWG", 128}, {"KWG", 16}, {"MDIMC", 8}, {"NDIMC", 16}, {"VWM", 4}, {"VWN", 4}};
  e.alternatives = {{{{"MWG", 32}, {"NWG", 64}, {"KWG", 32}, {"MDIMC", 8}, {"NDIMC", 16}, {"VWM", 4}, {"VWN", 4}},
                     kSmall.gflops, {}}};
  detail::TuningDatabase db;
  db.upsert(e);
  detail::save_database(db, user_db->path());
  detail::reload_user_database();
  GemmOptions no_split;
  no_split.force_splits = 1;
  const GemmPlan even = plan_gemm(dev, 1024, 1024, 1024);
  const GemmPlan odd = plan_gemm(dev, 1032, 1032, 1032, no_split);
  const GemmPlan odd_split = plan_gemm(dev, 1032, 1032, 1032);
  user_db.reset();  // the plans are made; the assertions below need no database
  EXPECT_EQ(even.params.at("MWG"), 64) << even.describe();
  EXPECT_EQ(odd.params.at("MWG"), 32) << odd.describe();
  EXPECT_NE(odd.source.find("alternative 1"), std::string::npos) << odd.source;
  EXPECT_EQ(even.splits, 1u) << even.describe();
  EXPECT_EQ(odd.splits, 1u) << odd.describe();
  EXPECT_GE(odd_split.splits, 2u) << odd_split.describe();
  EXPECT_GE(odd_split.split_tiles, 1u) << odd_split.describe();
  // The alternatives survive a round trip through the file format.
  const auto back = detail::TuningDatabase::parse(db.dump());
  ASSERT_EQ(back.entries.size(), 1u);
  ASSERT_EQ(back.entries[0].alternatives.size(), 1u);
  EXPECT_EQ(back.entries[0].alternatives[0].params.at("MWG"), 32);
  EXPECT_DOUBLE_EQ(back.entries[0].alternatives[0].gflops, kSmall.gflops);
}

// The built-in sm_90 small entry (ninth session, H200, `clgemm tune --try` medians in µs): 16×32
// tiles at 256³ (128 blocks for 132 SMs), but at 257-264³ those make 153 blocks and 24×24 tiles
// with K-steps of 48 are faster. Since the fifteenth session every configuration has points at
// 128³, 129³, 192³, 258³ and 300³, and 16×16 tiles in 4 slices take the sizes up to about 180³.
// Twentieth session: six of the eight keep a row-major A as stored (ALK), and every point was
// measured again (scripts/gpu/configs/a-rows-small-20.txt, medians of three runs): 128³ 16×16
// tiles 7.2 against 8.2 for 16×32; 258³ 24×24 tiles 10.1 against 12.4. At 129³ (16×16: 7.8,
// 16×32: 8.4) and 300³ (24×32: 12.4, 16×32: 13.6) the others are faster by less than the 10 %
// an alternative needs where the model scales a measurement, but by more than the 5 % it needs
// where both are measurements at the call's shape: they are taken there, and the entry's 16×32
// tiles near there.
TEST(TileChoice, BuiltInH200SmallEntryPicksItsTilesByShape) {
  const ScopedDatabase no_user_entries;  // the built-in database alone
  const DeviceInfo h200 = fake_h200();
  const auto tile_of = [&](size_t n) {
    const GemmPlan p = plan_gemm(h200, n, n, n);
    EXPECT_EQ(p.path, GemmPath::Packed) << n;
    return std::make_pair(p.params.at("MWG"), p.params.at("NWG"));
  };
  using Tile = std::pair<long, long>;
  for (size_t n : {96, 128, 129, 176}) EXPECT_EQ(tile_of(n), Tile(16, 16)) << n << "³";
  for (size_t n : {130, 192, 200, 256, 272, 320}) EXPECT_EQ(tile_of(n), Tile(16, 32)) << n << "³";
  for (size_t n : {257, 258, 260, 264}) EXPECT_EQ(tile_of(n), Tile(24, 24)) << n << "³";
  for (size_t n : {288, 300}) EXPECT_EQ(tile_of(n), Tile(24, 32)) << n << "³";
}

// A configuration measured at 1024³ and at 516³ (the sm_90 medium entry's 32×64 tiles: 26.7
// TFLOP/s, and 23.49 µs with the 21 tiles of the last wave in 6 parts): near 516³ the model
// scales the 516³ measurement, which it reproduces exactly there, split as it was measured.
TEST(TileChoice, PredictsFromTheNearestMeasurement) {
  const GemmShape near{516, 516, 516};
  detail::TileCandidate at516 = kSmall;
  at516.tuned = near, at516.gflops = gemm_flops(near) / 23.49e-6 * 1e-9;
  const std::vector<detail::TileCandidate> measured{kSmall, at516};
  for (size_t n : {400, 516, 600, 700}) {
    const detail::TileCandidate c = detail::nearest_measurement(measured, {n, n, n}, 132);
    EXPECT_EQ(c.tuned.m, 516u) << n;
  }
  for (size_t n : {800, 1024, 1032, 1500}) {
    const detail::TileCandidate c = detail::nearest_measurement(measured, {n, n, n}, 132);
    EXPECT_EQ(c.tuned.m, 1024u) << n;
    EXPECT_EQ(c.tuned_split.splits, 1u) << "a tuning run's measurement is unsplit";
  }
  const detail::TileCandidate c = detail::nearest_measurement(measured, near, 132);
  const detail::SplitK split = detail::best_split(c, near, 132);
  EXPECT_EQ(c.tuned_split.splits, 6u);
  EXPECT_EQ(c.tuned_split.split_tiles, 21u);
  EXPECT_EQ(split.splits, 6u);
  EXPECT_NEAR(detail::predicted_seconds(c, near, 132, split), 23.49e-6, 1e-12);
  // Unsplit, the model expects the two waves of whole tiles to take longer than that.
  EXPECT_GT(detail::predicted_seconds(c, near, 132), 1.2 * 23.49e-6);
  // A measurement at a far shape changes nothing at the tuned one.
  EXPECT_NEAR(detail::predicted_seconds(detail::nearest_measurement(measured, kTuned, 132), kTuned, 132),
              gemm_flops(kTuned) / 26715e9, 1e-12);
}

// The built-in sm_90 medium entry with its points at 384³, 387³ and 516³ (fourteenth and
// fifteenth sessions, H200, `clgemm tune --try` medians in µs with the planner's splits;
// scripts/gpu/configs/medium-points-14.txt, medium-points-15.txt, medium-picks-15.txt): 360³-396³
// 36×36 in 4 slices (387³ 16.4 against 19.6 for 32×64 and 20.9 for 48×48; 384³ 14.8 against 16.1;
// 360³ 14.3 against 15.6); 400³-576³ 32×64 (400³ 16.6 against 18.3 for 36×36; 512³ 19.4, 576³
// 24.3); 516³ 48×48 in 4 slices (22.2 against 23.5); 640³ 64×128 split (32.7 against 42.9 for
// 64×64). From 774³ on, the 1024³ measurements as before.
// Deep K and one short side of C: the points measured there (data/tuning/nvidia-h200.json) pick
// the tiles, and the cubes' points do not stand in for them (nearest in form, not only in work).
TEST(TileChoice, BuiltInH200EntriesPickDeepKAndShortSidesFromTheirPoints) {
  const ScopedDatabase no_user_entries;
  const DeviceInfo h200 = fake_h200();
  const auto tile = [&](size_t m, size_t n, size_t k) {
    const GemmPlan p = plan_gemm(h200, m, n, k);
    return std::to_string(p.params.at("MWG")) + "x" + std::to_string(p.params.at("NWG"));
  };
  EXPECT_EQ(tile(100, 100, 100000), "32x128");
  EXPECT_EQ(tile(128, 128, 32768), "32x128");
  EXPECT_EQ(tile(4096, 64, 4096), "32x64");
  EXPECT_EQ(tile(32, 4096, 4096), "32x128");
  EXPECT_EQ(tile(1000, 1000, 1000), "64x128") << "a cube is predicted from the cubes";
  const GemmPlan deep = plan_gemm(h200, 100, 100, 100000);
  EXPECT_NE(deep.source.find("predicted from its measurement at 100x100x100000"), std::string::npos) << deep.source;
}

TEST(TileChoice, BuiltInH200MediumEntryPicksFromItsNearestMeasurements) {
  const ScopedDatabase no_user_entries;  // the built-in database alone
  const DeviceInfo h200 = fake_h200();
  using Tile = std::pair<long, long>;
  const auto tile_of = [&](size_t n) {
    const GemmPlan p = plan_gemm(h200, n, n, n);
    EXPECT_EQ(p.path, GemmPath::Packed) << n;
    return std::make_pair(Tile(p.params.at("MWG"), p.params.at("NWG")), p);
  };
  for (size_t n : {400, 448, 512, 576}) EXPECT_EQ(tile_of(n).first, Tile(32, 64)) << n << "³";
  for (size_t n : {360, 384, 387, 396}) EXPECT_EQ(tile_of(n).first, Tile(36, 36)) << n << "³";
  EXPECT_EQ(tile_of(516).first, Tile(48, 48));
  const GemmPlan p387 = tile_of(387).second;
  EXPECT_NE(p387.source.find("predicted from its measurement at 387x387x387"), std::string::npos) << p387.source;
  const auto [tile640, plan640] = tile_of(640);
  EXPECT_EQ(tile640, Tile(64, 128));
  EXPECT_GE(plan640.splits, 2u) << plan640.describe();
  const GemmPlan p516 = tile_of(516).second;
  EXPECT_EQ(p516.params.at("KSLICE"), 4);
  EXPECT_NE(p516.source.find("predicted from its measurement at 516x516x516"), std::string::npos) << p516.source;
  for (size_t n : {1024, 1032}) {
    const auto [tile, plan] = tile_of(n);
    EXPECT_EQ(tile, Tile(64, 128)) << n << "³";
    EXPECT_EQ(plan.source.find("predicted from its measurement"), std::string::npos) << plan.source;
  }
}

}  // namespace
}  // namespace clgemm::test
