// wgmma_short_rows_test.cpp — a few rows of 16-bit activations against large weights on the
// wgmma kernel (kernels/gemm/wgmma/wgmma_short_rows.cpp): the rule on a described Hopper card, and,
// where an sm_90 with patching is at hand, the planner's own choice against float64 with guard
// zones around C, with B as stored and transposed.
#include "kernels/gemm/wgmma/wgmma_short_rows.hpp"

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

TEST(WgmmaShortRows, RuleTakesFewRowsAgainstLargeWeights) {
  const DeviceInfo d = fake_h200_for_wgmma();  // 132 compute units
  // N = 4096: 64 tiles of 64×64, cut into 4 parts of K for two work-groups per unit.
  const GemmPlan deep = plan_gemm(d, 16, 4096, 14336, {}, DataType::BF16);
  ASSERT_EQ(deep.path, GemmPath::Wgmma) << deep.describe();
  for (const auto& [name, value] : detail::kWgmmaShortRowTiles) EXPECT_EQ(deep.params.at(name), value) << name;
  EXPECT_EQ(deep.splits, 4u);
  EXPECT_EQ(deep.split_tiles, 64u);
  EXPECT_NE(deep.reason.find("a few rows"), std::string::npos) << deep.reason;
  // N = 14336: 224 tiles fill the device whole.
  const GemmPlan wide = plan_gemm(d, 32, 14336, 4096, {}, DataType::F16);
  ASSERT_EQ(wide.path, GemmPath::Wgmma);
  EXPECT_EQ(wide.params.at("BM"), 64);
  EXPECT_EQ(wide.splits, 1u);
  // Parts of K stay at least 1024 deep.
  EXPECT_EQ(detail::wgmma_short_rows_splits(d, 16, 4096, 2048), 2u);
  EXPECT_EQ(detail::wgmma_short_rows_splits(d, 16, 4096, 1000), 1u);
  // From two rows, before the wide kernel; one row stays there.
  EXPECT_EQ(plan_gemm(d, 2, 4096, 14336, {}, DataType::BF16).path, GemmPath::Wgmma);
  const GemmCall two_rows = row_major_call(2, 4096, 14336, 1.0f, 0.0f, nullptr, nullptr, nullptr);
  GemmCall one_row = row_major_call(1, 4096, 14336, 1.0f, 0.0f, nullptr, nullptr, nullptr);
  GemmCall bf16_two = two_rows;
  for (GemmCall* c : {&bf16_two, &one_row}) c->a_type = c->b_type = DataType::BF16;
  EXPECT_EQ(plan_call(d, bf16_two).parts.at(0).plan.path, GemmPath::Wgmma) << plan_call(d, bf16_two).describe();
  EXPECT_EQ(plan_call(d, one_row).parts.at(0).plan.path, GemmPath::Wide);
  EXPECT_EQ(plan_call(d, two_rows).parts.at(0).plan.path, GemmPath::Wide) << "float32 rows";
  EXPECT_EQ(detail::wgmma_short_rows_splits(d, 64, 4096, 14336), 4u);
  // Outside the rule: float32, one row or more than 256, small weights, batches.
  EXPECT_FALSE(detail::wgmma_short_rows_pay(16, 4096, 14336, DataType::F32, 1));
  EXPECT_FALSE(detail::wgmma_short_rows_pay(1, 4096, 14336, DataType::BF16, 1));
  EXPECT_FALSE(detail::wgmma_short_rows_pay(257, 4096, 14336, DataType::BF16, 1));
  EXPECT_FALSE(detail::wgmma_short_rows_pay(16, 1024, 2048, DataType::BF16, 1));
  EXPECT_TRUE(detail::wgmma_short_rows_pay(48, 2048, 7168, DataType::BF16, 1)) << "an expert's weights";
  EXPECT_FALSE(detail::wgmma_short_rows_pay(16, 4096, 14336, DataType::BF16, 2));
  EXPECT_NE(plan_gemm(d, 16, 1024, 2048, {}, DataType::BF16).path, GemmPath::Wgmma);
  EXPECT_NE(plan_gemm(d, 257, 4096, 14336, {}, DataType::BF16).params.at("STAGES"), 4)
      << "257 rows take the square-product rule's tiles";
  // 65 to 128 rows: 128×64 tiles in as many parts as one round of the units holds.
  for (const size_t rows : {65, 96, 128}) {
    const GemmPlan mid = plan_gemm(d, rows, 4096, 14336, {}, DataType::BF16);
    ASSERT_EQ(mid.path, GemmPath::Wgmma) << mid.describe();
    for (const auto& [name, value] : detail::kWgmmaMidRowTiles) EXPECT_EQ(mid.params.at(name), value) << name;
    EXPECT_EQ(mid.splits, 2u) << rows << " rows: 64 tiles";
    EXPECT_NE(mid.reason.find("128-row tiles"), std::string::npos) << mid.reason;
  }
  EXPECT_EQ(plan_gemm(d, 128, 14336, 4096, {}, DataType::F16).splits, 1u) << "224 tiles fill the units whole";
  // 129 to 256 rows: 128×128 tiles.
  const GemmPlan two_tiles = plan_gemm(d, 256, 4096, 14336, {}, DataType::BF16);
  ASSERT_EQ(two_tiles.path, GemmPath::Wgmma);
  for (const auto& [name, value] : detail::kWgmmaMidRowWideTiles) EXPECT_EQ(two_tiles.params.at(name), value) << name;
  EXPECT_EQ(two_tiles.splits, 2u);
  EXPECT_EQ(detail::wgmma_short_rows_splits(d, 200, 14336, 4096), 1u);
  EXPECT_EQ(detail::wgmma_short_rows_splits(d, 128, 1024, 16384), 4u) << "16 tiles: 8 parts wanted, 4 at most";
  // A caller's parameters or splits win over the rule's.
  GemmOptions two;
  two.force_splits = 2;
  EXPECT_EQ(plan_gemm(d, 16, 4096, 14336, two, DataType::BF16).splits, 2u);
  // Without patching the rule does not apply.
  DeviceInfo plain = d;
  plain.sm90a_patching = false;
  EXPECT_NE(plan_gemm(plain, 16, 4096, 14336, {}, DataType::BF16).path, GemmPath::Wgmma);
}

// The planner's own plan for m short rows of `in` against a K×N (or, transposed, N×K) B, on this
// device where it takes wgmma: C of f32 with guard zones and ldc > n, against float64 over the
// products' magnitudes.
void check_short_rows_on_device(DataType in, size_t m, size_t n, size_t k, bool b_transposed) {
  const size_t lda = k + 8, ldb = b_transposed ? k + 8 : n + 8, ldc = n + 3, guard = 41;
  std::mt19937 rng(unsigned(m * 131 + n + k + b_transposed));
  const auto random = [&](size_t count) { return random_stored(in, count, rng); };
  const size_t b_rows = b_transposed ? n : k;
  const std::vector<double> a = random(m * lda), b = random(b_rows * ldb), c0 = random(guard + m * ldc + guard);
  const Context& ctx = shared_context();
  cl::Buffer da = upload_as(ctx, in, a), db = upload_as(ctx, in, b), dc = upload_as(ctx, DataType::F32, c0);
  GemmCall call;
  call.m = m, call.n = n, call.k = k;
  call.b_transpose = b_transposed ? Transpose::Yes : Transpose::No;
  call.a = {da(), 0, lda}, call.b = {db(), 0, ldb}, call.c = {dc(), guard, ldc};
  call.a_type = call.b_type = in, call.c_type = DataType::F32;
  call.alpha = 1.25, call.beta = -0.5;
  const CallPlan plan = plan_call(planning_device(ctx.info()), call);
  ASSERT_EQ(plan.parts.at(0).plan.path, GemmPath::Wgmma) << plan.describe();
  cl_event ev = nullptr;
  gemm(call, ctx.queue()(), &ev);
  wait_and_release(ev);
  std::vector<float> got(c0.size());
  ctx.queue().enqueueReadBuffer(dc, CL_TRUE, 0, got.size() * sizeof(float), got.data());
  const double unit = (std::sqrt(double(k)) + 4) * 1.2e-7;
  size_t wrong = 0, strays = 0;
  for (size_t x = 0; x < c0.size(); ++x) {
    const size_t at = x - guard, i = at / ldc, j = at % ldc;
    if (x < guard || i >= m || j >= n) {
      strays += got[x] != float(c0[x]);
      continue;
    }
    double sum = 0, mag = 0;
    for (size_t p = 0; p < k; ++p) {
      const double t = a[i * lda + p] * (b_transposed ? b[j * ldb + p] : b[p * ldb + j]);
      sum += t, mag += std::fabs(t);
    }
    const double want = call.alpha * sum + call.beta * c0[x];
    wrong += !(std::fabs(got[x] - want) <= unit * (1.5 * mag + 0.5 * std::fabs(c0[x])) + 1e-30);
  }
  EXPECT_EQ(wrong, 0u) << data_type_name(in) << " " << m << "x" << n << "x" << k
                       << (b_transposed ? ", B transposed" : "") << "\n" << plan.describe();
  EXPECT_EQ(strays, 0u) << "writes outside C";
}

TEST(WgmmaShortRowsOnDevice, PlannersChoiceMatchesFloat64) {
  if (!planning_device(shared_context().info()).sm90a_patching)
    GTEST_SKIP() << "needs an sm_90 GPU whose driver builds PTX patched for sm_90a";
  // Rows no multiple of 8, N no multiple of the 64-column tiles, K cut into parts and not.
  check_short_rows_on_device(DataType::BF16, 13, 4100, 4104, false);
  check_short_rows_on_device(DataType::F16, 37, 8195, 2056, false);
  check_short_rows_on_device(DataType::BF16, 21, 4097, 4096, true);
  check_short_rows_on_device(DataType::F16, 63, 16384, 1032, true);
  // Two rows (before the wide kernel) and a whole 64-row tile.
  check_short_rows_on_device(DataType::BF16, 2, 4104, 4100, false);
  check_short_rows_on_device(DataType::F16, 64, 4160, 4100, false);
  // 128-row tiles: rows on one tile and on two, odd N, K in parts and whole, B both ways.
  check_short_rows_on_device(DataType::BF16, 65, 4100, 8200, false);
  check_short_rows_on_device(DataType::F16, 127, 4097, 4104, true);
  check_short_rows_on_device(DataType::BF16, 200, 8195, 2056, false);
  check_short_rows_on_device(DataType::F16, 256, 4160, 4100, true);
}

}  // namespace
}  // namespace clgemm::test
