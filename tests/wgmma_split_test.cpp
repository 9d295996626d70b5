// wgmma_split_test.cpp — split-K of the wgmma kernel's last round of tiles (gemm/wgmma/split.cl,
// kernels/gemm/wgmma/wgmma_split.cpp): the rule on a described Hopper card, the plan and the launch it
// makes, and, where an sm_90 with patching is at hand, forced splits against float64 with guard
// zones around C.
#include "kernels/gemm/wgmma/wgmma_kernel.hpp"
#include "kernels/gemm/wgmma/wgmma_split.hpp"

#include "test_support.hpp"

#include <clgemm/cpu.hpp>
#include <clgemm/gemm.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

namespace clgemm::test {
namespace {

DeviceInfo hopper() {
  DeviceInfo d = fake_h200_for_wgmma();  // 132 compute units
  return d;
}

KernelParams defaults(const DeviceInfo& d, KernelParams over = {}) {
  return detail::resolve_params(detail::wgmma_descriptor(), d, over);
}

TEST(WgmmaSplit, RuleSplitsAMostlyEmptyLastRound) {
  const DeviceInfo d = hopper();
  const KernelParams two = defaults(d);  // 128×128 tiles, two per SM: 264 slots
  // 33² = 1089 tiles: four rounds of 264 and 33 tiles, cut in 8 parts (264 / 33).
  detail::WgmmaSplit s = detail::wgmma_split(d, 4097, 4097, 4097, DataType::F16, two);
  EXPECT_EQ(s.splits, 8u);
  EXPECT_EQ(s.split_tiles, 33u);
  EXPECT_EQ(detail::wgmma_groups(1089, s), 1056u + 33 * 8);
  // A last round more than a third full, or a single round: no split.
  EXPECT_EQ(detail::wgmma_split(d, 4096, 4096, 4096, DataType::F16, two).splits, 1u) << "232 of 264";
  EXPECT_EQ(detail::wgmma_split(d, 2048, 2048, 8192, DataType::F16, two).splits, 1u) << "256 tiles, one round";
  // 34 × 32 = 1088 tiles: 32 left for 264 slots, in parts of at least 16 slices of K (K of 4096
  // f16 is 128 slices of 32, 2048 64): 8 parts, 4; two parts of K = 1024 save nothing.
  EXPECT_EQ(detail::wgmma_split(d, 4352, 4096, 4096, DataType::F16, two).splits, 8u);
  EXPECT_EQ(detail::wgmma_split(d, 4352, 4096, 2048, DataType::F16, two).splits, 4u);
  EXPECT_EQ(detail::wgmma_split(d, 4352, 4096, 1024, DataType::F16, two).splits, 1u);
  // TF32 slices hold half as many elements of K (16 floats): K of 2048 gives 128 slices.
  EXPECT_EQ(detail::wgmma_split(d, 4352, 4096, 2048, DataType::F32, two).splits, 8u);
  // Four work-groups per SM (3xTF32's 64×64 tiles of one warpgroup): no split, though 65² tiles
  // leave one for the last round.
  const KernelParams x3 = defaults(d, {{"BM", 64}, {"BN", 64}, {"WM", 64}, {"BK", 64}, {"STAGES", 2}, {"TERMS", 3}});
  ASSERT_EQ(detail::wgmma_descriptor().resident(x3, d), 4u);
  EXPECT_EQ(detail::wgmma_split(d, 4097, 4097, 4097, DataType::F32, x3).splits, 1u);
  EXPECT_EQ(detail::wgmma_split(d, 4097, 4097, 4097, DataType::F32, x3, 4).splits, 4u) << "forced";
  // Never more than 16 parts: 1057 tiles leave 1 for the last round.
  s = detail::wgmma_split(d, 151 * 128, 7 * 128, 8192, DataType::F16, two);
  EXPECT_EQ(s.splits, 16u);
  EXPECT_EQ(s.split_tiles, 1u);
}

TEST(WgmmaSplit, ForcedSplitsAndTiles) {
  const DeviceInfo d = hopper();
  const KernelParams two = defaults(d);
  // 3 × 5 = 15 tiles, one round: forced splits cut the last round, here every tile.
  detail::WgmmaSplit s = detail::wgmma_split(d, 300, 520, 1000, DataType::F16, two, 3);
  EXPECT_EQ(s.splits, 3u);
  EXPECT_EQ(s.split_tiles, 15u);
  s = detail::wgmma_split(d, 300, 520, 1000, DataType::F16, two, 3, 7);
  EXPECT_EQ(s.split_tiles, 7u);
  EXPECT_EQ(detail::wgmma_split(d, 300, 520, 1000, DataType::F16, two, 3, 99).split_tiles, 15u) << "at most all";
  EXPECT_EQ(detail::wgmma_split(d, 4097, 4097, 4097, DataType::F16, two, 1).splits, 1u) << "1: never";
  // At most 16 parts, and no more than K has slices: 1000 f16 is 32 slices, 40 f16 two.
  EXPECT_EQ(detail::wgmma_split(d, 300, 520, 1000, DataType::F16, two, 40).splits, 16u);
  EXPECT_EQ(detail::wgmma_split(d, 300, 520, 40, DataType::F16, two, 5).splits, 2u);
  EXPECT_EQ(detail::wgmma_split(d, 300, 520, 16, DataType::F16, two, 5).splits, 1u) << "one slice";
}

TEST(WgmmaSplit, RoundsModelCountsTheParts) {
  const detail::WgmmaSplit none, eight{8, 33};
  EXPECT_DOUBLE_EQ(detail::wgmma_rounds(1089, 264, none), 5.0);
  // Four whole rounds, the 264 parts in one round of an eighth of K, and what parts cost beyond it.
  EXPECT_NEAR(detail::wgmma_rounds(1089, 264, eight), 4.0 + 1.0 / 8 + 0.5, 1e-12);
  // Two parts cost as much as the round they replace: the rule leaves such a round whole.
  EXPECT_NEAR(detail::wgmma_rounds(1089, 264, {2, 33}), 5.0, 1e-12);
}

TEST(WgmmaSplit, PlanAndLaunchOfASingleProduct) {
  const DeviceInfo d = hopper();
  GemmOptions o;
  o.force_path = GemmPath::Wgmma;
  o.force_splits = 3, o.force_split_tiles = 7;
  o.force_params = {{"BM", 128}};  // the defaults' 128×128 tiles, which the rule gives larger shapes
  const GemmPlan plan = plan_gemm(d, 300, 520, 1000, o, DataType::F16);
  EXPECT_EQ(plan.splits, 3u);
  EXPECT_EQ(plan.split_tiles, 7u);
  EXPECT_NE(plan.describe().find("split-K: the last 7 tiles in 3 parts"), std::string::npos) << plan.describe();
  GemmCall call;
  call.m = 300, call.n = 520, call.k = 1000;
  call.b_transpose = Transpose::Yes;
  call.a = {nullptr, 0, 1024}, call.b = {nullptr, 0, 1024}, call.c = {nullptr, 0, 520};
  call.a_type = call.b_type = DataType::F16, call.c_type = DataType::F32;
  const CallPlan cp = plan_call(d, call, o);
  ASSERT_EQ(cp.commands.size(), 1u) << cp.describe();
  const PlannedCommand& k = cp.commands[0];
  EXPECT_NE(k.options.find("-DSPLITS=3"), std::string::npos) << k.options;
  EXPECT_NE(k.options.find("-DNV_FENCE=1"), std::string::npos) << k.options;
  EXPECT_EQ(k.global[0], (8 + 7 * 3) * k.local[0]) << "8 whole tiles and 7 tiles of 3 parts";
  // The workspace holds every part's float32 tile; the counts, one per split tile.
  bool workspace = false, counts = false;
  for (const auto& t : cp.temporaries) {
    if (t.role == "split-K workspace") {
      workspace = true;
      EXPECT_EQ(t.bytes, 7u * 3 * 128 * 128 * 4);
    }
    if (t.role == "split-K counts") {
      counts = true;
      EXPECT_EQ(t.bytes, 7u * 4);
    }
  }
  EXPECT_TRUE(workspace && counts) << cp.describe();
  // A batch of items large enough to plan one by one splits each item, with a workspace and
  // counters per item, unless the workspaces would pass 256 MiB.
  GemmCall big = call;
  big.m = big.n = 2048, big.k = 1024, big.a.ld = big.b.ld = 1024, big.c.ld = 2048;
  const auto workspace_of = [&](size_t items) {
    const CallPlan bp = plan_call(d, big, o, items, 2048 * 1024, 2048 * 1024, 2048 * 2048);
    for (const auto& t : bp.temporaries)
      if (t.role == "split-K workspace") return t.bytes;
    return size_t(0);
  };
  EXPECT_EQ(workspace_of(4), 4u * 7 * 3 * 128 * 128 * 4);
  EXPECT_EQ(workspace_of(1000), 0u) << "1000 items would take 1.3 GiB";
  // Batches of items the batched class plans whole never split: their items fill the rounds.
  const CallPlan batch = plan_call(d, call, o, 4, 300 * 1024, 520 * 1024, 300 * 520);
  EXPECT_NE(batch.commands.back().options.find("-DSPLITS=1"), std::string::npos) << batch.commands.back().options;
  EXPECT_EQ(plan_gemm(d, 300, 520, 1000, o, DataType::F16, 4).splits, 1u);
}

TEST(WgmmaSplit, PlannerSplitsWhereTheRuleSays) {
  const DeviceInfo d = hopper();
  // TF32 keeps two warpgroups per tile: 4097³'s last 33 tiles in 8 parts.
  GemmOptions tf32;
  tf32.math = Math::Tf32;
  const GemmPlan odd = plan_gemm(d, 4097, 4097, 4097, tf32, DataType::F32);
  ASSERT_EQ(odd.path, GemmPath::Wgmma);
  EXPECT_EQ(odd.splits, 8u) << odd.describe();
  EXPECT_EQ(odd.split_tiles, 33u);
  // 40² = 1600 tiles of two warpgroups: six rounds and 16 tiles, in 8 parts (K of 4096 f16).
  const GemmPlan f16 = plan_gemm(d, 5120, 5120, 4096, {}, DataType::F16);
  EXPECT_EQ(f16.params.at("WM"), 64);
  EXPECT_EQ(f16.splits, 8u);
  EXPECT_EQ(f16.split_tiles, 16u);
  EXPECT_EQ(plan_gemm(d, 4096, 4096, 4096, {}, DataType::F16).splits, 1u);
  // 16-bit 4097³ takes one warpgroup per tile, three per SM, whose last round is 3/4 full.
  const GemmPlan one = plan_gemm(d, 4097, 4097, 4097, {}, DataType::F16);
  EXPECT_EQ(one.params.at("WM"), 128);
  EXPECT_EQ(one.splits, 1u);
  GemmOptions never = tf32;
  never.force_splits = 1;
  EXPECT_EQ(plan_gemm(d, 4097, 4097, 4097, never, DataType::F32).splits, 1u);
}

// One product through the wgmma kernel with `splits` parts of the last `split_tiles` tiles (0:
// the last round's), on this device where it runs: C of f32 with guard zones and an odd ldc,
// against float64 over the products' magnitudes, twice, so that the counters the first call's
// last parts set back to zero serve the second.
void check_split_on_device(DataType in, Math math, bool tma, size_t m, size_t n, size_t k, size_t splits,
                           size_t split_tiles, KernelParams params = {}, size_t parts = 0) {
  const size_t lda = (k + 63) / 64 * 64, ldb = lda, ldc = n + 3, guard = 37;
  std::mt19937 rng(unsigned(m * 31 + n * 7 + k + splits));
  std::uniform_real_distribution<double> u(-1, 1);
  const auto random = [&](size_t count) { return random_stored(in, count, rng); };
  const std::vector<double> a = random(m * lda), b = random(n * ldb), c0 = random(guard + m * ldc + guard);
  const Context& ctx = shared_context();
  cl::Buffer da = upload_as(ctx, in, a), db = upload_as(ctx, in, b), dc = upload_as(ctx, DataType::F32, c0);
  GemmCall call;
  call.m = m, call.n = n, call.k = k;
  call.b_transpose = Transpose::Yes;
  call.a = {da(), 0, lda}, call.b = {db(), 0, ldb}, call.c = {dc(), guard, ldc};
  call.a_type = call.b_type = in, call.c_type = DataType::F32;
  call.alpha = -1.5, call.beta = 0.5;
  GemmOptions o;
  o.force_path = GemmPath::Wgmma;
  o.math = math;
  o.force_splits = splits, o.force_split_tiles = split_tiles;
  o.force_params = params;
  if (tma) o.force_params["TMA"] = 1;
  const CallPlan plan = plan_call(planning_device(ctx.info()), call, o);
  ASSERT_NE(plan.commands.back().options.find("-DSPLITS=" + std::to_string(parts ? parts : splits)), std::string::npos)
      << plan.describe();
  const double unit = in == DataType::F32 && math == Math::Tf32 ? std::ldexp(1.0, -9) : (k + 4) * 1.2e-7;
  std::vector<double> c = c0;
  for (int round = 0; round < 2; ++round) {
    cl_event ev = nullptr;
    gemm(call, ctx.queue()(), &ev, o);
    wait_and_release(ev);
    std::vector<float> got(c.size());
    ctx.queue().enqueueReadBuffer(dc, CL_TRUE, 0, got.size() * sizeof(float), got.data());
    size_t wrong = 0, strays = 0;
    std::vector<double> next = c;
    for (size_t x = 0; x < c.size(); ++x) {
      const size_t at = x - guard, i = at / ldc, j = at % ldc;
      if (x < guard || i >= m || j >= n) {
        strays += got[x] != float(c[x]);
        continue;
      }
      double sum = 0, mag = 0;
      for (size_t p = 0; p < k; ++p) sum += a[i * lda + p] * b[j * ldb + p], mag += std::fabs(a[i * lda + p] * b[j * ldb + p]);
      const double want = call.alpha * sum + call.beta * c[x];
      wrong += !(std::fabs(got[x] - want) <= unit * (1.5 * mag + 0.5 * std::fabs(c[x])) + 1e-30);
      next[x] = got[x];
    }
    EXPECT_EQ(wrong, 0u) << data_type_name(in) << (math == Math::Tf32x3 ? " 3xTF32" : "") << (tma ? ", TMA" : "")
                         << ", " << m << "x" << n << "x" << k << ", " << splits << " parts, call " << round;
    EXPECT_EQ(strays, 0u) << "writes outside C";
    c = next;
  }
}

bool wgmma_here() { return planning_device(shared_context().info()).sm90a_patching; }

TEST(WgmmaSplitOnDevice, PartsAddUpToTheProduct) {
  if (!wgmma_here()) GTEST_SKIP() << "no wgmma here: the device is not an sm_90 whose driver builds patched PTX";
  for (const bool tma : {false, true}) {
    // 3 × 5 tiles of 128×128: every tile in 3 parts; 7 of them in 5; K of 1000 f16 is 32 slices
    // of 32, which 5 parts share unevenly. The rule's 64×64 tiles for so few, in TF32.
    check_split_on_device(DataType::F16, Math::Fp32, tma, 300, 520, 1000, 3, 0, {{"BM", 128}});
    check_split_on_device(DataType::BF16, Math::Fp32, tma, 300, 520, 1000, 5, 7, {{"BM", 128}});
    check_split_on_device(DataType::F32, Math::Tf32, tma, 257, 129, 777, 4, 0);
    // One warpgroup of two blocks of 64 rows, and 256 columns.
    check_split_on_device(DataType::F16, Math::Fp32, tma, 300, 520, 1000, 2, 0, {{"WM", 128}});
    check_split_on_device(DataType::F16, Math::Fp32, tma, 129, 600, 513, 16, 2, {{"BN", 256}, {"BK", 16}});
  }
  // 3xTF32 keeps its step sums apart from the parts'.
  check_split_on_device(DataType::F32, Math::Tf32x3, false, 200, 140, 700, 3, 0);
  check_split_on_device(DataType::F32, Math::Tf32x3, true, 200, 140, 700, 2, 5);
  // More parts than K has slices: as many as it has (K of 100 f16 is two slices of 64).
  check_split_on_device(DataType::F16, Math::Fp32, false, 130, 130, 100, 5, 0, {}, 2);
}

// A strided batch of items large enough to be planned one by one splits every item's last tiles,
// each item with its own workspace and counters: the same C, to float32 rounding of a different
// order of sums, as unsplit, guard zones included.
TEST(WgmmaSplitOnDevice, EveryItemOfABatchSplits) {
  if (!wgmma_here()) GTEST_SKIP() << "no wgmma here: the device is not an sm_90 whose driver builds patched PTX";
  const size_t items = 3, m = 2048, n = 2048, k = 1040, guard = 64;
  const size_t a_item = m * 1088 + 64, b_item = n * 1088, c_item = m * n + 16;
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<double> a(items * a_item), b(items * b_item), c(guard + items * c_item + guard);
  for (auto* v : {&a, &b, &c})
    for (auto& x : *v) x = u(rng);
  const Context& ctx = shared_context();
  const cl::Buffer da = upload_as(ctx, DataType::BF16, a), db = upload_as(ctx, DataType::BF16, b);
  const auto run = [&](size_t splits) {
    cl::Buffer dc = upload_as(ctx, DataType::F32, c);
    GemmCall call;
    call.m = m, call.n = n, call.k = k;
    call.b_transpose = Transpose::Yes;
    call.a = {da(), 0, 1088}, call.b = {db(), 0, 1088}, call.c = {dc(), guard, n};
    call.a_type = call.b_type = DataType::BF16, call.c_type = DataType::F32;
    call.alpha = 0.5, call.beta = -1.0;
    GemmOptions o;
    o.force_path = GemmPath::Wgmma;
    o.force_splits = splits, o.force_split_tiles = 5;
    const CallPlan plan = plan_call(planning_device(ctx.info()), call, o, items, a_item, b_item, c_item);
    EXPECT_NE(plan.commands.back().options.find("-DSPLITS=" + std::to_string(splits)), std::string::npos)
        << plan.describe();
    cl_event ev = nullptr;
    gemm_strided_batched(call, a_item, b_item, c_item, items, ctx.queue()(), &ev, o);
    wait_and_release(ev);
    std::vector<float> got(c.size());
    ctx.queue().enqueueReadBuffer(dc, CL_TRUE, 0, got.size() * sizeof(float), got.data());
    return got;
  };
  const std::vector<float> whole = run(1), split = run(3);
  size_t differ = 0;
  for (size_t x = 0; x < c.size(); ++x) differ += !(std::fabs(whole[x] - split[x]) <= 1e-4f * (1 + std::fabs(whole[x])));
  EXPECT_EQ(differ, 0u);
}

}  // namespace
}  // namespace clgemm::test
