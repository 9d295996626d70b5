// wgmma_tuning_test.cpp — the wgmma kernel in the tuning database and the tuner: its entries kept
// beside xmma's of the same class and precision, the planner reading an entry only for its own
// class and precision (single products, one term), the tuner's targets on a Hopper card that
// builds patched PTX, and on such a card (skipped elsewhere) a search with a tiny budget giving a
// correct entry that the planner then uses.
#include <clgemm/error.hpp>
#include <clgemm/gemm.hpp>

#include "database/database.hpp"
#include "test_support.hpp"
#include "tune/tuner.hpp"

#include <algorithm>

namespace clgemm::test {
namespace {

// A Hopper card whose driver builds patched PTX, under a name no built-in entry has (the built-in
// database holds no wgmma entries for its architecture, sm_90).
DeviceInfo patched_hopper() {
  DeviceInfo d = fake_h200_for_wgmma();
  const std::string tag = std::to_string(fresh_seed());
  d.name = "NVIDIA test hopper " + tag;
  return d;
}

detail::TuningEntry entry(const DeviceInfo& dev, const std::string& kernel, DataType precision, KernelParams params) {
  detail::TuningEntry e;
  e.device = dev.name, e.architecture = dev.architecture, e.vendor = dev.vendor, e.device_type = dev.kind_name();
  e.shape_class = "large", e.kernel = kernel, e.precision = precision, e.params = std::move(params);
  e.shape = {4096, 4096, 4096}, e.gflops = 500000, e.date = "2026-11-27";
  return e;
}

GemmOptions with_math(Math math) {
  GemmOptions o;
  o.math = math;
  return o;
}

TEST(WgmmaTuning, EntriesLiveBesideXmmaOnesOfTheirClassAndPrecision) {
  const DeviceInfo dev = patched_hopper();
  detail::TuningDatabase db;
  db.upsert(entry(dev, "xmma", DataType::F32, {{"BK", 8}}));
  db.upsert(entry(dev, "wgmma", DataType::F32, {{"GROUP_M", 4}}));
  ASSERT_EQ(db.entries.size(), 2u) << "a wgmma entry must not replace the xmma one";
  db.upsert(entry(dev, "wgmma", DataType::F32, {{"GROUP_M", 16}}));  // replaces the wgmma entry only
  db.upsert(entry(dev, "wgmma", DataType::F16, {{"GROUP_M", 4}}));   // another precision: its own
  ASSERT_EQ(db.entries.size(), 3u);
  const auto back = detail::TuningDatabase::parse(db.dump());
  ASSERT_EQ(back.entries.size(), 3u) << (back.skipped.empty() ? "" : back.skipped.front());
  EXPECT_EQ(back.entries[1].kernel, "wgmma");
  EXPECT_TRUE(detail::is_tensor_entry(back.entries[1]));
  EXPECT_EQ(back.entries[1].params.at("GROUP_M"), 16);
  EXPECT_EQ(back.entries[2].precision, DataType::F16);
}

TEST(WgmmaTuning, ThePlannerTakesTheEntryOfTheCallsOwnClassAndPrecision) {
  ScopedDatabase scoped;
  const DeviceInfo dev = patched_hopper();
  detail::TuningDatabase db;
  db.upsert(entry(dev, "wgmma", DataType::F16, {{"BK", 32}, {"STAGES", 2}, {"GROUP_M", 4}}));
  // STAGES is a parameter of xmma too: its path would take this entry if it read wgmma's.
  db.upsert(entry(dev, "wgmma", DataType::F32, {{"STAGES", 2}}));
  scoped.store(db);

  const GemmPlan f16 = plan_gemm(dev, 4096, 4096, 4096, {}, DataType::F16);
  ASSERT_EQ(f16.path, GemmPath::Wgmma);
  EXPECT_EQ(f16.params.at("GROUP_M"), 4);
  EXPECT_EQ(f16.params.at("STAGES"), 2);
  EXPECT_NE(f16.source.find("user database"), std::string::npos) << f16.source;
  // TF32 reads the f32 entry, with one term whatever the entry holds.
  const GemmPlan tf32 = plan_gemm(dev, 4096, 4096, 4096, with_math(Math::Tf32), DataType::F32);
  ASSERT_EQ(tf32.path, GemmPath::Wgmma);
  EXPECT_EQ(tf32.params.at("STAGES"), 2);
  EXPECT_EQ(tf32.params.at("TERMS"), 1);

  // A batch of items too large for the batched class plans as one item: the entry serves it.
  EXPECT_EQ(plan_gemm(dev, 4096, 4096, 4096, {}, DataType::F16, 2).params.at("GROUP_M"), 4);
  // Not for another precision, another class, a batch of small items, 3xTF32 or a caller's own
  // parameters: the rules (wgmma_tiles) and the descriptor's defaults serve those.
  const auto rules = [&](size_t m, size_t n, size_t k, GemmOptions o, DataType t, size_t batch = 1) {
    const GemmPlan p = plan_gemm(dev, m, n, k, o, t, batch);
    EXPECT_EQ(p.path, GemmPath::Wgmma);
    EXPECT_EQ(p.source.find("database"), std::string::npos) << p.source;
    return p.params;
  };
  EXPECT_EQ(rules(4096, 4096, 4096, {}, DataType::BF16).at("GROUP_M"), 16) << "the 16-bit rule's bands";
  EXPECT_EQ(rules(1024, 1024, 1024, {}, DataType::F16).at("BM"), 64) << "medium keeps the small-tile rule";
  EXPECT_EQ(rules(256, 256, 256, {}, DataType::F16, 256).at("BN"), 128) << "the batch rule's 64×128 tiles";
  const KernelParams three = rules(4096, 4096, 4096, with_math(Math::Tf32x3), DataType::F32);
  EXPECT_EQ(three.at("TERMS"), 3);
  EXPECT_EQ(three.at("GROUP_M"), 8);
  GemmOptions forced;
  forced.force_path = GemmPath::Wgmma;
  forced.force_params = {{"STAGES", 2}};
  const KernelParams own = rules(4096, 4096, 4096, forced, DataType::F16);
  EXPECT_EQ(own.at("STAGES"), 2);
  EXPECT_EQ(own.at("GROUP_M"), 8);

  // The mma.sync tensor path never reads a wgmma entry (the user database holds nothing else).
  DeviceInfo unpatched = dev;
  unpatched.sm90a_patching = false;
  GemmOptions tensor = with_math(Math::Tf32x3);
  tensor.force_path = GemmPath::Tensor;
  const GemmPlan xmma = plan_gemm(unpatched, 4096, 4096, 4096, tensor, DataType::F32);
  ASSERT_EQ(xmma.path, GemmPath::Tensor);
  EXPECT_EQ(xmma.source.find("user database"), std::string::npos) << xmma.source;
}

TEST(WgmmaTuning, AnEntryThisDeviceCannotRunLeavesTheRules) {
  ScopedDatabase scoped;
  const DeviceInfo dev = patched_hopper();
  detail::TuningDatabase db;
  // Five slices of 256 + 128 rows of 128 bytes: past the 227 KiB of static local memory an H200
  // gives a work-group.
  db.upsert(entry(dev, "wgmma", DataType::F16, {{"BN", 256}, {"BK", 64}, {"STAGES", 5}}));
  scoped.store(db);
  const GemmPlan p = plan_gemm(dev, 4096, 4096, 4096, {}, DataType::F16);
  EXPECT_EQ(p.path, GemmPath::Wgmma);
  EXPECT_EQ(p.params.at("BN"), 128);
  EXPECT_EQ(p.source.find("database"), std::string::npos) << p.source;
}

TEST(WgmmaTuning, TargetsOnAPatchedHopperAreTheWgmmaKernel) {
  const DeviceInfo dev = patched_hopper();
  const auto targets = detail::default_targets(dev, 100, {}, true);
  ASSERT_EQ(targets.size(), 2u);
  for (const auto& t : targets) {
    EXPECT_EQ(t.kernel, "wgmma");
    EXPECT_TRUE(t.shape_class == "mid" || t.shape_class == "large") << t.shape_class;
  }
  DeviceInfo unpatched = dev;
  unpatched.sm90a_patching = false;
  for (const auto& t : detail::default_targets(unpatched, 100, {}, true)) EXPECT_EQ(t.kernel, "xmma");
}

// ---- on a device that builds wgmma --------------------------------------------------------------

TEST(WgmmaTuning, TinyBudgetGivesACorrectEntryThatThePlannerUses) {
  Context& ctx = shared_context();
  const DeviceInfo device = planning_device(ctx.info());
  if (!device.sm90a_patching) GTEST_SKIP() << "needs a Hopper card whose driver builds patched PTX";
  ScopedDatabase scoped;
  for (const DataType type : {DataType::F16, DataType::F32}) {
    detail::Tuner tuner(ctx, fresh_seed(), type);
    // A ragged shape: every candidate's result is checked against float64 before it is timed.
    const detail::TuneResult r = tuner.tune({"large", {1100, 1000, 1030}, "wgmma", 0.01});
    ASSERT_TRUE(r.found) << (r.failure_notes.empty() ? "" : r.failure_notes.front());
    EXPECT_GT(r.best_gflops, 0);
    EXPECT_GE(r.best_gflops, r.rule_gflops) << "the planner's own tiles were measured too";
    EXPECT_EQ(r.best.at("TERMS"), 1);
    std::string warning;
    detail::TuningDatabase db = detail::load_database(scoped.path(), &warning);
    db.upsert(detail::entry_for(device, r, type));
    scoped.store(db);
    const GemmPlan plan = plan_gemm(device, 4096, 4096, 4096, with_math(Math::Tf32), type);
    ASSERT_EQ(plan.path, GemmPath::Wgmma);
    EXPECT_NE(plan.source.find("user database"), std::string::npos) << plan.source;
    // The entry's configuration, or an alternative the load-balance model predicts faster here.
    std::vector<KernelParams> kept = {r.best};
    for (const auto& runner_up : r.runners_up) kept.push_back(runner_up.second);
    const auto same = [&](const KernelParams& ps) {
      for (const char* name : {"BM", "BN", "WM", "BK", "STAGES", "GROUP_M"})
        if (plan.params.at(name) != ps.at(name)) return false;
      return true;
    };
    EXPECT_TRUE(std::any_of(kept.begin(), kept.end(), same)) << plan.source;
  }
}

}  // namespace
}  // namespace clgemm::test
