// tuning_test.cpp — the tuning database (format, lookup with fallbacks, corrupt files) and the
// tuner on this device with a tiny budget.
#include <clgemm/error.hpp>
#include <clgemm/gemm.hpp>

#include "kernels/gemm/xgemm/xgemm_kernel.hpp"
#include "tune/candidate_clock.hpp"
#include "database/database.hpp"
#include "tune/tuner.hpp"
#include "test_support.hpp"

#include <fstream>

namespace clgemm::test {
namespace {

detail::TuningEntry entry(const std::string& device, const std::string& arch, const std::string& vendor,
                          const std::string& type, const std::string& cls, KernelParams params) {
  detail::TuningEntry e;
  e.device = device, e.architecture = arch, e.vendor = vendor, e.device_type = type;
  e.shape_class = cls, e.kernel = "xgemm", e.params = std::move(params);
  e.shape = {64, 64, 64}, e.gflops = 1, e.date = "2026-11-22";
  return e;
}

TEST(TuningDatabase, ShapeClasses) {
  const auto gpu = DeviceKind::GPU, cpu = DeviceKind::CPU;
  EXPECT_EQ(detail::shape_class(gpu, 16, 4096, 4096), "skinny");
  EXPECT_EQ(detail::shape_class(gpu, 4096, 8, 4096), "skinny");
  EXPECT_EQ(detail::shape_class(gpu, 100, 100, 100), "small");
  EXPECT_EQ(detail::shape_class(gpu, 1024, 1024, 1024), "medium");
  EXPECT_EQ(detail::shape_class(gpu, 2048, 2048, 2048), "mid");
  EXPECT_EQ(detail::shape_class(gpu, 1536, 1536, 1536), "medium");
  EXPECT_EQ(detail::shape_class(gpu, 1700, 1700, 1700), "mid");
  EXPECT_EQ(detail::shape_class(gpu, 4096, 4096, 4096), "large");
  // CPUs: the same skinny and small classes, lower borders above them.
  EXPECT_EQ(detail::shape_class(cpu, 16, 1024, 1024), "skinny");
  EXPECT_EQ(detail::shape_class(cpu, 100, 100, 100), "small");
  EXPECT_EQ(detail::shape_class(cpu, 639, 640, 640), "medium");
  EXPECT_EQ(detail::shape_class(cpu, 640, 640, 640), "mid");
  EXPECT_EQ(detail::shape_class(cpu, 895, 896, 896), "mid");
  EXPECT_EQ(detail::shape_class(cpu, 896, 896, 896), "large");
  EXPECT_EQ(detail::shape_class(cpu, 1024, 1024, 1024), "large");
}

// Each class's entry is tuned on a shape the planner files under that same class, for GPUs and
// CPUs alike; otherwise a tuned entry would serve calls it was never measured on.
TEST(TuningDatabase, TuningShapesFallInTheirOwnClass) {
  for (const auto kind : {DeviceKind::GPU, DeviceKind::CPU}) {
    DeviceInfo dev;
    dev.kind = kind;
    const auto targets = detail::default_targets(dev, 100, {});
    ASSERT_FALSE(targets.empty());
    for (const auto& t : targets)
      EXPECT_EQ(detail::class_of(kind, t.shape), t.shape_class) << dev.kind_name() << " " << shape_text(t.shape);
  }
}

TEST(TuningDatabase, RoundTripAndRejectsBadFiles) {
  detail::TuningDatabase db;
  db.upsert(entry("devA", "sm_90", "NVIDIA Corporation", "GPU", "large", {{"MWG", 64}}));
  db.upsert(entry("devA", "sm_90", "NVIDIA Corporation", "GPU", "large", {{"MWG", 32}}));  // replaces
  db.upsert(entry("devA", "sm_90", "NVIDIA Corporation", "GPU", "small", {{"MWG", 16}}));
  ASSERT_EQ(db.entries.size(), 2u);
  const auto back = detail::TuningDatabase::parse(db.dump());
  ASSERT_EQ(back.entries.size(), 2u);
  EXPECT_EQ(back.entries[0].params.at("MWG"), 32);
  EXPECT_THROW(detail::TuningDatabase::parse("{not json"), Error);
  EXPECT_THROW(detail::TuningDatabase::parse(R"({"format": 99, "entries": []})"), Error);
  EXPECT_THROW(detail::TuningDatabase::parse(R"({"format": 1, "entries": {}})"), Error);
  // A bad entry costs only itself, and says why.
  const auto skipped = [](const std::string& entry) {
    const auto db = detail::TuningDatabase::parse(R"({"format": 1, "entries": [)" + entry +
                                                  R"(, {"device": "y", "shape_class": "small", "kernel": "xgemm", "params": {"MWG": 32}}]})");
    EXPECT_EQ(db.entries.size(), 1u) << entry;
    EXPECT_EQ(db.skipped.size(), 1u) << entry;
    return db.skipped.empty() ? std::string() : db.skipped[0];
  };
  EXPECT_NE(skipped(R"({"device": "x", "shape_class": "large", "kernel": "nope", "params": {}})").find("unknown kernel"),
            std::string::npos);
  EXPECT_NE(skipped(R"({"device": "x", "shape_class": "huge", "kernel": "xgemm", "params": {}})").find("unknown shape class"),
            std::string::npos);
  // Values that are no whole 32-bit number: 1e30 converted to a long is undefined (it read as LONG_MIN).
  for (const std::string value : {"1e30", "2.5", "\"64\"", "4294967296", "-4294967296", "true", "null"})
    EXPECT_NE(skipped(R"({"device": "x", "shape_class": "large", "kernel": "xgemm", "params": {"MWG": )" + value + "}}")
                  .find("not a 32-bit integer"),
              std::string::npos)
        << value;
  EXPECT_NE(skipped("42").find("entry 0 (?, ?)"), std::string::npos);
}

TEST(TuningDatabase, EntriesCarryAPrecisionThatDefaultsToF32) {
  // An entry written before the precision field existed reads as float32.
  auto db = detail::TuningDatabase::parse(
      R"({"format": 1, "entries": [{"device": "x", "shape_class": "large", "kernel": "xgemm", "params": {"MWG": 32}}]})");
  ASSERT_EQ(db.entries.size(), 1u);
  EXPECT_EQ(db.entries[0].precision, DataType::F32);
  // One per precision: an f64 entry sits beside the f32 one of the same class instead of replacing it.
  detail::TuningEntry f64 = entry("x", "", "", "", "large", {{"MWG", 16}});
  f64.precision = DataType::F64;
  db.upsert(f64);
  ASSERT_EQ(db.entries.size(), 2u);
  const auto back = detail::TuningDatabase::parse(db.dump());
  ASSERT_EQ(back.entries.size(), 2u);
  EXPECT_EQ(back.entries[1].precision, DataType::F64);
  EXPECT_NE(db.dump().find(R"("precision": "f64")"), std::string::npos);
  // A precision nobody knows costs the entry, with the reason.
  db = detail::TuningDatabase::parse(
      R"({"format": 1, "entries": [{"device": "x", "shape_class": "large", "kernel": "xgemm", "precision": "f8", "params": {}}]})");
  EXPECT_TRUE(db.entries.empty());
  ASSERT_EQ(db.skipped.size(), 1u);
  EXPECT_NE(db.skipped[0].find("unknown precision 'f8'"), std::string::npos) << db.skipped[0];
}

TEST(TuningDatabase, LookupMatchesThePrecision) {
  ScopedDatabase scoped;
  DeviceInfo dev = shared_context().info();
  dev.name = "precision test device " + std::to_string(fresh_seed());
  detail::TuningDatabase db;
  detail::TuningEntry f64 = entry(dev.name, "", dev.vendor, dev.kind_name(), "large",
                                  {{"MWG", 32}, {"NWG", 32}, {"MDIMC", 8}, {"NDIMC", 8}, {"VWM", 1}, {"VWN", 1}});
  f64.precision = DataType::F64;
  db.upsert(f64);
  scoped.store(db);
  // Only an f64 entry for this device: f32 calls do not see it, f64 lookups do.
  auto f32_found = detail::find_tuning(dev, "large");
  EXPECT_TRUE(!f32_found || f32_found->origin.find("device") == std::string::npos) << f32_found->origin;
  auto f64_found = detail::find_tuning(dev, "large", false, nullptr, DataType::F64);
  ASSERT_TRUE(f64_found.has_value());
  EXPECT_NE(f64_found->origin.find("device"), std::string::npos) << f64_found->origin;
  EXPECT_EQ(f64_found->entry.params.at("MWG"), 32);
}

TEST(TuningDatabase, BuiltinDatabaseHasNoSkippedEntries) {
  EXPECT_TRUE(detail::builtin_database().skipped.empty()) << detail::builtin_database().skipped.front();
}

// PoCL names the CPU it compiles for: skylake-avx512 on the AVX-512 machines the built-in CPU
// entries were tuned on, haswell on the AVX2 one (a Zen 3 VM). Each architecture gets built-in f32
// entries for the SIMT classes, whatever the CPU's name and vendor, so that batches of small items
// take xgemm's tiles rather than the direct kernel's defaults.
TEST(TuningDatabase, BuiltinEntriesServePoclsX86Architectures) {
  ScopedDatabase scoped;  // no user entries in the way
  for (const std::string arch : {"skylake-avx512", "haswell"}) {
    DeviceInfo cpu = shared_context().info();
    cpu.name = "pthread-" + arch + "-some CPU";
    cpu.architecture = arch;
    cpu.vendor = "some vendor";
    cpu.kind = DeviceKind::CPU;
    for (const std::string cls : {"small", "medium", "large", "skinny", "batched"}) {
      const auto found = detail::find_tuning(cpu, cls);
      ASSERT_TRUE(found.has_value()) << arch << ", " << cls;
      EXPECT_EQ(found->origin, "built-in database, architecture " + arch) << cls;
      EXPECT_EQ(found->entry.kernel, "xgemm") << arch << ", " << cls;
    }
  }
}

TEST(TuningDatabase, MeasuredPointsRoundTripAndBadOnesAreRejected) {
  detail::TuningDatabase db;
  detail::TuningEntry e = entry("devA", "sm_90", "NVIDIA Corporation", "GPU", "medium", {{"MWG", 64}});
  e.points = {{{516, 516, 516}, 8638.6}};
  e.alternatives = {{{{"MWG", 48}}, 16933.9, {{{516, 516, 516}, 12372.8}, {{640, 600, 700}, 13000}}}};
  db.upsert(e);
  const auto back = detail::TuningDatabase::parse(db.dump());
  ASSERT_EQ(back.entries.size(), 1u);
  const auto& b = back.entries[0];
  ASSERT_EQ(b.points.size(), 1u);
  EXPECT_EQ(b.points[0].shape.k, 516u);
  EXPECT_DOUBLE_EQ(b.points[0].gflops, 8638.6);
  ASSERT_EQ(b.alternatives.size(), 1u);
  ASSERT_EQ(b.alternatives[0].points.size(), 2u);
  EXPECT_EQ(b.alternatives[0].points[1].shape.m, 640u);
  EXPECT_EQ(b.alternatives[0].points[1].shape.n, 600u);
  EXPECT_EQ(b.alternatives[0].points[1].shape.k, 700u);
  EXPECT_DOUBLE_EQ(b.alternatives[0].points[1].gflops, 13000);
  // A point the planner could not predict from: a zero dimension, no speed, no shape.
  const std::string head = R"({"format": 1, "entries": [{"device": "x", "shape_class": "medium", "kernel": "xgemm", "params": {}, "points": [)";
  for (const std::string bad : {R"({"shape": [0, 516, 516], "gflops": 10})", R"({"shape": [516, 516, 516], "gflops": 0})",
                                R"({"gflops": 10})", R"({"shape": [516, 516], "gflops": 10})"}) {
    const auto parsed = detail::TuningDatabase::parse(head + bad + "]}]}");
    EXPECT_TRUE(parsed.entries.empty()) << bad;
    EXPECT_EQ(parsed.skipped.size(), 1u) << bad;
  }
}

TEST(TuningDatabase, LookupFallsBackFromDeviceToArchitectureToVendor) {
  ScopedDatabase scoped;
  // This device under names no database knows, so the built-in entries (which may cover this
  // very CPU) stay out of the way; its limits stay real.
  DeviceInfo dev = shared_context().info();
  const std::string tag = std::to_string(fresh_seed());
  dev.name = "test device " + tag;
  dev.architecture = "test-arch-" + tag;
  dev.vendor = "test vendor " + tag;
  // The shape the tuner measures the "mid" class on for this kind of device; that class has no
  // entry below and borrows the large one.
  const size_t mid = detail::default_targets(dev, 1, {"mid"}).front().shape.m;
  ASSERT_EQ(detail::shape_class(dev.kind, mid, mid, mid), "mid");
  // Nothing stored: defaults.
  EXPECT_FALSE(detail::find_tuning(dev, "large").has_value());
  GemmPlan plan = plan_gemm(dev, mid, mid, mid);
  EXPECT_NE(plan.source.find("defaults"), std::string::npos) << plan.source;

  detail::TuningDatabase db;
  db.upsert(entry("some other device", "other-arch", dev.vendor, dev.kind_name(), "large",
                  {{"MWG", 32}, {"NWG", 32}, {"MDIMC", 8}, {"NDIMC", 8}, {"VWM", 1}, {"VWN", 1}}));
  scoped.store(db);
  auto found = detail::find_tuning(dev, "large");
  ASSERT_TRUE(found.has_value());
  EXPECT_NE(found->origin.find("vendor"), std::string::npos) << found->origin;

  if (!dev.architecture.empty()) {
    db.upsert(entry("yet another device", dev.architecture, "someone", "GPU", "large",
                    {{"MWG", 64}, {"NWG", 32}, {"MDIMC", 8}, {"NDIMC", 8}, {"VWM", 2}, {"VWN", 1}}));
    scoped.store(db);
    found = detail::find_tuning(dev, "large");
    ASSERT_TRUE(found.has_value());
    EXPECT_NE(found->origin.find("architecture"), std::string::npos) << found->origin;
  }

  db.upsert(entry(dev.name, dev.architecture, dev.vendor, dev.kind_name(), "large",
                  {{"MWG", 16}, {"NWG", 16}, {"MDIMC", 4}, {"NDIMC", 4}, {"VWM", 1}, {"VWN", 2}}));
  scoped.store(db);
  found = detail::find_tuning(dev, "large");
  ASSERT_TRUE(found.has_value());
  EXPECT_NE(found->origin.find("device"), std::string::npos) << found->origin;

  // The planner uses the device's entry, and the GEMM it plans is still right.
  plan = plan_gemm(dev, mid, mid, mid);
  EXPECT_EQ(plan.path, GemmPath::Packed);
  EXPECT_EQ(plan.params.at("MWG"), 16);
  EXPECT_NE(plan.source.find("user database"), std::string::npos) << plan.source;
  EXPECT_NE(plan.source.find("borrowed by mid"), std::string::npos) << mid << "³ is a mid shape: " << plan.source;
  EXPECT_FALSE(detail::find_tuning(dev, "skinny").has_value()) << "no entry for that class";

  // Forcing some parameters starts from the kernel's defaults, not from the tuned entry: a partial
  // override mixed into tuned values could make a combination nobody chose, or an invalid one.
  GemmOptions forced;
  forced.force_params = {{"KUNROLL", 4}};
  plan = plan_gemm(dev, mid, mid, mid, forced);
  EXPECT_EQ(plan.params, detail::resolve_params(detail::xgemm_descriptor(), dev, forced.force_params));
  EXPECT_NE(plan.source.find("overrides"), std::string::npos) << plan.source;
}

TEST(TuningDatabase, CorruptFileIsIgnoredWithAWarningAndRebuilt) {
  ScopedDatabase scoped;
  {
    std::ofstream out(scoped.path());
    out << "{\"format\": 1, \"entries\": [ {\"device\": ";  // cut off mid-write
  }
  std::string warning;
  const auto db = detail::load_database(scoped.path(), &warning);
  EXPECT_TRUE(db.entries.empty());
  EXPECT_NE(warning.find("ignoring"), std::string::npos) << warning;
  detail::reload_user_database();
  EXPECT_NO_THROW(plan_gemm(shared_context().info(), 300, 300, 300)) << "a corrupt database must not break GEMMs";

  // What `clgemm tune` does afterwards: load (empty), add, save — the file is whole again.
  auto rebuilt = detail::load_database(scoped.path(), nullptr);
  rebuilt.upsert(entry("d", "a", "v", "CPU", "small", {{"MWG", 16}}));
  detail::save_database(rebuilt, scoped.path());
  warning.clear();
  EXPECT_EQ(detail::load_database(scoped.path(), &warning).entries.size(), 1u);
  EXPECT_EQ(warning, "");
}

TEST(Tuner, TinyBudgetStillGivesAValidEntry) {
  ScopedDatabase scoped;
  Context& ctx = shared_context();
  detail::Tuner tuner(ctx, fresh_seed());
  size_t reports = 0;
  const detail::TuneTarget target{"small", {70, 50, 40}, "xgemm", 0.01};
  const detail::TuneResult r = tuner.tune(target, [&](const detail::TuneProgress&) { ++reports; });
  ASSERT_TRUE(r.found) << (r.failure_notes.empty() ? "" : r.failure_notes.front());
  EXPECT_GE(r.tried, 1u);
  EXPECT_GT(r.best_gflops, 0);
  EXPECT_GT(reports, 0u);

  // Stored and found again, and the planned GEMM with it matches the reference.
  detail::TuningDatabase db;
  db.upsert(detail::entry_for(ctx.info(), r));
  scoped.store(db);
  const auto found = detail::find_tuning(ctx.info(), "small");
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->entry.params, r.best);
  EXPECT_EQ(plan_gemm(ctx.info(), 70, 50, 40).path, GemmPath::Packed);
}

// With no budget at all only the defaults run: not the fitted defaults, seeds or any search.
TEST(Tuner, NoBudgetMeasuresTheDefaultsAlone) {
  detail::Tuner tuner(shared_context(), fresh_seed());
  const detail::TuneResult r = tuner.tune({"small", {70, 50, 40}, "xgemm", 0.0});
  ASSERT_TRUE(r.found) << (r.failure_notes.empty() ? "" : r.failure_notes.front());
  EXPECT_EQ(r.tried, 1u);
}

// The next candidate is expected to take as long as the longest of the last four.
TEST(Tuner, CandidateClockJudgesByTheLongestRecentCandidate) {
  detail::CandidateClock clock;
  EXPECT_EQ(clock.estimate(), 0.0);
  EXPECT_TRUE(clock.room_for_another(5.0, 5.0));
  EXPECT_FALSE(clock.room_for_another(5.1, 5.0));
  for (double s : {1.0, 10.0, 2.0}) clock.record(s);
  EXPECT_EQ(clock.estimate(), 10.0);  // a cold build among cached ones
  EXPECT_FALSE(clock.room_for_another(0.5, 10.0));
  EXPECT_TRUE(clock.room_for_another(0.0, 10.0));
  for (int i = 0; i < 2; ++i) clock.record(1.0);
  EXPECT_EQ(clock.estimate(), 10.0);  // still among the last four
  clock.record(1.5);
  EXPECT_EQ(clock.estimate(), 2.0);   // 10 s has left the window of 2, 1, 1 and 1.5
}

TEST(Tuner, DefaultTargetsSplitTheBudget) {
  const auto targets = detail::default_targets(shared_context().info(), 100, {});
  double sum = 0;
  for (const auto& t : targets) sum += t.budget_s;
  EXPECT_NEAR(sum, 100, 1e-9);
  const auto only_large = detail::default_targets(shared_context().info(), 10, {"large"});
  ASSERT_EQ(only_large.size(), 1u);
  EXPECT_EQ(only_large[0].kernel, "xgemm");
  EXPECT_NEAR(only_large[0].budget_s, 10, 1e-9);
}

}  // namespace
}  // namespace clgemm::test

namespace clgemm::test {
namespace {

// plan_gemm keeps the plans of calls that force nothing (planner.cpp): a repeated call gets the
// same plan, and a call with forced options is planned afresh even where its shape is cached.
TEST(PlanCache, RepeatedPlansMatchAndForcedCallsBypassIt) {
  const ScopedDatabase no_user_entries;
  const DeviceInfo& dev = shared_context().info();
  const GemmPlan first = plan_gemm(dev, 300, 200, 100), again = plan_gemm(dev, 300, 200, 100);
  EXPECT_EQ(again.describe(), first.describe());
  EXPECT_EQ(again.params, first.params);
  GemmOptions forced;
  forced.force_path = GemmPath::Packed;
  forced.force_params = {{"MWG", 32}, {"NWG", 32}, {"KWG", 8}, {"KUNROLL", 8},
                        {"MDIMC", 8}, {"NDIMC", 8}, {"VWM", 1}, {"VWN", 1}};
  const GemmPlan f = plan_gemm(dev, 300, 200, 100, forced);
  EXPECT_EQ(f.path, GemmPath::Packed);
  EXPECT_EQ(f.params.at("KWG"), 8);
  EXPECT_NE(f.source.find("overrides"), std::string::npos) << f.source;
  EXPECT_EQ(plan_gemm(dev, 300, 200, 100).describe(), first.describe()) << "the forced plan must not be kept";
  // Plans are kept per arithmetic: 3xTF32 and float32 plans of one shape do not stand in for each other.
  GemmOptions x3;
  x3.math = Math::Tf32x3;
  const DeviceInfo h200 = fake_h200();
  for (int round = 0; round < 2; ++round) {
    EXPECT_NE(plan_gemm(h200, 2048, 2048, 2048).path, GemmPath::Tensor) << "round " << round;
    EXPECT_EQ(plan_gemm(h200, 2048, 2048, 2048, x3).path, GemmPath::Tensor) << "round " << round;
  }
}

}  // namespace
}  // namespace clgemm::test
