// batched_items_test.cpp — batches as the planner runs them, nothing forced: batch counts 1, 2, 3,
// 1000 and 65537 (more items than one NDRange dimension holds on NVIDIA, so the call runs in
// pieces), items of 1×1×1, 7×9×13 and 32³ (the batched class's), every item checked against
// float64 with gaps between items and guard zones around C; per-item alpha and beta with 0 and
// NaN in C; the tiny kernel (the planner's for the small items here) forced on every layout; and
// the batched class's plans for the H200's built-in entry.
#include <clgemm/gemm.hpp>

#include "gemm_case.hpp"
#include "test_support.hpp"

#include <cmath>
#include <limits>

namespace clgemm::test {
namespace {

struct Item {
  size_t m, n, k;
};

// A strided batch of `count` row-major items, each operand's items `gap` elements apart beyond
// their size, C in a guarded buffer; every item, every gap and both guard zones checked.
void check_strided(const Item& it, size_t count, float alpha, float beta) {
  Context& ctx = shared_context();
  const size_t gap = 3, sa = it.m * it.k + gap, sb = it.k * it.n + gap, sc = it.m * it.n + gap;
  std::vector<float> a(sa * count), b(sb * count), c(sc * count);
  const uint64_t seed = fresh_seed();
  cpu::fill_random(a, seed);
  cpu::fill_random(b, seed + 1);
  cpu::fill_random(c, seed + 2);
  GuardedBuffer dc(ctx, c.size());
  dc.poison();
  ctx.queue().enqueueWriteBuffer(dc.view(), CL_TRUE, 0, c.size() * sizeof(float), c.data());
  const cl::Buffer da = upload(ctx, a), db = upload(ctx, b);
  cl_event ev = nullptr;
  gemm_strided_batched(row_major_call(it.m, it.n, it.k, alpha, beta, da(), db(), dc.view()()), sa, sb, sc, count,
                       ctx.queue()(), &ev);
  wait_and_release(ev);
  const std::vector<float> got = dc.read();
  const std::string what = std::to_string(count) + " items of " + shape_text({it.m, it.n, it.k});
  EXPECT_EQ(dc.guard_damage(), "") << what;
  // Each element against the sum of its terms' magnitudes, |alpha|·Σ|a·b| + |beta·c|, not a
  // relative error over C: an item of 1×1×1 can cancel to almost nothing (0.75·a·b close to
  // 0.5·c), where float32's rounding of the terms is all that is left.
  const double tol = cpu::gemm_tolerance(it.k);
  for (size_t i = 0; i < count; ++i) {
    const auto ref = reference_gemm(it.m, it.n, it.k, alpha, &a[i * sa], &b[i * sb], beta, &c[i * sc]);
    for (size_t r = 0; r < it.m; ++r)
      for (size_t col = 0; col < it.n; ++col) {
        double terms = std::fabs(double(beta) * c[i * sc + r * it.n + col]);
        for (size_t p = 0; p < it.k; ++p)
          terms += std::fabs(double(alpha) * a[i * sa + r * it.k + p] * b[i * sb + p * it.n + col]);
        const double g = got[i * sc + r * it.n + col], w = ref[r * it.n + col];
        ASSERT_TRUE(std::fabs(g - w) <= tol * terms) << what << ", item " << i << " (" << r << ", " << col
                                                     << "): " << g << " against " << w << " (seed " << seed << ")";
      }
    for (size_t j = i * sc + it.m * it.n; j < (i + 1) * sc; ++j)
      ASSERT_EQ(got[j], c[j]) << what << ": the gap after item " << i << " was written";
  }
}

TEST(BatchedItems, StridedCountsAndItemShapes) {
  for (const Item& it : {Item{1, 1, 1}, Item{7, 9, 13}, Item{32, 32, 32}})
    for (size_t count : {1, 2, 3, 1000}) check_strided(it, count, 0.75f, -0.5f);
}

// 65537 items: one more than NVIDIA's 65535 work-groups along an NDRange's second and third
// dimensions allow, so the batch runs in two launches on any device.
TEST(BatchedItems, MoreItemsThanOneGridDimensionHolds) {
  check_strided({1, 1, 1}, 65537, 1.0f, 0.0f);
  check_strided({7, 9, 13}, 65537, 2.0f, 1.0f);
}

// Per-item alpha and beta by arrays: beta = 0 never reads C (NaN there is overwritten), alpha = 0
// leaves beta·C, and a NaN that is read (beta = 1) stays NaN.
TEST(BatchedItems, PerItemScalarsWithZeroAndNan) {
  Context& ctx = shared_context();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  for (const Item& it : {Item{7, 9, 13}, Item{32, 32, 32}}) {
    const std::vector<double> alphas = {1.0, 0.0, 0.0, -2.0, 1.0}, betas = {0.0, 0.5, 0.0, 0.0, 1.0};
    const std::vector<bool> nan_c = {true, false, true, false, true};
    const size_t count = alphas.size(), sa = it.m * it.k, sb = it.k * it.n, sc = it.m * it.n;
    std::vector<float> a(sa * count), b(sb * count), c(sc * count);
    const uint64_t seed = fresh_seed();
    cpu::fill_random(a, seed);
    cpu::fill_random(b, seed + 1);
    cpu::fill_random(c, seed + 2);
    for (size_t i = 0; i < count; ++i)
      if (nan_c[i]) std::fill(c.begin() + long(i * sc), c.begin() + long((i + 1) * sc), nan);
    std::vector<size_t> ao(count), bo(count), co(count);
    for (size_t i = 0; i < count; ++i) ao[i] = i * sa, bo[i] = i * sb, co[i] = i * sc;
    GuardedBuffer dc(ctx, c.size());
    dc.poison();
    ctx.queue().enqueueWriteBuffer(dc.view(), CL_TRUE, 0, c.size() * sizeof(float), c.data());
    const cl::Buffer da = upload(ctx, a), db = upload(ctx, b);
    cl_event ev = nullptr;
    gemm_batched(row_major_call(it.m, it.n, it.k, 1, 0, da(), db(), dc.view()()), alphas, betas, ao, bo, co,
                 ctx.queue()(), &ev);
    wait_and_release(ev);
    const std::vector<float> got = dc.read();
    EXPECT_EQ(dc.guard_damage(), "");
    for (size_t i = 0; i < count; ++i) {
      const std::vector<float> item(got.begin() + long(co[i]), got.begin() + long(co[i] + sc));
      if (nan_c[i] && betas[i] != 0) {
        for (size_t e = 0; e < sc; ++e) ASSERT_TRUE(std::isnan(item[e])) << "item " << i << ", C[" << e << "]";
        continue;
      }
      const auto want = reference_gemm(it.m, it.n, it.k, float(alphas[i]), &a[ao[i]], &b[bo[i]], float(betas[i]),
                                       betas[i] != 0 ? &c[co[i]] : nullptr);
      ASSERT_TRUE(matches_reference(item, want, it.k, seed)) << shape_text({it.m, it.n, it.k}) << ", item " << i;
    }
  }
}

// The tiny kernel forced on every layout and transpose with padded leading dimensions, offsets,
// alpha and beta and C's guard zones (gemm_case.cpp); by strides and by arrays; another
// work-group size; the planner's rule; a work-group size it cannot run.
TEST(BatchedItems, TinyKernelEveryLayoutAndBatch) {
  run_every_layout({{1, 1, 1}, {3, 7, 5}, {16, 16, 64}, {5, 33, 17}}, forced(GemmPath::Tiny));
  check_batched_calls(7, 9, 13, forced(GemmPath::Tiny));
  check_batched_calls(16, 16, 64, forced(GemmPath::Tiny, {{"WG", 64}}));
  const DeviceInfo& d = shared_context().info();
  EXPECT_EQ(plan_gemm(d, 8, 8, 8, {}, DataType::F32, 2).path, GemmPath::Tiny);
  EXPECT_EQ(plan_gemm(d, 8, 16, 64, {}, DataType::F64, 1000).path, GemmPath::Tiny);
  EXPECT_NE(plan_gemm(d, 16, 16, 16, {}, DataType::F32, 1000).path, GemmPath::Tiny) << "256 elements of C";
  EXPECT_NE(plan_gemm(d, 8, 8, 8).path, GemmPath::Tiny) << "one item";
  EXPECT_NE(plan_gemm(d, 32, 32, 32, {}, DataType::F32, 100).path, GemmPath::Tiny) << "1024 elements of C";
  EXPECT_NE(plan_gemm(d, 8, 8, 65, {}, DataType::F32, 100).path, GemmPath::Tiny) << "65 deep";
  EXPECT_THROW(plan_gemm(d, 8, 8, 8, forced(GemmPath::Tiny, {{"WG", 48}}), DataType::F32, 4), Error);
  EXPECT_THROW(plan_gemm(d, 8, 8, 8, forced(GemmPath::Tiny, {{"TM", 16}}), DataType::F32, 4), Error);
}

// The H200's batched entry serves batches of items below the mid class, each from the tiles
// measured best there (data/tuning/nvidia-h200.json); single calls and batches of large items
// keep their own class's plan.
TEST(BatchedItems, BatchedClassPlansOnTheH200) {
  const DeviceInfo h200 = fake_h200();
  const auto tile = [](const GemmPlan& p) {
    return std::to_string(p.params.at("MWG")) + "x" + std::to_string(p.params.at("NWG"));
  };
  const GemmPlan tiny = plan_gemm(h200, 32, 32, 32, {}, DataType::F32, 4096);
  EXPECT_TRUE(tiny.batched) << tiny.describe();
  EXPECT_EQ(tile(tiny), "16x32") << tiny.describe();
  const GemmPlan mid = plan_gemm(h200, 128, 128, 128, {}, DataType::F32, 1024);
  EXPECT_TRUE(mid.batched);
  EXPECT_EQ(tile(mid), "32x128") << mid.describe();
  const GemmPlan big = plan_gemm(h200, 512, 512, 512, {}, DataType::F32, 64);
  EXPECT_EQ(tile(big), "128x128") << big.describe();
  EXPECT_FALSE(plan_gemm(h200, 32, 32, 32).batched) << "one item plans as one GEMM";
  EXPECT_FALSE(plan_gemm(h200, 4096, 4096, 4096, {}, DataType::F32, 2).batched) << "items of the large class";
  EXPECT_EQ(plan_gemm(h200, 32, 32, 32, {}, DataType::F32, 4096).describe(), tiny.describe()) << "the cached plan";
}

}  // namespace
}  // namespace clgemm::test
