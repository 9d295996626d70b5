// grouped_per_problem_test.cpp — 16-bit grouped calls on Hopper's tensor cores, run as each
// problem's own planned GEMM (plan/grouped_per_problem.cpp): the rule on a described card, the
// plan it makes, and, where an sm_90 with patching is at hand, a call against float64 with the
// gaps between problems and guard zones around C untouched.
#include "plan/grouped_per_problem.hpp"
#include "plan/normalise.hpp"

#include "test_support.hpp"

#include <clgemm/cpu.hpp>
#include <clgemm/gemm.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

namespace clgemm::test {
namespace {

detail::RowMajorGemm problem(size_t m, size_t n, size_t k, DataType type = DataType::BF16, double alpha = 1) {
  GemmCall c;
  c.m = m, c.n = n, c.k = k, c.alpha = alpha;
  c.a = {nullptr, 0, k}, c.b = {nullptr, 0, n}, c.c = {nullptr, 0, n};
  c.a_type = c.b_type = type, c.c_type = DataType::F32;
  return detail::to_row_major(c);
}

TEST(GroupedPerProblem, RuleTakesLargeSixteenBitProblemsOnWgmma) {
  const DeviceInfo d = fake_h200_for_wgmma();
  // A mixture-of-experts layer's experts: a few hundred rows each against 14336×4096 weights.
  const std::vector<detail::RowMajorGemm> moe = {problem(900, 14336, 4096), problem(17, 14336, 4096),
                                                 problem(3000, 14336, 4096)};
  EXPECT_TRUE(detail::grouped_runs_per_problem(d, moe, {}));
  std::vector<detail::RowMajorGemm> f16 = {problem(320, 330, 340, DataType::F16)};
  EXPECT_TRUE(detail::grouped_runs_per_problem(d, f16, {})) << "36.9 million multiply-adds";
  // Not: small problems on average, float32, alpha 0, a forced path, too many, no patching.
  EXPECT_FALSE(detail::grouped_runs_per_problem(d, {problem(256, 256, 256), problem(200, 300, 100)}, {}));
  EXPECT_FALSE(detail::grouped_runs_per_problem(d, {problem(900, 14336, 4096, DataType::F32)}, {}));
  EXPECT_FALSE(detail::grouped_runs_per_problem(d, {problem(900, 14336, 4096, DataType::BF16, 0.0)}, {}));
  GemmOptions forced;
  forced.force_params = {{"TS", 64}};
  EXPECT_FALSE(detail::grouped_runs_per_problem(d, moe, forced));
  EXPECT_FALSE(detail::grouped_runs_per_problem(
      d, std::vector<detail::RowMajorGemm>(detail::kPerProblemMaxProblems + 1, problem(512, 512, 512)), {}));
  DeviceInfo plain = d;
  plain.sm90a_patching = false;
  EXPECT_FALSE(detail::grouped_runs_per_problem(plain, moe, {}));
  EXPECT_FALSE(detail::grouped_runs_per_problem(d, {}, {}));
}

TEST(GroupedPerProblem, EveryProblemGetsItsOwnPartsOnWgmma) {
  const DeviceInfo d = fake_h200_for_wgmma();
  const std::vector<detail::RowMajorGemm> moe = {problem(900, 14336, 4096), problem(40, 4096, 14336),
                                                 problem(3000, 14336, 4096)};
  const detail::LaunchPlan plan = detail::build_per_problem_launch(d, moe, {});
  ASSERT_GE(plan.parts, moe.size());
  std::vector<bool> seen(plan.parts, false);
  size_t wgmma = 0;
  for (const detail::Command& c : plan.commands) {
    ASSERT_LT(c.part, plan.parts);
    seen[c.part] = true;
    wgmma += c.entry.find("wgmma") != std::string::npos;
  }
  for (size_t p = 0; p < plan.parts; ++p) EXPECT_TRUE(seen[p]) << "part " << p << " has no command";
  EXPECT_GE(wgmma, moe.size()) << "every problem on the wgmma kernel";
}

TEST(GroupedPerProblemOnDevice, MatchesFloat64) {
  if (!planning_device(shared_context().info()).sm90a_patching)
    GTEST_SKIP() << "needs an sm_90 GPU whose driver builds PTX patched for sm_90a";
  const Context& ctx = shared_context();
  struct Spec {
    size_t m, n, k;
    bool tb;
    double alpha, beta;
  };
  // Sides no multiple of any tile, an empty problem, B both ways, beta 0 and not.
  const std::vector<Spec> specs = {{333, 350, 341, false, 1.0, 0.0}, {0, 300, 300, false, 1.0, 0.0},
                                   {413, 297, 310, true, -0.5, 0.75}, {17, 4100, 4104, false, 1.25, 0.0},
                                   {200, 515, 389, true, 1.0, 1.0}};
  const DataType in = DataType::BF16;
  const size_t gap = 7;
  std::vector<GemmCall> calls;
  size_t a_size = 0, b_size = 0, c_size = gap;
  for (const Spec& s : specs) {
    GemmCall c;
    c.m = s.m, c.n = s.n, c.k = s.k, c.alpha = s.alpha, c.beta = s.beta;
    c.b_transpose = s.tb ? Transpose::Yes : Transpose::No;
    c.a_type = c.b_type = in, c.c_type = DataType::F32;
    c.a = {nullptr, a_size, s.k + 2};
    a_size += s.m * (s.k + 2) + gap;
    const size_t b_ld = (s.tb ? s.k : s.n) + 2;
    c.b = {nullptr, b_size, b_ld};
    b_size += (s.tb ? s.n : s.k) * b_ld + gap;
    c.c = {nullptr, c_size, s.n + 1};
    c_size += s.m * (s.n + 1) + gap;
    calls.push_back(c);
  }
  std::mt19937 rng{unsigned(fresh_seed())};
  std::uniform_real_distribution<double> u(-1, 1);
  const auto random = [&](size_t count) { return random_stored(in, count, rng); };
  const std::vector<double> a = random(a_size), b = random(b_size);
  std::vector<float> c0(c_size);
  for (auto& x : c0) x = float(u(rng));
  cl::Buffer da = upload_as(ctx, in, a), db = upload_as(ctx, in, b);
  GuardedBuffer dc(ctx, c0.size());
  dc.poison();
  ctx.queue().enqueueWriteBuffer(dc.view(), CL_TRUE, 0, c0.size() * sizeof(float), c0.data());
  for (GemmCall& c : calls) c.a.buffer = da(), c.b.buffer = db(), c.c.buffer = dc.view()();
  std::vector<cl::Event> events;
  GemmOptions o;
  o.events = &events;
  cl_event ev = nullptr;
  gemm_grouped(calls, ctx.queue()(), &ev, o);
  wait_and_release(ev);
  EXPECT_GE(events.size(), specs.size() - 1) << "a launch or more per problem with work";
  const std::vector<float> got = dc.read();
  EXPECT_EQ(dc.guard_damage(), "");
  std::vector<bool> inside(c0.size(), false);
  for (size_t q = 0; q < specs.size(); ++q) {
    const Spec& s = specs[q];
    const GemmCall& c = calls[q];
    size_t wrong = 0;
    for (size_t i = 0; i < s.m; ++i)
      for (size_t j = 0; j < s.n; ++j) {
        double sum = 0, mag = 0;
        for (size_t p = 0; p < s.k; ++p) {
          const double bv = s.tb ? b[c.b.offset + j * c.b.ld + p] : b[c.b.offset + p * c.b.ld + j];
          const double t = a[c.a.offset + i * c.a.ld + p] * bv;
          sum += t, mag += std::fabs(t);
        }
        const size_t e = c.c.offset + i * c.c.ld + j;
        inside[e] = true;
        const double want = s.alpha * sum + (s.beta != 0 ? s.beta * double(c0[e]) : 0.0);
        wrong += !(std::fabs(got[e] - want) <= (std::sqrt(double(s.k)) + 4) * 1.2e-7 *
                                                    (1.5 * std::fabs(s.alpha) * mag + std::fabs(s.beta * c0[e])) + 1e-30);
      }
    EXPECT_EQ(wrong, 0u) << "problem " << q << ": " << s.m << "x" << s.n << "x" << s.k << (s.tb ? " B^T" : "");
  }
  size_t strays = 0;
  for (size_t e = 0; e < c0.size(); ++e) strays += !inside[e] && got[e] != c0[e];
  EXPECT_EQ(strays, 0u) << "C outside every problem was written";
}

}  // namespace
}  // namespace clgemm::test
