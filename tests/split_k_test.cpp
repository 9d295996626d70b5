// split_k_test.cpp — split-K of the last wave in the xgemm kernel: the sweep through the public
// API with splits forced (all tiles, one tile, the planner's rule), results that do not depend on
// which part finishes last, batched calls (the per-tile counts are reused), and the plan.
#include <clgemm/gemm.hpp>

#include "plan/tile_choice.hpp"
#include "kernels/gemm/xgemm/xgemm_kernel.hpp"
#include "gemm_case.hpp"
#include "test_support.hpp"

#include <cstring>
#include <limits>
#include <tuple>

namespace clgemm::test {
namespace {

struct SplitConfig {
  KernelParams params;
  size_t splits, split_tiles;  // as GemmOptions::force_splits / force_split_tiles
  GemmOptions::Toggle pack_b = GemmOptions::Toggle::Off;  // copy an unaligned B first (cp.async)
  size_t sk_groups = 0;  // as GemmOptions::force_sk_groups
};

const std::vector<SplitConfig> kSplitConfigs = {
    // Small tiles, so that the shapes below have many; every tile split in 3.
    {{{"MWG", 32}, {"NWG", 32}, {"KWG", 16}, {"MDIMC", 8}, {"NDIMC", 8}, {"VWM", 2}, {"VWN", 2}}, 3, 1000000},
    // Double buffering, contiguous layouts, A read in place; only the last tile split, in 5.
    {{{"MWG", 64}, {"NWG", 32}, {"KWG", 8}, {"MDIMC", 8}, {"NDIMC", 8}, {"VWM", 2}, {"VWN", 4}, {"DB", 1},
      {"STRM", 0}, {"STRN", 0}, {"PACKA", 0}, {"KUNROLL", 4}},
     5, 1},
    // Unstaged A, wide vectors; the planner's rule for which tiles (the last partial wave).
    {{{"MWG", 32}, {"NWG", 64}, {"KWG", 8}, {"MDIMC", 4}, {"NDIMC", 8}, {"VWM", 8}, {"VWN", 8}, {"SA", 0},
      {"KUNROLL", 8}},
     2, 0},
    // The cp.async pipeline (NVIDIA sm_80+ only), 3 stages, 2 and 7 parts.
    {{{"MWG", 64}, {"NWG", 64}, {"KWG", 16}, {"MDIMC", 8}, {"NDIMC", 16}, {"VWM", 4}, {"VWN", 4}, {"STRM", 0},
      {"ASYNC", 3}, {"WX", 8}, {"PACKA", 0}, {"PADA", 1}},
     7, 1000000},
    {{{"MWG", 32}, {"NWG", 64}, {"KWG", 32}, {"MDIMC", 8}, {"NDIMC", 16}, {"VWM", 4}, {"VWN", 4}, {"ASYNC", 2}}, 2, 3},
    // The same two with an unaligned or transposed B copied first (GemmPlan::pack_b), one unsplit.
    {{{"MWG", 64}, {"NWG", 64}, {"KWG", 16}, {"MDIMC", 8}, {"NDIMC", 16}, {"VWM", 4}, {"VWN", 4}, {"STRM", 0},
      {"ASYNC", 3}, {"WX", 8}, {"PACKA", 0}, {"PADA", 1}},
     1, 0, GemmOptions::Toggle::On},
    {{{"MWG", 32}, {"NWG", 64}, {"KWG", 32}, {"MDIMC", 8}, {"NDIMC", 16}, {"VWM", 4}, {"VWN", 4}, {"ASYNC", 2}},
     2, 3, GemmOptions::Toggle::On},
    // Sliced K inside split and stream-K parts: only slice 0 stores, every slice passes the
    // barriers of the fix-up.
    {{{"MWG", 32}, {"NWG", 32}, {"KWG", 16}, {"MDIMC", 8}, {"NDIMC", 8}, {"VWM", 2}, {"VWN", 2}, {"KSLICE", 2},
      {"KUNROLL", 8}},
     3, 1000000},
    {{{"MWG", 32}, {"NWG", 32}, {"KWG", 16}, {"MDIMC", 8}, {"NDIMC", 8}, {"VWM", 2}, {"VWN", 2}, {"KSLICE", 4},
      {"KUNROLL", 4}},
     2, 1000000, GemmOptions::Toggle::Off, 7},
    // Stream-K: 7 groups share all tiles' K-steps (shares end inside tiles, a group computes
    // several segments), without and with the cp.async pipeline (5 groups over the last 3 tiles).
    {{{"MWG", 32}, {"NWG", 32}, {"KWG", 16}, {"MDIMC", 8}, {"NDIMC", 8}, {"VWM", 2}, {"VWN", 2}},
     2, 1000000, GemmOptions::Toggle::Off, 7},
    {{{"MWG", 64}, {"NWG", 64}, {"KWG", 16}, {"MDIMC", 8}, {"NDIMC", 16}, {"VWM", 4}, {"VWN", 4}, {"STRM", 0},
      {"ASYNC", 3}, {"WX", 8}, {"PACKA", 0}, {"PADA", 1}},
     2, 3, GemmOptions::Toggle::Off, 5},
    // 128×128 tiles without the pipeline, split in 2: their partial tiles go to the workspace
    // float by float (WS_FLOATS in xgemm.cl), the smaller tiles' above a vector at a time.
    {{{"MWG", 128}, {"NWG", 128}, {"KWG", 16}, {"MDIMC", 16}, {"NDIMC", 16}, {"VWM", 4}, {"VWN", 4}}, 2, 1},
    // The built-in large entry's tiles and register cap (MINWG = 2), split-K and stream-K: the
    // split builds leave the cap out, and must give the same results.
    {{{"MWG", 128}, {"NWG", 128}, {"KWG", 16}, {"MDIMC", 16}, {"NDIMC", 16}, {"VWM", 4}, {"VWN", 4}, {"PADA", 1},
      {"PADB", 1}, {"ASYNC", 2}, {"MINWG", 2}},
     3, 2},
    {{{"MWG", 128}, {"NWG", 128}, {"KWG", 16}, {"MDIMC", 16}, {"NDIMC", 16}, {"VWM", 4}, {"VWN", 4}, {"PADA", 1},
      {"PADB", 1}, {"ASYNC", 2}, {"MINWG", 2}},
     2, 3, GemmOptions::Toggle::Off, 5},
};

void PrintTo(const SplitConfig& c, std::ostream* os) {
  *os << detail::build_options(c.params) << " splits " << c.splits << " tiles " << c.split_tiles
      << (c.pack_b == GemmOptions::Toggle::On ? " B copied" : "") << " stream-K groups " << c.sk_groups;
}

bool runs_here(const SplitConfig& c) {
  return c.params.count("ASYNC") == 0 || detail::has_cp_async(shared_context().info());
}

GemmOptions options_for(const SplitConfig& c) {
  GemmOptions o;
  o.force_path = GemmPath::Packed;
  o.force_params = c.params;
  o.force_splits = c.splits;
  o.force_split_tiles = c.split_tiles;
  o.force_sk_groups = c.sk_groups;
  o.force_pack_b = c.pack_b;
  return o;
}

class SplitKSweep : public ::testing::TestWithParam<SplitConfig> {};

TEST_P(SplitKSweep, PlanSplitsWhereForced) {
  if (!runs_here(GetParam())) GTEST_SKIP() << "needs cp.async (an NVIDIA GPU, sm_80 or newer)";
  const GemmPlan plan = plan_gemm(shared_context().info(), 200, 170, 300, options_for(GetParam()));
  EXPECT_EQ(plan.pack_b, GetParam().pack_b == GemmOptions::Toggle::On);
  if (GetParam().splits < 2) return;
  EXPECT_GE(plan.splits, 2u) << plan.describe();
  EXPECT_GE(plan.split_tiles, 1u) << plan.describe();
  const bool streamed = GetParam().sk_groups > 0;
  EXPECT_NE(plan.describe().find(streamed ? "stream-K" : "split-K"), std::string::npos) << plan.describe();
  if (streamed && !detail::has_cp_async(shared_context().info())) {
    EXPECT_EQ(plan.sk_groups % plan.split_tiles, 0u) << "shares must not span tiles here";
  }
}

TEST_P(SplitKSweep, SweepMatchesOpenBlas) {
  if (!runs_here(GetParam())) GTEST_SKIP() << "needs cp.async (an NVIDIA GPU, sm_80 or newer)";
  const GemmOptions o = options_for(GetParam());
  // K from below the tile depth (fewer steps than parts: parts are merged) to many steps.
  const std::vector<std::tuple<size_t, size_t, size_t>> shapes = {{1, 1, 1}, {129, 65, 7}, {65, 63, 130}, {200, 17, 300},
                                                       {7, 129, 1000}};
  run_every_layout(shapes, o);
}

INSTANTIATE_TEST_SUITE_P(Forced, SplitKSweep, ::testing::ValuesIn(kSplitConfigs),
                         [](const auto& info) { return "s" + std::to_string(info.index); });

// Runs C = A·B + 0·C on the device with `o`; returns C.
std::vector<float> run_once(size_t m, size_t n, size_t k, const std::vector<float>& a, const std::vector<float>& b,
                            const GemmOptions& o) {
  Context& ctx = shared_context();
  cl::Buffer da = upload(ctx, a), db = upload(ctx, b);
  cl::Buffer dc = upload(ctx, std::vector<float>(m * n, std::numeric_limits<float>::quiet_NaN()));
  cl_event ev = nullptr;
  gemm(row_major_call(m, n, k, 1.0f, 0.0f, da(), db(), dc()), ctx.queue()(), &ev, o);
  wait_and_release(ev);
  return download(ctx, dc, m * n);
}

TEST(SplitKResults, DoNotDependOnWhichPartFinishesLast) {
  const size_t m = 100, n = 90, k = 777;
  std::vector<float> a(m * k), b(k * n);
  cpu::fill_random(a, fresh_seed());
  cpu::fill_random(b, fresh_seed());
  GemmOptions o = options_for(kSplitConfigs[0]);
  o.force_splits = 6;
  const auto first = run_once(m, n, k, a, b, o);
  for (int run = 0; run < 3; ++run) {
    const auto again = run_once(m, n, k, a, b, o);
    ASSERT_EQ(0, std::memcmp(first.data(), again.data(), first.size() * sizeof(float))) << "run " << run;
  }
  // Stream-K with a group count that is no multiple of the tiles: the same once more.
  o.force_sk_groups = 11;
  const auto streamed = run_once(m, n, k, a, b, o);
  for (int run = 0; run < 2; ++run) {
    const auto again = run_once(m, n, k, a, b, o);
    ASSERT_EQ(0, std::memcmp(streamed.data(), again.data(), streamed.size() * sizeof(float))) << "run " << run;
  }
  // Against the same configuration without a split: the same values up to rounding.
  o.force_sk_groups = 0;
  o.force_splits = 1;
  const auto whole = run_once(m, n, k, a, b, o);
  std::vector<double> ref(m * n);
  for (size_t i = 0; i < m * n; ++i) ref[i] = whole[i];
  EXPECT_TRUE(matches_reference(first, ref, k, 0));
  EXPECT_TRUE(matches_reference(streamed, ref, k, 0));
}

TEST(SplitKResults, BatchedCallsReuseTheCounts) {
  Context& ctx = shared_context();
  const size_t m = 70, n = 45, k = 200, batches = 4;
  const size_t sa = m * k + 3, sb = k * n + 1, sc = m * n + 5;
  std::vector<float> a(batches * sa), b(batches * sb), c(batches * sc);
  cpu::fill_random(a, fresh_seed());
  cpu::fill_random(b, fresh_seed());
  cpu::fill_random(c, fresh_seed());
  cl::Buffer da = upload(ctx, a), db = upload(ctx, b), dc = upload(ctx, c);
  GemmOptions o = options_for(kSplitConfigs[0]);
  o.force_splits = 4;
  cl_event ev = nullptr;
  gemm_strided_batched(row_major_call(m, n, k, 0.5f, -1.0f, da(), db(), dc()), sa, sb, sc, batches, ctx.queue()(), &ev,
                       o);
  wait_and_release(ev);
  if (HasFatalFailure()) return;
  const auto got = download(ctx, dc, c.size());
  for (size_t i = 0; i < batches; ++i) {
    std::vector<float> part(got.begin() + i * sc, got.begin() + i * sc + m * n);
    const auto ref = reference_gemm(m, n, k, 0.5f, &a[i * sa], &b[i * sb], -1.0f, &c[i * sc]);
    EXPECT_TRUE(matches_reference(part, ref, k, 0)) << "batch " << i;
    for (size_t j = i * sc + m * n; j < (i + 1) * sc; ++j) ASSERT_EQ(got[j], c[j]) << "gap between batches written";
  }
}

}  // namespace
}  // namespace clgemm::test
