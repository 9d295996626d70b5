// tile_choice_test.cpp — the load-balance model that picks among a tuned entry's alternatives,
// and the planner using it.
#include <clgemm/gemm.hpp>

#include "gemm/tile_choice.hpp"
#include "tune/database.hpp"
#include "test_support.hpp"

#include <cstdlib>
#include <filesystem>

namespace clgemm::test {
namespace {

// Measured on the H200 (132 SMs) at 1024³ (docs/tuning.md): 64×128 tiles at 32.5 TFLOP/s, 32×64
// tiles at 26.7. At 1024³ the big tile wins; at 1032³ it needs 153 blocks for 132 SMs, and the
// small tile (561 blocks) wins: measured 19.2 against 22.1 TFLOP/s.
const detail::TileCandidate kBig{64, 128, 16, 32451}, kSmall{32, 64, 32, 26715};
const GemmShape kTuned{1024, 1024, 1024};

TEST(TileChoice, PredictsTheMeasuredTimeAtTheTunedShape) {
  const double t = detail::predicted_seconds(kBig, kTuned, kTuned, 132);
  EXPECT_NEAR(t, gemm_flops(kTuned) / 32451e9, 1e-12);
}

TEST(TileChoice, PrefersTheTileThatSpreadsEvenly) {
  EXPECT_EQ(detail::pick_tile({kBig, kSmall}, kTuned, kTuned, 132), 0u);
  EXPECT_EQ(detail::pick_tile({kBig, kSmall}, kTuned, {1032, 1032, 1032}, 132), 1u);
  EXPECT_EQ(detail::pick_tile({kSmall, kBig}, kTuned, {1032, 1032, 1032}, 132), 0u) << "order does not matter";
  // The model's error at 1032³ against the measurements: within 15 %.
  EXPECT_NEAR(detail::predicted_seconds(kBig, kTuned, {1032, 1032, 1032}, 132), 0.114e-3, 0.15 * 0.114e-3);
  EXPECT_NEAR(detail::predicted_seconds(kSmall, kTuned, {1032, 1032, 1032}, 132), 0.100e-3, 0.15 * 0.100e-3);
  // Fewer blocks than compute units: a block takes no less time than it did among others.
  EXPECT_NEAR(detail::predicted_seconds(kBig, kTuned, {512, 512, 1024}, 132),
              detail::predicted_seconds(kBig, kTuned, kTuned, 132), 1e-12);
  // More K costs proportionally more; K rounds up to the tile's depth.
  const double t1 = detail::predicted_seconds(kBig, kTuned, {1024, 1024, 2048}, 132);
  EXPECT_NEAR(t1, 2 * detail::predicted_seconds(kBig, kTuned, kTuned, 132), 1e-12);
  EXPECT_GT(detail::predicted_seconds(kBig, kTuned, {1024, 1024, 1025}, 132),
            detail::predicted_seconds(kBig, kTuned, kTuned, 132) * 1.01);
}

TEST(TileChoice, PlannerPicksAnAlternativeWhereItSpreadsBetter) {
  namespace fs = std::filesystem;
  const std::string path = (fs::temp_directory_path() / ("clgemm-tile-" + std::to_string(fresh_seed()) + ".json")).string();
  setenv("CLGEMM_TUNING_DB", path.c_str(), 1);
  detail::reload_user_database();
  DeviceInfo dev = shared_context().info();
  dev.name = "tile choice device " + std::to_string(fresh_seed());
  dev.compute_units = 132;
  detail::TuningEntry e;
  e.device = dev.name, e.architecture = "", e.vendor = "v", e.device_type = dev.kind_name();
  e.shape_class = "medium", e.kernel = "xgemm", e.shape = kTuned, e.gflops = kBig.gflops, e.date = "2026-11-22";
  e.params = {{"MWG", 64}, {"NWG", 128}, {"KWG", 16}, {"MDIMC", 8}, {"NDIMC", 16}, {"VWM", 4}, {"VWN", 4}};
  e.alternatives = {{{{"MWG", 32}, {"NWG", 64}, {"KWG", 32}, {"MDIMC", 8}, {"NDIMC", 16}, {"VWM", 4}, {"VWN", 4}},
                     kSmall.gflops}};
  detail::TuningDatabase db;
  db.upsert(e);
  detail::save_database(db, path);
  detail::reload_user_database();
  const GemmPlan even = plan_gemm(dev, 1024, 1024, 1024);
  const GemmPlan odd = plan_gemm(dev, 1032, 1032, 1032);
  unsetenv("CLGEMM_TUNING_DB");
  detail::reload_user_database();
  fs::remove(path);
  EXPECT_EQ(even.params.at("MWG"), 64) << even.describe();
  EXPECT_EQ(odd.params.at("MWG"), 32) << odd.describe();
  EXPECT_NE(odd.source.find("alternative 1"), std::string::npos) << odd.source;
  // The alternatives survive a round trip through the file format.
  const auto back = detail::TuningDatabase::parse(db.dump());
  ASSERT_EQ(back.entries.size(), 1u);
  ASSERT_EQ(back.entries[0].alternatives.size(), 1u);
  EXPECT_EQ(back.entries[0].alternatives[0].params.at("MWG"), 32);
  EXPECT_DOUBLE_EQ(back.entries[0].alternatives[0].gflops, kSmall.gflops);
}

}  // namespace
}  // namespace clgemm::test
