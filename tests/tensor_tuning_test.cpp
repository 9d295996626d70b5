// tensor_tuning_test.cpp — the tensor path in the tuning database and the tuner: its entries
// (kernel "xmma") kept apart from the float32 ones of the same class, the planner reading them
// only for calls that ask for tensor-core arithmetic (with FK and TERMS set by the math, whatever
// the entry holds), the tuner's targets for it, and on a device that has the path (NVIDIA sm_80+;
// skipped elsewhere) a search with a tiny budget giving a valid, correct entry.
#include <clgemm/error.hpp>
#include <clgemm/gemm.hpp>

#include "kernels/gemm/xmma/xmma_kernel.hpp"
#include "test_support.hpp"
#include "database/database.hpp"
#include "tune/tuner.hpp"

namespace clgemm::test {
namespace {

detail::TuningEntry tensor_entry(const DeviceInfo& dev, const std::string& cls, KernelParams params,
                                 GemmShape shape = {4096, 4096, 4096}) {
  detail::TuningEntry e;
  e.device = dev.name, e.architecture = dev.architecture, e.vendor = dev.vendor, e.device_type = dev.kind_name();
  e.shape_class = cls, e.kernel = "xmma", e.params = std::move(params);
  e.shape = shape, e.gflops = 55000, e.date = "2026-11-22";
  return e;
}

detail::TuningEntry float32_entry(const DeviceInfo& dev, const std::string& cls, KernelParams params) {
  detail::TuningEntry e = tensor_entry(dev, cls, std::move(params));
  e.kernel = "xgemm", e.gflops = 48000;
  return e;
}

GemmOptions with_math(Math math) {
  GemmOptions o;
  o.math = math;
  return o;
}

TEST(TensorTuning, EntriesAreKeptApartFromTheFloat32OnesOfTheirClass) {
  ScopedDatabase scoped;
  // Names the built-in database does not know, at any level.
  DeviceInfo dev = fake_h200();
  const std::string tag = std::to_string(fresh_seed());
  dev.name = "test device " + tag, dev.architecture = "test-arch-" + tag, dev.vendor = "test vendor " + tag;
  detail::TuningDatabase db;
  db.upsert(float32_entry(dev, "large", {{"MWG", 64}}));
  db.upsert(tensor_entry(dev, "large", {{"BK", 32}}));
  ASSERT_EQ(db.entries.size(), 2u) << "a tensor entry must not replace the float32 one";
  db.upsert(tensor_entry(dev, "large", {{"BK", 8}}));  // replaces the tensor entry only
  ASSERT_EQ(db.entries.size(), 2u);

  // Through the file and back.
  const auto back = detail::TuningDatabase::parse(db.dump());
  ASSERT_EQ(back.entries.size(), 2u);
  EXPECT_TRUE(detail::is_tensor_entry(back.entries[1]));
  EXPECT_EQ(back.entries[1].params.at("BK"), 8);

  scoped.store(db);
  const auto float32 = detail::find_tuning(dev, "large");
  ASSERT_TRUE(float32.has_value());
  EXPECT_EQ(float32->entry.kernel, "xgemm");
  EXPECT_EQ(float32->entry.params.at("MWG"), 64);
  const auto tensor = detail::find_tuning(dev, "large", true);
  ASSERT_TRUE(tensor.has_value());
  EXPECT_EQ(tensor->entry.kernel, "xmma");
  EXPECT_EQ(tensor->entry.params.at("BK"), 8);
  EXPECT_FALSE(detail::find_tuning(dev, "mid", true).has_value());
}

TEST(TensorTuning, ThePlannerReadsTheTensorEntryOnlyForTensorMath) {
  ScopedDatabase scoped;
  const DeviceInfo h200 = fake_h200();
  detail::TuningDatabase db;
  // FK 0 and TERMS 1 in the entry: the math asked for must override both (they set accuracy).
  db.upsert(tensor_entry(h200, "large", {{"BK", 8}, {"STAGES", 3}, {"FK", 0}, {"TERMS", 1}}));
  scoped.store(db);

  const GemmPlan x3 = plan_gemm(h200, 4096, 4096, 4096, with_math(Math::Tf32x3));
  ASSERT_EQ(x3.path, GemmPath::Tensor);
  EXPECT_EQ(x3.params.at("BK"), 8);
  EXPECT_EQ(x3.params.at("STAGES"), 3);
  EXPECT_EQ(x3.params.at("FK"), 1);
  EXPECT_EQ(x3.params.at("TERMS"), 3);
  EXPECT_NE(x3.source.find("user database"), std::string::npos) << x3.source;

  const GemmPlan tf32 = plan_gemm(h200, 4096, 4096, 4096, with_math(Math::Tf32));
  ASSERT_EQ(tf32.path, GemmPath::Tensor);
  EXPECT_EQ(tf32.params.at("BK"), 8);
  EXPECT_EQ(tf32.params.at("FK"), 0);
  EXPECT_EQ(tf32.params.at("TERMS"), 1);

  // A mid call reads the mid entry (the built-in one: the user's database has none), not the
  // large one; a float32 call never sees either.
  const GemmPlan mid = plan_gemm(h200, 2048, 2048, 2048, with_math(Math::Tf32x3));
  ASSERT_EQ(mid.path, GemmPath::Tensor);
  EXPECT_NE(mid.source.find("built-in database"), std::string::npos) << mid.source;
  const GemmPlan fp32 = plan_gemm(h200, 4096, 4096, 4096);
  EXPECT_NE(fp32.path, GemmPath::Tensor);
  EXPECT_EQ(fp32.params.count("BK"), 0u) << fp32.describe();

  // The caller's overrides still come before any entry.
  GemmOptions forced = with_math(Math::Tf32x3);
  forced.force_path = GemmPath::Tensor;
  forced.force_params = {{"WM", 32}};
  const GemmPlan own = plan_gemm(h200, 4096, 4096, 4096, forced);
  EXPECT_EQ(own.params.at("WM"), 32);
  EXPECT_EQ(own.params.at("BK"), 16);  // the kernel's default, not the entry's 8

  // An entry that does not fit the device (tuned where local memory is larger): the defaults.
  db.upsert(tensor_entry(h200, "large", {{"BK", 32}, {"STAGES", 4}}));
  scoped.store(db);
  const GemmPlan misfit = plan_gemm(h200, 4096, 4096, 4096, with_math(Math::Tf32x3));
  ASSERT_EQ(misfit.path, GemmPath::Tensor);
  EXPECT_EQ(misfit.params.at("BK"), 16);
  EXPECT_NE(misfit.source.find("defaults"), std::string::npos) << misfit.source;
}

// Where the entry's tiles would leave compute units idle, an alternative with smaller tiles is
// taken (the load-balance model of tile_choice.hpp, with the work-groups an SM holds at once);
// where none fills them as well as the float32 path's tiles do, the call stays in float32.
TEST(TensorTuning, TilesAndPathFollowTheLoadBalanceModel) {
  ScopedDatabase scoped;
  const DeviceInfo h200 = fake_h200();
  detail::TuningEntry e = tensor_entry(h200, "large", {{"STAGES", 3}, {"BK", 8}});
  // A runner-up, as the tuner stores one: slower than the entry at the shape both were measured on.
  e.alternatives.push_back({{{"BM", 64}, {"STAGES", 4}, {"BK", 8}}, 54000, {}});
  detail::TuningDatabase db;
  db.upsert(e);
  scoped.store(db);

  // 4096³: 1024 tiles of 128×128, two per SM, fill four rounds of 264 places to 97 %.
  const GemmPlan square = plan_gemm(h200, 4096, 4096, 4096, with_math(Math::Tf32x3));
  ASSERT_EQ(square.path, GemmPath::Tensor);
  EXPECT_EQ(square.params.at("BM"), 128);
  EXPECT_NE(square.reason.find("against"), std::string::npos) << "the two predictions: " << square.reason;
  // 2868³: 529 such tiles need a third round for one tile; 1035 of 64×128, four per SM, fill two
  // rounds of 528 places to 98 %.
  const GemmPlan ragged = plan_gemm(h200, 2868, 2868, 2868, with_math(Math::Tf32x3));
  ASSERT_EQ(ragged.path, GemmPath::Tensor) << ragged.describe();
  EXPECT_EQ(ragged.params.at("BM"), 64);
  EXPECT_NE(ragged.source.find("alternative 1"), std::string::npos) << ragged.source;
  // 1024×1024×8192: 64 or 128 long tiles for 264 or 528 places; the float32 path wins there
  // (measured 0.55×), and the reason says why it was not taken.
  const GemmPlan thin = plan_gemm(h200, 1024, 1024, 8192, with_math(Math::Tf32x3));
  EXPECT_NE(thin.path, GemmPath::Tensor) << thin.describe();
  EXPECT_NE(thin.reason.find("load-balance model"), std::string::npos) << thin.reason;
}

TEST(TensorTuning, TargetsAreTheMidAndLargeClassesOnTheXmmaKernel) {
  const DeviceInfo h200 = fake_h200();
  const auto targets = detail::default_targets(h200, 100, {}, true);
  ASSERT_EQ(targets.size(), 2u);
  double sum = 0;
  for (const auto& t : targets) {
    EXPECT_EQ(t.kernel, "xmma");
    EXPECT_TRUE(t.shape_class == "mid" || t.shape_class == "large") << t.shape_class;
    EXPECT_EQ(detail::shape_class(h200.kind, t.shape.m, t.shape.n, t.shape.k), t.shape_class);
    sum += t.budget_s;
  }
  EXPECT_NEAR(sum, 100, 1e-9);
  const auto large = detail::default_targets(h200, 10, {"large"}, true);
  ASSERT_EQ(large.size(), 1u);
  EXPECT_EQ(large[0].kernel, "xmma");
  EXPECT_NEAR(large[0].budget_s, 10, 1e-9);
  for (const auto& t : detail::default_targets(h200, 100, {}))
    EXPECT_NE(t.kernel, "xmma") << "a float32 tuning run must not tune the tensor path";
}

// How many work-groups an SM holds at once, and how much faster one runs alone, for the
// load-balance model: registers decide (65 536 per SM on the H200).
TEST(TensorTuning, ResidentWorkGroupsFollowTheRegisterFile) {
  const DeviceInfo h200 = fake_h200();
  const auto& d = detail::xmma_descriptor();
  const auto resident = [&](KernelParams ps) { return d.resident(detail::resolve_params(d, h200, ps), h200); };
  EXPECT_EQ(resident({}), 2u);                                  // 128×128, 4 warps of 64×64
  EXPECT_EQ(resident({{"BN", 64}}), 4u);                        // 128×64, 2 warps of 64×64
  EXPECT_EQ(resident({{"WN", 32}, {"STAGES", 2}}), 1u);         // 128×128, 8 warps of 64×32
  // Alone on an SM: twice as fast where it would share it (at most 2), as fast where it would not.
  const auto alone = [&](KernelParams ps) { return d.alone(detail::resolve_params(d, h200, ps), h200); };
  EXPECT_EQ(alone({}), 2.0);
  EXPECT_EQ(alone({{"BN", 64}}), 2.0);
  EXPECT_EQ(alone({{"WN", 32}, {"STAGES", 2}}), 1.0);
}

// FK and TERMS decide how exact the result is: the search must never move them.
TEST(TensorTuning, TheSearchLeavesTheAccuracyParametersAlone) {
  for (const auto& spec : detail::xmma_descriptor().params)
    if (spec.name == "FK" || spec.name == "TERMS") EXPECT_TRUE(spec.values.empty()) << spec.name;
    else EXPECT_FALSE(spec.values.empty()) << spec.name;
}

// ---- on a device that has the path ------------------------------------------------------------

TEST(TensorTuning, TinyBudgetGivesAValidEntryThatThePlannerUses) {
  Context& ctx = shared_context();
  if (!tensor_path_available(ctx.info())) GTEST_SKIP() << "needs the tensor path (an NVIDIA GPU, sm_80 or newer)";
  ScopedDatabase scoped;
  detail::Tuner tuner(ctx, fresh_seed());
  // A ragged shape: every candidate's result is checked against float64 before it is timed.
  const detail::TuneTarget target{"large", {1100, 1000, 1030}, "xmma", 0.01};
  const detail::TuneResult r = tuner.tune(target);
  ASSERT_TRUE(r.found) << (r.failure_notes.empty() ? "" : r.failure_notes.front());
  EXPECT_GT(r.best_gflops, 0);
  EXPECT_EQ(r.best.at("TERMS"), 3);
  EXPECT_EQ(r.best.at("FK"), 1);

  detail::TuningDatabase db;
  db.upsert(detail::entry_for(ctx.info(), r));
  scoped.store(db);
  const auto found = detail::find_tuning(ctx.info(), "large", true);
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->entry.kernel, "xmma");
  // With the path forced, so that only the entry is in question: whether the path pays at a
  // shape is the model's call, which an entry measured on 72 tiles (each alone on an SM) makes
  // on thin ground.
  GemmOptions tensor = with_math(Math::Tf32x3);
  tensor.force_path = GemmPath::Tensor;
  const GemmPlan plan = plan_gemm(ctx.info(), 4096, 4096, 4096, tensor);
  EXPECT_EQ(plan.path, GemmPath::Tensor);
  EXPECT_NE(plan.source.find("user database"), std::string::npos) << plan.source;
  for (const char* name : {"BM", "BN", "BK", "WM", "WN", "STAGES"}) EXPECT_EQ(plan.params.at(name), r.best.at(name));

  // --try's route: TF32 (checked at TF32's tolerance) runs; a tile the constraints refuse does not.
  const auto measured = tuner.measure({300, 200, 100}, "xmma", {{{"TERMS", 1}, {"FK", 0}}, {{"BM", 96}}});
  ASSERT_EQ(measured.size(), 2u);
  EXPECT_EQ(measured[0].outcome, detail::Measurement::Ok) << measured[0].note;
  EXPECT_EQ(measured[1].outcome, detail::Measurement::Rejected);
}

}  // namespace
}  // namespace clgemm::test
