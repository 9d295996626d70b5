// tuning_validation_test.cpp — values in the tuning database and in forced parameters are checked
// before use: an invalid entry is passed over with a warning and the call still runs (on the
// kernel's defaults), a forced invalid value is a clear InvalidArgument. Before, a tile of 0
// divided by zero (a crash) and a value of 1e30 failed every call of its class.
#include <clgemm/error.hpp>
#include <clgemm/gemm.hpp>
#include <clgemm/warnings.hpp>

#include "database/database.hpp"
#include "test_support.hpp"

#include <fstream>

namespace clgemm::test {
namespace {

// The class of the calls below on this device, which a user entry for this device serves first.
constexpr size_t kSide = 64;

std::string warnings_text() {
  std::string all;
  for (const auto& w : take_warnings()) all += w + "\n";
  return all;
}

// Runs kSide³ on the shared queue, checks the result, and returns its plan.
GemmPlan run_and_check() {
  Context& ctx = shared_context();
  std::vector<float> a(kSide * kSide), b(kSide * kSide);
  cpu::fill_random(a, fresh_seed());
  cpu::fill_random(b, fresh_seed());
  cl::Buffer da = upload(ctx, a), db = upload(ctx, b), dc = ctx.buffer(kSide * kSide * 4);
  gemm(row_major_call(kSide, kSide, kSide, 1.0f, 0.0f, da(), db(), dc()), ctx.queue()(), nullptr);
  EXPECT_TRUE(matches_reference(download(ctx, dc, kSide * kSide),
                                reference_gemm(kSide, kSide, kSide, 1.0f, a.data(), b.data(), 0.0f, nullptr), kSide, 0));
  return plan_gemm(ctx.info(), kSide, kSide, kSide);
}

// A user database holding one entry of `kernel` for this device and the calls' class.
void store_entry(const ScopedDatabase& db, const std::string& kernel, const std::string& params_json,
                 const std::string& alternatives_json = "") {
  const DeviceInfo& d = shared_context().info();
  std::ofstream out(db.path());
  out << R"({"format": 1, "entries": [{"device": ")" << d.name << R"(", "shape_class": ")"
      << detail::shape_class(d.kind, kSide, kSide, kSide) << R"(", "kernel": ")" << kernel << R"(", "params": )"
      << params_json << R"(, "shape": [64, 64, 64], "gflops": 1)"
      << (alternatives_json.empty() ? "" : R"(, "alternatives": )" + alternatives_json) << "}]}";
  out.close();
  detail::reload_user_database();
  take_warnings();
}

struct BadEntry {
  const char* kernel;
  const char* params;
  const char* warning;  // a piece of the warning it raises
};

TEST(TuningValidation, InvalidEntriesArePassedOverWithAWarning) {
  const BadEntry cases[] = {
      {"xgemm", R"({"MWG": 0})", "MWG = 0 is outside 1..4096"},
      {"xgemm", R"({"NWG": 0, "MWG": 32})", "NWG = 0 is outside"},
      {"direct", R"({"TM": 0})", "TM = 0 is outside"},
      {"xgemm", R"({"KWG": -16})", "KWG = -16 is outside"},
      {"xgemm", R"({"MDIMC": 1000000})", "MDIMC = 1000000 is outside"},
      {"xgemm", R"({"NOSUCH": 1})", "has no parameter 'NOSUCH'"},
      {"xgemm", R"({"MWG": 1e30})", "not a 32-bit integer"},
      {"xgemm", R"({"MWG": -9223372036854775808})", "not a 32-bit integer"},
  };
  for (const BadEntry& c : cases) {
    ScopedDatabase db;
    store_entry(db, c.kernel, c.params);
    const GemmPlan plan = run_and_check();
    EXPECT_EQ(plan.source.find("user database"), std::string::npos) << c.params << ": " << plan.source;
    const std::string said = warnings_text() + warnings_text();
    EXPECT_NE(said.find(c.warning), std::string::npos) << c.params << " raised: " << said;
  }
}

TEST(TuningValidation, InvalidAlternativeIsDroppedAndTheEntryServes) {
  ScopedDatabase db;
  store_entry(db, "direct", R"({"TM": 32, "TN": 32, "WM": 4, "WN": 4})",
              R"([{"params": {"TM": 0}, "gflops": 2}, {"params": {"TM": 16, "TN": 16, "WM": 2, "WN": 2}, "gflops": 1}])");
  const GemmPlan plan = run_and_check();
  EXPECT_NE(plan.source.find("user database"), std::string::npos) << plan.source;
  EXPECT_NE(warnings_text().find("dropping an alternative"), std::string::npos);
}

TEST(TuningValidation, ForcedInvalidValuesAreInvalidArguments) {
  Context& ctx = shared_context();
  cl::Buffer a = ctx.buffer(kSide * kSide * 4), c = ctx.buffer(kSide * kSide * 4);
  const std::pair<GemmPath, KernelParams> cases[] = {
      {GemmPath::Packed, {{"MWG", 0}}},  {GemmPath::Packed, {{"NWG", -64}}},
      {GemmPath::Direct, {{"TM", 0}}},   {GemmPath::Direct, {{"WN", 1L << 40}}},
      {GemmPath::Packed, {{"KUNROLL", 0}}}, {GemmPath::Auto, {{"KSLICE", 0}}},
  };
  for (const auto& [path, params] : cases) {
    GemmOptions o;
    o.force_path = path;
    o.force_params = params;
    try {
      gemm(row_major_call(kSide, kSide, kSide, 1.0f, 0.0f, a(), a(), c()), ctx.queue()(), nullptr, o);
      ADD_FAILURE() << params.begin()->first << " = " << params.begin()->second << " was accepted";
    } catch (const Error& e) {
      EXPECT_EQ(e.status(), Status::InvalidArgument) << e.what();
      EXPECT_NE(std::string(e.what()).find(params.begin()->first), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace clgemm::test
