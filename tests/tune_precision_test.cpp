// tune_precision_test.cpp — tuning for a precision other than f32: a session's candidates run with
// operands of that type and its entries carry it, sit beside the f32 ones, and serve the planner's
// calls of that type only; what a precision cannot tune is refused.
#include <clgemm/clgemm.hpp>

#include "database/database.hpp"
#include "kernels/gemm/direct/direct_kernel.hpp"
#include "kernels/gemm/xgemm/xgemm_kernel.hpp"
#include "test_support.hpp"
#include "tune/tuner.hpp"

#include <algorithm>

namespace clgemm::test {
namespace {

// An f32 entry of this device for the small class, with parameters no tuner run picks by chance.
detail::TuningEntry f32_small_entry(const DeviceInfo& dev) {
  detail::TuningEntry e;
  e.device = dev.name, e.architecture = dev.architecture, e.vendor = dev.vendor, e.device_type = dev.kind_name();
  e.shape_class = "small", e.kernel = "xgemm";
  e.params = {{"MWG", 16}, {"NWG", 16}, {"MDIMC", 4}, {"NDIMC", 4}, {"VWM", 1}, {"VWN", 2}};
  e.shape = {128, 128, 128}, e.gflops = 1, e.date = "2026-11-22";
  return e;
}

const detail::TuningEntry* find(const detail::TuningDatabase& db, DataType precision) {
  const auto it = std::find_if(db.entries.begin(), db.entries.end(),
                               [&](const detail::TuningEntry& e) { return e.precision == precision; });
  return it == db.entries.end() ? nullptr : &*it;
}

// A tiny f64 session writes an f64 entry of double-precision kernels, leaves the f32 entry of the
// same class as it was, and the planner takes each for calls of its own type only.
TEST(TunePrecision, F64SessionWritesAnF64EntryThatOnlyF64CallsUse) {
  Context& ctx = shared_context();
  if (!ctx.info().fp64) GTEST_SKIP() << "the device has no cl_khr_fp64";
  ScopedDatabase scoped;
  const DeviceInfo& dev = ctx.info();
  detail::TuningDatabase before;
  before.upsert(f32_small_entry(dev));
  detail::save_database(before, scoped.path());
  detail::reload_user_database();

  TuningRequest request;
  request.budget_s = 0.5;  // the defaults run whatever the budget
  request.classes = {"small"};
  request.seed = fresh_seed();
  request.precision = DataType::F64;
  const TuningReport report = tune_device(ctx, request);
  EXPECT_EQ(report.precision, DataType::F64);
  ASSERT_EQ(report.classes.size(), 1u);
  for (const auto& t : report.targets) {
    EXPECT_EQ(t.wrong, 0u) << t.kernel << ": " << (t.failure_notes.empty() ? "" : t.failure_notes.front());
    if (t.best.empty()) continue;
    EXPECT_EQ(t.best.at("PRECISION"), 64) << t.kernel;
    if (t.best.count("ASYNC")) {
      EXPECT_EQ(t.best.at("ASYNC"), 0) << t.kernel;
    }
  }

  const auto db = detail::load_database(scoped.path(), nullptr);
  ASSERT_EQ(db.entries.size(), 2u) << db.dump();
  const detail::TuningEntry* f32 = find(db, DataType::F32);
  const detail::TuningEntry* f64 = find(db, DataType::F64);
  ASSERT_TRUE(f32 && f64) << db.dump();
  EXPECT_EQ(f32->params, f32_small_entry(dev).params) << "the f32 entry is left alone";
  EXPECT_EQ(f64->shape_class, "small");
  EXPECT_EQ(f64->params.at("PRECISION"), 64);
  EXPECT_EQ(f64->params, report.targets[report.classes[0].target].best);

  // The planner: f64 calls of the class get the f64 entry, f32 calls the f32 one.
  const GemmPlan for_f64 = plan_gemm(dev, 100, 100, 100, {}, DataType::F64);
  EXPECT_NE(for_f64.source.find("user database, device"), std::string::npos) << for_f64.source;
  EXPECT_EQ(for_f64.source.find("borrowed"), std::string::npos) << for_f64.source;
  EXPECT_EQ(for_f64.path, f64->kernel == "xgemm" ? GemmPath::Packed : GemmPath::Direct);
  EXPECT_EQ(for_f64.params.at("PRECISION"), 64);
  const GemmPlan for_f32 = plan_gemm(dev, 100, 100, 100);
  EXPECT_EQ(for_f32.path, GemmPath::Packed);
  EXPECT_EQ(for_f32.params.at("MWG"), 16) << for_f32.source;
  EXPECT_EQ(for_f32.params.at("PRECISION"), 32);
  EXPECT_NE(for_f32.source.find("user database, device"), std::string::npos) << for_f32.source;

  // The public view of the database names each entry's precision.
  const TuningDatabaseInfo info = read_tuning_database();
  ASSERT_EQ(info.entries.size(), 2u);
  EXPECT_NE(std::find_if(info.entries.begin(), info.entries.end(),
                         [](const TuningEntryInfo& e) { return e.precision == DataType::F64; }),
            info.entries.end());
}

// A tiny f16 session (A, B and C in f16) writes an f16 entry, which f16 calls then use instead of
// borrowing the f32 one.
TEST(TunePrecision, F16SessionWritesAnF16Entry) {
  ScopedDatabase scoped;
  Context& ctx = shared_context();
  TuningRequest request;
  request.budget_s = 0.5;
  request.classes = {"small"};
  request.seed = fresh_seed();
  request.precision = DataType::F16;
  const TuningReport report = tune_device(ctx, request);
  ASSERT_EQ(report.classes.size(), 1u);
  for (const auto& t : report.targets)
    EXPECT_EQ(t.wrong, 0u) << t.kernel << ": " << (t.failure_notes.empty() ? "" : t.failure_notes.front());
  const auto db = detail::load_database(scoped.path(), nullptr);
  ASSERT_EQ(db.entries.size(), 1u) << db.dump();
  EXPECT_EQ(db.entries[0].precision, DataType::F16);
  EXPECT_EQ(db.entries[0].params.at("PRECISION"), 32) << "16-bit operands are computed in float32";
  const GemmPlan plan = plan_gemm(ctx.info(), 100, 100, 100, {}, DataType::F16);
  EXPECT_NE(plan.source.find("user database, device"), std::string::npos) << plan.source;
  EXPECT_EQ(plan.source.find("borrowed by f16"), std::string::npos) << plan.source;
}

// --try's measurements at a precision: PRECISION follows it, and what the type cannot run is
// rejected with the reason rather than run with operands of the wrong size.
TEST(TunePrecision, GivenConfigurationsRunAtThePrecision) {
  Context& ctx = shared_context();
  if (!ctx.info().fp64) GTEST_SKIP() << "the device has no cl_khr_fp64";
  const KernelParams small = {{"MWG", 32}, {"NWG", 32}, {"MDIMC", 8}, {"NDIMC", 8}, {"VWM", 2}, {"VWN", 2}};
  KernelParams async = small, other = small;
  async["ASYNC"] = 2;
  other["PRECISION"] = 32;
  const auto results =
      measure_configurations(ctx, "xgemm", {40, 36, 50}, {small, async, other}, {}, fresh_seed(), DataType::F64);
  ASSERT_EQ(results.size(), 3u);
  ASSERT_EQ(results[0].outcome, ConfigurationResult::Outcome::Ok) << results[0].note;
  EXPECT_EQ(results[0].params.at("PRECISION"), 64);
  // The cp.async pipeline copies doubles where the device has cp.async.
  if (detail::has_cp_async(ctx.info())) {
    EXPECT_EQ(results[1].outcome, ConfigurationResult::Outcome::Ok) << results[1].note;
    EXPECT_EQ(results[1].params.at("PRECISION"), 64);
  } else {
    EXPECT_EQ(results[1].outcome, ConfigurationResult::Outcome::Rejected);
    EXPECT_NE(results[1].note.find("ASYNC"), std::string::npos) << results[1].note;
  }
  EXPECT_EQ(results[2].outcome, ConfigurationResult::Outcome::Rejected);
  EXPECT_NE(results[2].note.find("f64"), std::string::npos) << results[2].note;

  const auto bf16 = measure_configurations(ctx, "direct", {40, 36, 50}, {{}}, {}, fresh_seed(), DataType::BF16);
  ASSERT_EQ(bf16.size(), 1u);
  EXPECT_EQ(bf16[0].outcome, ConfigurationResult::Outcome::Ok) << bf16[0].note;
}

// A precision fixes PRECISION in the search space and nothing else; f16 and bf16 run float32
// kernels.
TEST(TunePrecision, PrecisionFixesItsParameters) {
  const auto f64 = detail::precision_fixed_params(detail::xgemm_descriptor(), DataType::F64);
  EXPECT_EQ(f64, (KernelParams{{"PRECISION", 64}}));
  EXPECT_EQ(detail::precision_fixed_params(detail::xgemm_descriptor(), DataType::BF16),
            (KernelParams{{"PRECISION", 32}}));
  EXPECT_EQ(detail::precision_fixed_params(detail::direct_descriptor(), DataType::F64),
            (KernelParams{{"PRECISION", 64}}));
  // The project's seeds at PRECISION 64 on an H200: the cp.async pipeline copies doubles too, so
  // a seed is refused exactly where its stages of doubles outgrow the 48 KiB of local memory.
  const DeviceInfo h200 = fake_h200();
  const auto& d = detail::xgemm_descriptor();
  size_t refused = 0, accepted = 0;
  for (const auto& seed : d.seeds) {
    KernelParams ps = seed;
    ps["PRECISION"] = 64;
    const KernelParams full = detail::resolve_params(d, h200, seed);  // float32: valid
    KernelParams full64 = full;
    full64["PRECISION"] = 64;
    if (d.local_bytes(full64) > h200.local_mem_bytes) {
      EXPECT_THROW(detail::resolve_params(d, h200, ps), Error) << d.local_bytes(full64);
      ++refused;
    } else {
      EXPECT_NO_THROW(detail::resolve_params(d, h200, ps));
      ++accepted;
    }
  }
  EXPECT_GT(refused, 0u);
  // A two-stage pipeline of 128×64 tiles, K-steps of 8, in double: 24 KiB.
  const KernelParams small_async = {{"MWG", 128}, {"NWG", 64},  {"KWG", 8},   {"MDIMC", 16},
                                    {"NDIMC", 16}, {"VWM", 2},  {"VWN", 2},   {"KUNROLL", 8}, {"ASYNC", 2}, {"PRECISION", 64}};
  EXPECT_NO_THROW(detail::resolve_params(d, h200, small_async));
}

// What a precision cannot tune is refused before any work.
TEST(TunePrecision, UntunableRequestsAreRefused) {
  TempDir tmp("tune_precision");
  Context& ctx = shared_context();
  // f16 and bf16 tune on the tensor path only where wgmma runs them (wgmma_tuning_test.cpp).
  if (!planning_device(ctx.info()).sm90a_patching) {
    TuningRequest tensor;
    tensor.tensor = true;
    tensor.classes = {"large"};
    tensor.precision = DataType::F16;
    tensor.database = tmp / "tuning.json";
    try {
      tune_device(ctx, tensor);
      ADD_FAILURE() << "the tensor path was tuned for f16";
    } catch (const Error& e) {
      EXPECT_EQ(e.status(), Status::InvalidArgument) << e.what();
      EXPECT_NE(std::string(e.what()).find("f16"), std::string::npos) << e.what();
    }
  }
  TuningRequest garbage;
  garbage.precision = static_cast<DataType>(9);
  garbage.database = tmp / "tuning.json";
  EXPECT_THROW(tune_device(ctx, garbage), Error);
  EXPECT_THROW(measure_configurations(ctx, "xmma", {64, 64, 64}, {{}}, {}, 1, DataType::BF16), Error);
}

}  // namespace
}  // namespace clgemm::test
