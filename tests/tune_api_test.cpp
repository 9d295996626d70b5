// tune_api_test.cpp — tuning through the public API (clgemm/tune.hpp), as a program or the CLI
// uses it: a whole session with a tiny budget, given configurations timed, the databases read
// back, and requests refused before any work.
#include <clgemm/clgemm.hpp>

#include "cli_runner.hpp"
#include "test_support.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>

using namespace clgemm;
using namespace clgemm::test;

namespace {

bool any_contains(const std::vector<std::string>& lines, const std::string& part) {
  return std::any_of(lines.begin(), lines.end(),
                     [&](const std::string& l) { return l.find(part) != std::string::npos; });
}

}  // namespace

// A session of one class on this device: both of its targets run, the faster is saved to the
// user database (the request names none) with its points, and reading the database back shows it.
TEST(TuneApi, TinySessionSavesTheBestOfItsClassAndShowReadsItBack) {
  ScopedDatabase scoped;
  Context& ctx = shared_context();
  TuningRequest request;
  request.budget_s = 0.5;  // the defaults run whatever the budget: a valid entry still comes out
  request.classes = {"small"};
  request.seed = fresh_seed();
  std::vector<TuningProgress> reports;
  const TuningReport report = tune_device(ctx, request, [&](const TuningProgress& p) { reports.push_back(p); });

  EXPECT_EQ(report.device, ctx.info().name);
  EXPECT_EQ(report.database, scoped.path());
  EXPECT_EQ(user_tuning_database_path(), scoped.path());
  ASSERT_EQ(report.targets.size(), 2u) << "the small class has a direct and an xgemm target";
  ASSERT_EQ(report.classes.size(), 1u);
  const TuningClassReport& saved = report.classes[0];
  EXPECT_EQ(saved.shape_class, "small");
  ASSERT_LT(saved.target, report.targets.size());
  const TuningTargetReport& chosen = report.targets[saved.target];
  EXPECT_TRUE(chosen.chosen);
  EXPECT_EQ(std::count_if(report.targets.begin(), report.targets.end(), [](const auto& t) { return t.chosen; }), 1);
  for (const auto& t : report.targets) {
    EXPECT_EQ(t.shape_class, "small");
    EXPECT_GE(t.tried, 1u) << t.kernel;
    EXPECT_LE(t.best_gflops, chosen.best_gflops) << "the fastest correct target is chosen";
  }
  EXPECT_GT(chosen.best_gflops, 0);
  EXPECT_FALSE(chosen.best.empty());
  if (saved.has_points) {
    EXPECT_GE(saved.points_configurations, 1u);
    EXPECT_LE(saved.points_measured, saved.points_configurations);
  }

  // Progress: every target's search ends with a last report, fractions stay within the budget,
  // and the points follow the search.
  size_t searches_done = 0, points_done = 0;
  bool points_seen = false;
  for (const auto& p : reports) {
    EXPECT_GE(p.fraction, 0.0);
    EXPECT_LE(p.fraction, 1.0);
    if (p.phase == TuningProgress::Phase::Search) {
      EXPECT_FALSE(points_seen) << "a search report after the points began";
      if (p.last) {
        ++searches_done;
        EXPECT_EQ(p.stage, "done");
      }
    } else {
      points_seen = true;
      EXPECT_EQ(p.shape_class, "small");
      if (p.last) ++points_done;
    }
  }
  EXPECT_EQ(searches_done, 2u);
  EXPECT_EQ(points_done, saved.has_points ? 1u : 0u);

  // Read back: the user database (the default) holds the one entry; its JSON is the file's.
  const TuningDatabaseInfo db = read_tuning_database();
  EXPECT_EQ(db.path, scoped.path());
  ASSERT_EQ(db.entries.size(), 1u);
  const TuningEntryInfo& e = db.entries[0];
  EXPECT_EQ(e.device, ctx.info().name);
  EXPECT_EQ(e.shape_class, "small");
  EXPECT_EQ(e.kernel, chosen.kernel);
  EXPECT_EQ(e.params, chosen.best);
  EXPECT_DOUBLE_EQ(e.gflops, chosen.best_gflops);
  EXPECT_EQ(shape_text(e.shape), shape_text(chosen.shape));
  EXPECT_EQ(e.points, saved.points_measured);
  const auto json = nlohmann::json::parse(db.json);
  ASSERT_EQ(json["entries"].size(), 1u) << db.json;
  EXPECT_EQ(json["entries"][0]["shape_class"], "small");
}

// Given configurations, as `clgemm tune --try` passes them: a valid one is checked and timed with
// the defaults filled in, an invalid one is rejected with the reason, in order.
TEST(TuneApi, MeasuresGivenConfigurationsInOrder) {
  Context& ctx = shared_context();
  const KernelParams valid = {{"MWG", 32}, {"NWG", 32}, {"MDIMC", 8}, {"NDIMC", 8}, {"VWM", 2}, {"VWN", 2}};
  const KernelParams invalid = {{"MWG", 32}, {"MDIMC", 7}};  // 32 rows do not split over 7
  std::vector<size_t> done;
  const auto results = measure_configurations(ctx, "xgemm", {70, 40, 100}, {valid, invalid},
                                              [&](size_t d) { done.push_back(d); }, fresh_seed());
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(done, (std::vector<size_t>{1, 2}));

  const ConfigurationResult& ok = results[0];
  ASSERT_EQ(ok.outcome, ConfigurationResult::Outcome::Ok) << ok.note;
  EXPECT_GT(ok.gflops, 0);
  EXPECT_GT(ok.seconds, 0);
  EXPECT_FALSE(ok.command_seconds.empty());
  EXPECT_GT(ok.params.size(), valid.size()) << "the kernel's defaults are filled in";
  for (const auto& [name, value] : valid) EXPECT_EQ(ok.params.at(name), value) << name;

  const ConfigurationResult& bad = results[1];
  EXPECT_EQ(bad.outcome, ConfigurationResult::Outcome::Rejected);
  EXPECT_FALSE(bad.note.empty());
  EXPECT_EQ(bad.params, invalid) << "a rejected configuration is reported as given";

  try {
    measure_configurations(ctx, "nokernel", {64, 64, 64}, {valid});
    FAIL() << "an unknown kernel is refused";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::InvalidArgument);
    EXPECT_NE(std::string(e.what()).find("nokernel"), std::string::npos) << e.what();
  }
  // The names it takes, as `clgemm tune --kernel` does.
  EXPECT_EQ(tunable_kernel_names(), (std::vector<std::string>{"xgemm", "direct", "xmma", "wgmma", "dmma"}));
}

// What a session refuses, it refuses before measuring anything or touching the database.
TEST(TuneApi, BadRequestsAreRefusedBeforeAnyWork) {
  TempDir tmp("tune_api");
  const std::string path = tmp / "tuning.json";
  Context& ctx = shared_context();
  size_t reports = 0;
  const auto refused = [&](TuningRequest r, const std::string& part) {
    r.database = path;
    try {
      tune_device(ctx, r, [&](const TuningProgress&) { ++reports; });
      ADD_FAILURE() << "accepted; expected a refusal naming '" << part << "'";
    } catch (const Error& e) {
      EXPECT_EQ(e.status(), Status::InvalidArgument) << e.what();
      EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
    }
  };
  TuningRequest bad_class;
  bad_class.classes = {"small", "huge"};
  refused(bad_class, "unknown shape class 'huge'");
  TuningRequest no_budget;
  no_budget.budget_s = 0;
  refused(no_budget, "budget");
  TuningRequest nan_budget;
  nan_budget.budget_s = std::nan("");
  refused(nan_budget, "budget");
  TuningRequest tensor_small;
  tensor_small.tensor = true;
  tensor_small.classes = {"small"};
  refused(tensor_small, "mid and large");
  if (!tensor_path_available(ctx.info())) {
    TuningRequest tensor;
    tensor.tensor = true;
    tensor.classes = {"large"};
    refused(tensor, "tensor path");
  }
  EXPECT_EQ(reports, 0u);
  EXPECT_FALSE(std::filesystem::exists(path)) << "nothing is saved after a refusal";
}

// The small facts a program names: the classes, a configuration's text, the built-in entries.
TEST(TuneApi, ClassesParameterTextAndBuiltinDatabase) {
  EXPECT_EQ(tuning_shape_classes(), (std::vector<std::string>{"small", "medium", "mid", "large", "skinny", "batched"}));
  EXPECT_EQ(kernel_params_text({{"NWG", 32}, {"MWG", 64}}), "-DMWG=64 -DNWG=32");
  EXPECT_EQ(kernel_params_text({}), "");

  const TuningDatabaseInfo builtin = builtin_tuning_database();
  EXPECT_EQ(builtin.path, "");
  ASSERT_FALSE(builtin.entries.empty()) << "built-in entries ship for the NVIDIA H200";
  const auto json = nlohmann::json::parse(builtin.json);
  ASSERT_EQ(json["entries"].size(), builtin.entries.size());
  for (size_t i = 0; i < builtin.entries.size(); ++i) {
    const auto& e = builtin.entries[i];
    const auto& j = json["entries"][i];
    EXPECT_EQ(e.device, j["device"]);
    EXPECT_EQ(e.shape_class, j["shape_class"]);
    EXPECT_EQ(e.kernel, j["kernel"]);
    EXPECT_EQ(e.alternatives, j.contains("alternatives") ? j["alternatives"].size() : 0u);
    EXPECT_FALSE(e.params.empty());
  }
}

// A damaged database reads as empty, and the library says so through its warnings, never by
// printing; the CLI prints that warning with its prefix.
TEST(TuneApi, DamagedDatabaseReadsEmptyWithAWarning) {
  TempDir tmp("tune_api");
  const std::string path = tmp / "tuning.json";
  std::ofstream(path) << "{\"format\": 1, \"entries\": [";  // cut off mid-write
  take_warnings();
  const TuningDatabaseInfo db = read_tuning_database(path);
  EXPECT_EQ(db.path, path);
  EXPECT_TRUE(db.entries.empty());
  EXPECT_TRUE(any_contains(take_warnings(), "ignoring the tuning database " + path));

  if (cli_path().empty()) GTEST_SKIP() << "no clgemm tool in this build";
  const CliRun o = run_cli("tune --show --database " + path);
  EXPECT_EQ(o.status, 0) << o.err;
  EXPECT_NE(o.err.find("clgemm: warning: ignoring the tuning database " + path), std::string::npos) << o.err;
  EXPECT_NE(o.out.find("user database " + path + ": 0 entries"), std::string::npos) << o.out;
}
