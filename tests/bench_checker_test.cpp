// bench_checker_test.cpp — the checker and the runner's protocol: a deliberately wrong
// implementation is flagged WRONG (and still shown), failures and unsupported problems become
// rows, every implementation sees the same inputs, C is reset when beta != 0; and each real
// implementation is right on this device for every layout and transpose it accepts.
#include <clgemm/cpu.hpp>
#include <clgemm/error.hpp>
#include <clgemm/ladder.hpp>

#include "bench/checker.hpp"
#include "bench/problem.hpp"
#include "bench/registry.hpp"
#include "bench/runner.hpp"
#include "bench_fake.hpp"
#include "test_support.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <stdexcept>

namespace clgemm::bench {
namespace {

using test::Fake;

TEST(BenchChecker, AcceptsRoundingAndFlagsRealErrors) {
  const std::vector<double> ref = {1.0, -2.0, 3.0, 0.5};
  EXPECT_TRUE(check_result({1.0f, -2.0f, 3.0f, 0.5f}, ref, Precision::FP32, 4).ok);
  const Check off = check_result({1.0f, -2.0f, 3.01f, 0.5f}, ref, Precision::FP32, 4);
  EXPECT_FALSE(off.ok);
  EXPECT_NE(off.problem.find("exceeds"), std::string::npos);
  const Check nan = check_result({1.0f, NAN, 3.0f, 0.5f}, ref, Precision::FP32, 4);
  EXPECT_FALSE(nan.ok);
  EXPECT_NE(nan.problem.find("NaN"), std::string::npos);
  EXPECT_FALSE(check_result({1.0f}, ref, Precision::FP32, 4).ok);
}

// NaN or Inf alpha or beta: where the float64 reference is NaN or infinite (or past float32's
// range), a NaN or an infinity is what float32 arithmetic gives, in whatever order it sums.
TEST(BenchChecker, NonFiniteReferenceAcceptsNonFiniteResults) {
  const std::vector<double> ref = {NAN, INFINITY, -INFINITY, 1e39, 2.0};
  const Check ok = check_result({NAN, INFINITY, NAN, INFINITY, 2.0f}, ref, Precision::FP32, 4);
  EXPECT_TRUE(ok.ok) << ok.problem;
  EXPECT_EQ(ok.error, 0.0);
  EXPECT_TRUE(check_result({NAN, NAN}, {NAN, NAN}, Precision::FP32, 4).ok);
}

TEST(BenchChecker, StaysStrictWhereTheReferenceIsFinite) {
  const std::vector<double> ref = {NAN, 1.0, 2.0};
  const Check finite_for_nan = check_result({0.0f, 1.0f, 2.0f}, ref, Precision::FP32, 4);
  EXPECT_FALSE(finite_for_nan.ok);
  EXPECT_NE(finite_for_nan.problem.find("element 0"), std::string::npos) << finite_for_nan.problem;
  const Check inf_for_finite = check_result({NAN, INFINITY, 2.0f}, ref, Precision::FP32, 4);
  EXPECT_FALSE(inf_for_finite.ok);
  EXPECT_NE(inf_for_finite.problem.find("1 element is NaN or Inf"), std::string::npos) << inf_for_finite.problem;
  const Check off = check_result({NAN, 1.0f, 2.1f}, ref, Precision::FP32, 4);
  EXPECT_FALSE(off.ok);
  EXPECT_NE(off.problem.find("exceeds"), std::string::npos) << off.problem;
}

TEST(BenchChecker, Tf32ToleranceIsLooserButStillCatchesIndexingErrors) {
  EXPECT_GT(tolerance(Precision::TF32, 1024), 10 * tolerance(Precision::FP32, 1024));
  EXPECT_LT(tolerance(Precision::TF32, 1 << 20), 0.05);
  // A 1e-3 relative error: TF32 rounding of both operands can give that, FP32 cannot.
  const std::vector<double> ref = {1.0, 1.0, 1.0, 1.0};
  const std::vector<float> c = {1.001f, 0.999f, 1.001f, 0.999f};
  EXPECT_TRUE(check_result(c, ref, Precision::TF32, 4096).ok);
  EXPECT_FALSE(check_result(c, ref, Precision::FP32, 4096).ok);
}

RunOptions quick() {
  RunOptions o;
  o.repeat = 10;
  o.warmup = 2;
  o.time_limit_s = 60;
  o.seed = 42;
  return o;
}

TEST(BenchRunner, DeliberatelyWrongImplementationsAreFlaggedNotSilentlyTimed) {
  ImplList impls;
  impls.push_back(std::make_unique<Fake>("right", Fake::Mode::Correct));
  impls.push_back(std::make_unique<Fake>("perturbs", Fake::Mode::PerturbOneElement));
  impls.push_back(std::make_unique<Fake>("skips-a-row", Fake::Mode::SkipLastRow));
  const std::vector<Shape> shapes = {{64, 48, 80, "custom", 64}};
  const auto results = run_benchmark(shapes, CallSettings{}, impls, quick());
  ASSERT_EQ(results.size(), 3u);
  EXPECT_EQ(results[0].outcome, Outcome::Ok) << results[0].note;
  for (int i : {1, 2}) {
    EXPECT_EQ(results[i].outcome, Outcome::Wrong) << results[i].impl;
    EXPECT_TRUE(results[i].checked);
    EXPECT_GT(results[i].check.error, results[i].check.tolerance);
    EXPECT_NE(results[i].note.find("exceeds"), std::string::npos) << results[i].note;
    EXPECT_TRUE(results[i].timed());  // still shown with its time, but as WRONG
  }
}

// Through the runner: alpha or beta NaN or Inf give the float64 reference's NaN and Inf, and an
// implementation that computes them is ok, not WRONG.
TEST(BenchRunner, NonFiniteAlphaOrBetaIsNotCalledWrong) {
  for (const auto& [alpha, beta] : std::vector<std::pair<float, float>>{{NAN, 0.0f}, {INFINITY, 0.0f},
                                                                         {1.0f, -INFINITY}, {1.0f, NAN}}) {
    SCOPED_TRACE("alpha " + std::to_string(alpha) + ", beta " + std::to_string(beta));
    ImplList impls;
    impls.push_back(std::make_unique<Fake>("fake", Fake::Mode::Correct));
    CallSettings s;
    s.alpha = alpha;
    s.beta = beta;
    const auto results = run_benchmark({{40, 30, 200, "custom", 40}}, s, impls, quick());
    ASSERT_EQ(results.size(), 1u);
    EXPECT_EQ(results[0].outcome, Outcome::Ok) << results[0].note;
  }
}

TEST(BenchRunner, EveryImplementationGetsTheSameInputs) {
  ImplList impls;
  impls.push_back(std::make_unique<Fake>("one", Fake::Mode::Correct));
  impls.push_back(std::make_unique<Fake>("two", Fake::Mode::Correct));
  run_benchmark({{20, 30, 40, "custom", 30}}, CallSettings{}, impls, quick());
  const auto& a = static_cast<Fake&>(*impls[0]).inputs;
  const auto& b = static_cast<Fake&>(*impls[1]).inputs;
  ASSERT_EQ(a.size(), size_t(20 * 40 + 40 * 30 + 20 * 30));
  EXPECT_EQ(a, b);
  EXPECT_NE(std::count(a.begin(), a.end(), 0.0f), long(a.size()));
}

TEST(BenchRunner, CountsRunsAndResetsCOnlyWhenBetaReadsIt) {
  for (float beta : {0.0f, 0.75f}) {
    ImplList impls;
    impls.push_back(std::make_unique<Fake>("f", Fake::Mode::Correct));
    CallSettings s;
    s.beta = beta;
    s.alpha = -1.25f;
    const auto results = run_benchmark({{33, 17, 9, "custom", 17}}, s, impls, quick());
    const auto& f = static_cast<Fake&>(*impls[0]);
    EXPECT_EQ(results[0].outcome, Outcome::Ok) << results[0].note;
    EXPECT_EQ(f.runs, 1 + 2 + 10);  // checked, warm-up, repeats
    EXPECT_EQ(f.resets, beta == 0 ? 1 : 1 + 2 + 10) << "beta " << beta;
    EXPECT_EQ(f.releases, 1);
    EXPECT_EQ(results[0].times.size(), 10u);
    EXPECT_DOUBLE_EQ(results[0].stats.median, 1e-3);
  }
}

TEST(BenchRunner, FailuresUnavailableUnsupportedAndTooSlowBecomeRows) {
  ImplList impls;
  impls.push_back(std::make_unique<Fake>("throws", Fake::Mode::ThrowInPrepare));
  impls.push_back(std::make_unique<Fake>("absent", Fake::Mode::Correct, "built without it"));
  impls.push_back(std::make_unique<Fake>("cannot", Fake::Mode::Correct, "", "row-major only"));
  impls.push_back(std::make_unique<Fake>("slow", Fake::Mode::Slow));
  const auto results = run_benchmark({{8, 8, 8, "square", 8}, {9, 9, 9, "square", 9}}, CallSettings{}, impls, quick());
  ASSERT_EQ(results.size(), 8u);
  EXPECT_EQ(results[0].outcome, Outcome::Failed);
  EXPECT_EQ(results[0].note, "out of device memory");
  EXPECT_EQ(results[1].outcome, Outcome::NotApplicable);
  EXPECT_EQ(results[1].note, "not available: built without it");
  EXPECT_EQ(results[2].outcome, Outcome::NotApplicable);
  EXPECT_EQ(results[2].note, "row-major only");
  EXPECT_EQ(results[3].outcome, Outcome::Ok);  // checked and right, but its repeats would take 1000 s
  EXPECT_FALSE(results[3].timed());
  EXPECT_NE(results[3].note.find("not timed"), std::string::npos);
  EXPECT_EQ(results[4].shape.m, 9u);
}

// The real implementations on this device: each is right wherever it runs, for both layouts,
// transposes and alpha/beta; the ones that cannot do a case say so instead of running.
TEST(BenchImplementations, RealImplementationsAreRightOrNotApplicable) {
  Context& ctx = test::shared_context();
  ImplList impls = make_impls({"clgemm", "openblas", "clblast", "ladder:6", "cpu-loop", "cublas", "cublas-tf32"}, ctx,
                              ImplOptions{10.0, 13});
  std::vector<CallSettings> cases(4);
  cases[1].layout = Layout::ColMajor;
  cases[1].a_transpose = Transpose::Yes;
  cases[1].alpha = 0.5f;
  cases[1].beta = -1.5f;
  cases[2].b_transpose = Transpose::Yes;
  cases[2].alpha = 2.0f;
  cases[2].beta = 1.0f;
  cases[3].layout = Layout::ColMajor;
  cases[3].a_transpose = cases[3].b_transpose = Transpose::Yes;
  for (const auto& s : cases) {
    const auto results = run_benchmark({{37, 53, 29, "custom", 39}}, s, impls, quick());
    for (const auto& r : results) {
      SCOPED_TRACE(r.impl + " with " + s.describe());
      EXPECT_TRUE(r.outcome == Outcome::Ok || r.outcome == Outcome::NotApplicable)
          << outcome_name(r.outcome) << ": " << r.note;
      if (r.outcome == Outcome::NotApplicable) {
        EXPECT_FALSE(r.note.empty());
      }
      if (r.impl == "clgemm" || r.impl == "openblas") {
        EXPECT_EQ(r.outcome, Outcome::Ok);
      }
      if ((r.impl == "ladder:6" || r.impl == "cpu-loop") && !s.is_plain()) {
        EXPECT_EQ(r.outcome, Outcome::NotApplicable);
      }
    }
  }
}

TEST(BenchImplementations, UnknownNamesAreRejectedAndLadderExpands) {
  EXPECT_THROW(expand_impl_names({"clgemm", "mkl"}), Error);
  EXPECT_THROW(expand_impl_names({"ladder:99"}), Error);
  const auto names = expand_impl_names({"clgemm", "ladder", "clgemm"});
  EXPECT_EQ(names.front(), "clgemm");
  EXPECT_EQ(names.size(), 1 + ladder_rungs().size());
  EXPECT_EQ(names[1], "ladder:1");
}

}  // namespace
}  // namespace clgemm::bench
