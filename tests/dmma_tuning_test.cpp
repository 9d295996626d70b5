// dmma_tuning_test.cpp — the FP64 tensor-core kernel (dmma) in the tuning database and the tuner:
// the planner reading a dmma entry only for f64 calls of its own class, the tuner's targets for
// f64 on the tensor path, and on a device that has the path (NVIDIA sm_80+; skipped elsewhere) a
// search with a tiny budget giving a correct entry that the planner then uses.
#include <clgemm/error.hpp>
#include <clgemm/gemm.hpp>

#include "database/database.hpp"
#include "kernels/gemm/dmma/dmma_kernel.hpp"
#include "kernels/gemm/wgmma/wgmma_kernel.hpp"
#include "kernels/gemm/xgemm/xgemm_kernel.hpp"
#include "test_support.hpp"
#include "tune/tuner.hpp"

#include <algorithm>

namespace clgemm::test {
namespace {

TEST(DmmaTuning, ThePlannerTakesTheEntryForF64CallsOfItsClass) {
  ScopedDatabase scoped;
  DeviceInfo dev = fake_h200();
  dev.name = "NVIDIA test dmma " + std::to_string(fresh_seed());
  detail::TuningEntry e;
  e.device = dev.name, e.architecture = dev.architecture, e.vendor = dev.vendor, e.device_type = dev.kind_name();
  e.shape_class = "large", e.kernel = "dmma", e.precision = DataType::F64;
  e.params = {{"BN", 128}, {"STAGES", 2}};
  e.shape = {4096, 4096, 4096}, e.gflops = 38000, e.date = "2026-11-27";
  detail::TuningDatabase db;
  db.upsert(e);
  ASSERT_TRUE(detail::is_tensor_entry(db.entries.front()));
  const auto back = detail::TuningDatabase::parse(db.dump());
  ASSERT_EQ(back.entries.size(), 1u) << (back.skipped.empty() ? "" : back.skipped.front());
  EXPECT_EQ(back.entries.front().kernel, "dmma");
  scoped.store(db);

  const GemmPlan tuned = plan_gemm(dev, 4096, 4096, 4096, {}, DataType::F64);
  ASSERT_EQ(tuned.path, GemmPath::Tensor);
  EXPECT_EQ(tuned.params.at("BN"), 128);
  EXPECT_EQ(tuned.params.at("STAGES"), 2);
  EXPECT_EQ(tuned.params.at("PRECISION"), 64);
  EXPECT_NE(tuned.source.find("user database"), std::string::npos) << tuned.source;
  // Another class keeps the rule (no borrowing), and so do a caller's own parameters.
  const GemmPlan medium = plan_gemm(dev, 1024, 1024, 1024, {}, DataType::F64);
  ASSERT_EQ(medium.path, GemmPath::Tensor);
  EXPECT_EQ(medium.source.find("database"), std::string::npos) << medium.source;
  EXPECT_EQ(medium.params.at("BM"), 64) << "fewer 128×64 tiles than compute units";
  GemmOptions forced;
  forced.force_path = GemmPath::Tensor;
  forced.force_params = {{"STAGES", 2}};
  const GemmPlan own = plan_gemm(dev, 4096, 4096, 4096, forced, DataType::F64);
  EXPECT_EQ(own.params.at("STAGES"), 2);
  EXPECT_EQ(own.params.at("BN"), 64);
}

TEST(DmmaTuning, F64TargetsOnTheTensorPathAreTheDmmaKernel) {
  DeviceInfo dev = fake_h200();
  for (const bool patched : {false, true}) {
    dev.sm90a_patching = patched;
    const auto targets = detail::default_targets(dev, 100, {}, true, DataType::F64);
    ASSERT_EQ(targets.size(), 2u);
    for (const auto& t : targets) EXPECT_EQ(t.kernel, "dmma");
  }
}

TEST(DmmaTuning, TheTunerMeasuresThePlannersRuleOfEachTensorKernel) {
  const DeviceInfo dev = fake_h200_for_wgmma();
  const GemmShape big{4096, 4096, 4096};
  const auto dmma = detail::tensor_rule_params(detail::dmma_descriptor(), dev, big, DataType::F64);
  ASSERT_TRUE(dmma.has_value());
  EXPECT_EQ(*dmma, plan_gemm(dev, 4096, 4096, 4096, {}, DataType::F64).params);
  // wgmma: the tiles the planner gives 16-bit calls (one warpgroup per tile at 4097³) and TF32.
  const auto one = detail::tensor_rule_params(detail::wgmma_descriptor(), dev, {4097, 4097, 4097}, DataType::F16);
  ASSERT_TRUE(one.has_value());
  EXPECT_EQ(one->at("WM"), 128);
  const auto tf32 = detail::tensor_rule_params(detail::wgmma_descriptor(), dev, {1024, 1024, 1024}, DataType::F32);
  ASSERT_TRUE(tf32.has_value());
  EXPECT_EQ(tf32->at("BM"), 64) << "fewer 128×128 tiles than SMs";
  EXPECT_FALSE(detail::tensor_rule_params(detail::xgemm_descriptor(), dev, big, DataType::F32).has_value());
}

// ---- on a device that has the tensor path --------------------------------------------------------

TEST(DmmaTuning, TinyBudgetGivesACorrectEntryThatThePlannerUses) {
  Context& ctx = shared_context();
  if (!tensor_path_available(ctx.info()) || !ctx.info().fp64) GTEST_SKIP() << "needs an NVIDIA GPU, sm_80 or newer";
  ScopedDatabase scoped;
  detail::Tuner tuner(ctx, fresh_seed(), DataType::F64);
  // A ragged shape: every candidate's result is checked against float64 before it is timed.
  const detail::TuneResult r = tuner.tune({"large", {1100, 1000, 1030}, "dmma", 0.01});
  ASSERT_TRUE(r.found) << (r.failure_notes.empty() ? "" : r.failure_notes.front());
  EXPECT_GT(r.best_gflops, 0);
  // The planner's own tiles for the shape were measured too, and the entry is no slower.
  EXPECT_GT(r.rule_gflops, 0);
  EXPECT_GE(r.best_gflops, r.rule_gflops);
  detail::TuningDatabase db;
  db.upsert(detail::entry_for(ctx.info(), r, DataType::F64));
  scoped.store(db);
  const GemmPlan plan = plan_gemm(ctx.info(), 4096, 4096, 4096, {}, DataType::F64);
  ASSERT_EQ(plan.path, GemmPath::Tensor);
  EXPECT_NE(plan.source.find("user database"), std::string::npos) << plan.source;
  // The entry's configuration, or an alternative the load-balance model predicts faster here.
  std::vector<KernelParams> kept = {r.best};
  for (const auto& runner_up : r.runners_up) kept.push_back(runner_up.second);
  const auto same = [&](const KernelParams& ps) {
    for (const char* name : {"BM", "BN", "BK", "WM", "WN", "STAGES", "MMA_K"})
      if (plan.params.at(name) != ps.at(name)) return false;
    return true;
  };
  EXPECT_TRUE(std::any_of(kept.begin(), kept.end(), same)) << plan.source;
}

}  // namespace
}  // namespace clgemm::test
