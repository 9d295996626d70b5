// tensor_path_test.cpp — the tensor path (gemm/xmma/xmma.cl, GemmOptions::math): the planner's rule on
// the built-in H200 device and elsewhere, the kernel's constraints, and on a device that has the
// path (NVIDIA sm_80+; skipped elsewhere) the correctness sweep against OpenBLAS with C's guard
// zones checked, 3xTF32's accuracy against the float32 path's on the same inputs, infinities and
// NaNs, batches and the C API's math setting.
#include <clgemm/clgemm.h>
#include <clgemm/error.hpp>
#include <clgemm/gemm.hpp>

#include "kernels/gemm/xmma/xmma_kernel.hpp"
#include "gemm_case.hpp"
#include "test_support.hpp"

#include <cmath>
#include <limits>
#include <tuple>

namespace clgemm::test {
namespace {

GemmOptions with_math(Math math, GemmPath path = GemmPath::Auto, KernelParams params = {}) {
  GemmOptions o;
  o.math = math;
  o.force_path = path;
  o.force_params = std::move(params);
  return o;
}

bool runs_here() { return tensor_path_available(shared_context().info()); }

#define SKIP_WITHOUT_TENSOR_PATH() \
  if (!runs_here()) GTEST_SKIP() << "needs the tensor path (an NVIDIA GPU, sm_80 or newer)"

// ---- the planner ------------------------------------------------------------------------------

TEST(TensorPlan, TakenOnlyWhenAskedForOnADeviceThatHasIt) {
  const DeviceInfo h200 = fake_h200();
  EXPECT_NE(plan_gemm(h200, 2048, 2048, 2048).path, GemmPath::Tensor);  // Fp32 by default

  const GemmPlan x3 = plan_gemm(h200, 2048, 2048, 2048, with_math(Math::Tf32x3));
  EXPECT_EQ(x3.path, GemmPath::Tensor);
  EXPECT_EQ(x3.params.at("TERMS"), 3);
  EXPECT_EQ(x3.params.at("FK"), 1);  // a float32 add after every k8 step
  EXPECT_EQ(x3.params.at("BN"), 128);  // 256 tiles of 128×128 fill the 132 compute units
  EXPECT_EQ(plan_gemm(h200, 3000, 2900, 2100, with_math(Math::Tf32x3)).path, GemmPath::Tensor);  // 1.13× (H200)
  // 4128³: 1089 tiles of 128×128, 33 in a last round alone on their SMs; against the float32
  // path's interior 4096² with its edges apart. Measured 1.10× the float32 path (H200).
  EXPECT_EQ(plan_gemm(h200, 4128, 4128, 4128, with_math(Math::Tf32x3)).path, GemmPath::Tensor);
  EXPECT_NE(x3.describe().find("3xTF32"), std::string::npos) << x3.describe();

  const GemmPlan tf32 = plan_gemm(h200, 2048, 2048, 2048, with_math(Math::Tf32));
  EXPECT_EQ(tf32.path, GemmPath::Tensor);
  EXPECT_EQ(tf32.params.at("TERMS"), 1);
  EXPECT_EQ(tf32.params.at("FK"), 0);

  // Too small to pay; tiles that would leave compute units idle where the float32 path's would
  // not (2064³: 0.81×, 1024×1024×8192: 0.55× the float32 path, H200); or C of a few columns
  // (the tall kernel): float32, and the reason says so.
  for (const auto& [m, n, k] : {std::tuple<size_t, size_t, size_t>{32, 32, 32}, {1548, 1548, 1548}, {2064, 2064, 2064},
                                {1024, 1024, 8192}, {4096, 8, 4096}}) {
    const GemmPlan small = plan_gemm(h200, m, n, k, with_math(Math::Tf32x3));
    EXPECT_NE(small.path, GemmPath::Tensor) << m << "x" << n << "x" << k;
    EXPECT_NE(small.reason.find("float32 arithmetic although 3xTF32"), std::string::npos) << small.reason;
  }

  DeviceInfo other = h200;
  other.vendor = "Advanced Micro Devices, Inc.", other.architecture = "gfx90a";
  const GemmPlan fallback = plan_gemm(other, 2048, 2048, 2048, with_math(Math::Tf32x3));
  EXPECT_NE(fallback.path, GemmPath::Tensor);
  EXPECT_NE(fallback.reason.find("no tensor path"), std::string::npos) << fallback.reason;
  DeviceInfo turing = h200;
  turing.architecture = "sm_75";
  EXPECT_FALSE(tensor_path_available(turing));
  EXPECT_TRUE(tensor_path_available(h200));
}

TEST(TensorPlan, ForcingItNeedsTensorMathAndTheDevice) {
  const DeviceInfo h200 = fake_h200();
  EXPECT_EQ(plan_gemm(h200, 7, 7, 7, with_math(Math::Tf32x3, GemmPath::Tensor)).path, GemmPath::Tensor);
  try {
    plan_gemm(h200, 64, 64, 64, with_math(Math::Fp32, GemmPath::Tensor));
    ADD_FAILURE() << "forcing the tensor path with float32 math was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::InvalidArgument);
    EXPECT_NE(std::string(e.what()).find("math"), std::string::npos) << e.what();
  }
  DeviceInfo other = h200;
  other.vendor = "Intel(R) Corporation", other.architecture = "";
  EXPECT_THROW(plan_gemm(other, 64, 64, 64, with_math(Math::Tf32x3, GemmPath::Tensor)), Error);
}

// ---- the descriptor's constraints -------------------------------------------------------------

TEST(XmmaDescriptor, AcceptsValidAndRejectsInvalidConfigurations) {
  const DeviceInfo h200 = fake_h200();
  const auto& d = detail::xmma_descriptor();
  const std::vector<KernelParams> valid = {
      {},
      {{"BM", 64}, {"BN", 128}, {"WM", 32}, {"WN", 64}},
      {{"BM", 64}, {"BN", 64}, {"WM", 32}, {"WN", 32}, {"STAGES", 4}},
      {{"BK", 8}, {"STAGES", 4}, {"FK", 0}, {"TERMS", 1}},
  };
  for (const auto& ps : valid) EXPECT_NO_THROW(detail::resolve_params(d, h200, ps)) << detail::build_options(ps);
  const std::vector<KernelParams> invalid = {
      {{"WM", 48}},                                        // not dividing BM = 128
      {{"WN", 12}},                                        // not a multiple of 8
      {{"BK", 12}},                                        // not a multiple of 8
      {{"BM", 80}, {"WM", 16}},                            // not a multiple of 32
      {{"STAGES", 5}},                                     // 2-4 stages
      {{"TERMS", 2}},                                      // 1 or 3
      {{"FK", -1}},                                        // 0 or more
      {{"BM", 128}, {"BN", 128}, {"BK", 32}, {"STAGES", 4}},  // 139 KB of local memory
      {{"BM", 32}, {"BN", 32}, {"WM", 16}, {"WN", 8}, {"BK", 8}},  // 8 warps for 64 float4s of A
  };
  for (const auto& ps : invalid) EXPECT_THROW(detail::resolve_params(d, h200, ps), Error) << detail::build_options(ps);
  DeviceInfo other = h200;
  other.vendor = "Portable Computing Language", other.architecture = "skylake-avx512";
  EXPECT_THROW(detail::resolve_params(d, other, {}), Error);
}

// ---- on a device with the path ----------------------------------------------------------------

// Sizes that are not multiples of any tile, and tiles exactly (the dense second case of each shape
// reads whole-tile operands in place).
const std::vector<std::tuple<size_t, size_t, size_t>> kShapes = {
    {1, 1, 1}, {7, 63, 65}, {129, 65, 127}, {200, 17, 300}, {256, 128, 64}, {1000, 129, 63}};

TEST(TensorPath, ThreeTf32MatchesOpenBlasWithinFloat32Tolerance) {
  SKIP_WITHOUT_TENSOR_PATH();
  run_every_layout(kShapes, with_math(Math::Tf32x3, GemmPath::Tensor));
}

TEST(TensorPath, Tf32MatchesOpenBlasWithinTf32Tolerance) {
  SKIP_WITHOUT_TENSOR_PATH();
  run_every_layout({{65, 129, 1000}, {128, 64, 32}}, with_math(Math::Tf32, GemmPath::Tensor));
}

TEST(TensorPath, OtherTileShapesAndTheMmaSummingAllOfK) {
  SKIP_WITHOUT_TENSOR_PATH();
  for (const KernelParams& ps : std::vector<KernelParams>{{{"BM", 64}, {"BN", 128}, {"WM", 32}, {"WN", 64}},
                                                          {{"BM", 64}, {"BN", 64}, {"WM", 32}, {"WN", 32}, {"STAGES", 2}, {"BK", 32}},
                                                          {{"BK", 8}, {"STAGES", 4}, {"FK", 0}}})
    run_every_layout({{129, 65, 127}, {64, 256, 32}}, with_math(Math::Tf32x3, GemmPath::Tensor, ps));
}

TEST(TensorPath, PlannedUnforcedForALargeCall) {
  SKIP_WITHOUT_TENSOR_PATH();
  const GemmOptions o = with_math(Math::Tf32x3);
  ASSERT_EQ(plan_gemm(shared_context().info(), 3000, 2900, 2100, o).path, GemmPath::Tensor);
  run_case({Layout::RowMajor, Transpose::No, Transpose::No, 3000, 2900, 2100, 5, 7, 0.75f, -2.0f}, o);
}

// Root-mean-square error of C against a float64 product, relative to that of |A|·|B|.
double relative_rms(const std::vector<float>& c, const std::vector<double>& ref, const std::vector<double>& scale) {
  double diff = 0, norm = 0;
  for (size_t i = 0; i < c.size(); ++i) {
    diff += (c[i] - ref[i]) * (c[i] - ref[i]);
    norm += scale[i] * scale[i];
  }
  return std::sqrt(diff / norm);
}

// 3xTF32 against float32 arithmetic as the reference BLAS does it (one running float32 sum per
// element, over k in order), on the same inputs: uniform in [-1, 1) (sums that cancel) and in
// [0, 1) (sums that only grow, where the MMA's truncating adds would show as a bias), K long.
TEST(TensorPath, ThreeTf32IsAsAccurateAsAFloat32Loop) {
  SKIP_WITHOUT_TENSOR_PATH();
  Context& ctx = shared_context();
  const size_t m = 64, n = 64, k = 4096;
  for (bool positive : {false, true}) {
    std::vector<float> a(m * k), b(k * n);
    const uint64_t seed = fresh_seed();
    cpu::fill_random(a, seed);
    cpu::fill_random(b, seed + 1);
    if (positive) {
      for (float& x : a) x = std::fabs(x);
      for (float& x : b) x = std::fabs(x);
    }
    std::vector<float> abs_a(a), abs_b(b);
    for (float& x : abs_a) x = std::fabs(x);
    for (float& x : abs_b) x = std::fabs(x);
    const std::vector<double> ref = reference_gemm(m, n, k, 1.0f, a.data(), b.data(), 0.0f, nullptr);
    const std::vector<double> scale = reference_gemm(m, n, k, 1.0f, abs_a.data(), abs_b.data(), 0.0f, nullptr);
    std::vector<float> loop(m * n);
    for (size_t i = 0; i < m; ++i)
      for (size_t j = 0; j < n; ++j) {
        float sum = 0.0f;
        for (size_t p = 0; p < k; ++p) sum = std::fma(a[i * k + p], b[p * n + j], sum);
        loop[i * n + j] = sum;
      }
    cl::Buffer da = upload(ctx, a), db = upload(ctx, b), dc = ctx.buffer(m * n * sizeof(float));
    gemm(row_major_call(m, n, k, 1.0f, 0.0f, da(), db(), dc()), ctx.queue()(), nullptr,
         with_math(Math::Tf32x3, GemmPath::Tensor));
    const double err = relative_rms(download(ctx, dc, m * n), ref, scale), err_loop = relative_rms(loop, ref, scale);
    // Measured on the H200 (4096³, max over 300 elements): 0.41× the loop's error in [-1, 1) and
    // 0.34× in [0, 1).
    EXPECT_LE(err, err_loop) << (positive ? "inputs in [0, 1)" : "inputs in [-1, 1)") << ": 3xTF32 " << err
                             << ", float32 loop " << err_loop << ", seed " << seed;
    EXPECT_LE(err, cpu::gemm_tolerance(k));
  }
}

// An infinite input makes 3xTF32's low part ∞ − ∞ = NaN; the kernel computes such elements
// again in float32. The result must be what float32 arithmetic gives: ±∞ where it gives ±∞, NaN
// where ∞·0 or ∞ − ∞ meets, finite elsewhere.
TEST(TensorPath, InfinitiesAndNansComeOutAsInFloat32) {
  SKIP_WITHOUT_TENSOR_PATH();
  Context& ctx = shared_context();
  const size_t m = 130, n = 70, k = 90;
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<float> a(m * k), b(k * n);
  cpu::fill_random(a, fresh_seed());
  for (float& x : a) x = std::fabs(x) + 0.5f;  // positive: no sum of finite products cancels to ∞ − ∞
  cpu::fill_random(b, fresh_seed());
  for (float& x : b) x = std::fabs(x) + 0.5f;
  a[0 * k + 3] = inf;           // row 0: +∞ wherever B's row 3 is positive
  a[1 * k + 5] = -inf;          // row 1: −∞
  b[5 * n + 2] = 0.0f;          // ... but −∞·0 = NaN in column 2
  a[2 * k + 7] = inf, a[2 * k + 8] = -inf;  // row 2: ∞ − ∞ = NaN everywhere
  a[3 * k + 9] = nan;           // row 3: NaN
  b[11 * n + 4] = inf;          // column 4: +∞ (rows 1-3 stay NaN or −∞ + ∞ = NaN)
  cl::Buffer da = upload(ctx, a), db = upload(ctx, b), dc = ctx.buffer(m * n * sizeof(float));
  std::vector<float> got[2];
  for (int i = 0; i < 2; ++i) {
    const GemmOptions o = i == 0 ? GemmOptions{} : with_math(Math::Tf32x3, GemmPath::Tensor);
    gemm(row_major_call(m, n, k, 1.0f, 0.0f, da(), db(), dc()), ctx.queue()(), nullptr, o);
    got[i] = download(ctx, dc, m * n);
  }
  const std::vector<float>& want = got[0];
  for (size_t i = 0; i < m * n; ++i) {
    const float x = got[1][i], w = want[i];
    if (std::isnan(w)) {
      EXPECT_TRUE(std::isnan(x)) << "element " << i << ": " << x << ", float32 gives NaN";
    } else if (std::isinf(w)) {
      EXPECT_EQ(x, w) << "element " << i;
    } else {
      ASSERT_TRUE(std::isfinite(x)) << "element " << i << ": " << x << ", float32 gives " << w;
      EXPECT_NEAR(x, w, 1e-4 * std::fabs(w)) << "element " << i;
    }
  }
  // The cases above all occurred.
  EXPECT_EQ(want[0 * n + 0], inf);
  EXPECT_EQ(want[1 * n + 0], -inf);
  EXPECT_TRUE(std::isnan(want[1 * n + 2]));
  EXPECT_TRUE(std::isnan(want[2 * n + 0]));
  EXPECT_TRUE(std::isnan(want[3 * n + 0]));
  EXPECT_EQ(want[10 * n + 4], inf);
}

TEST(TensorPath, StridedBatchMatchesEachItemAlone) {
  SKIP_WITHOUT_TENSOR_PATH();
  Context& ctx = shared_context();
  const size_t m = 129, n = 130, k = 131, count = 3;
  const size_t sa = m * k + 5, sb = k * n + 3, sc = m * n + 9;  // strides off float4 boundaries
  std::vector<float> a(sa * count), b(sb * count), c(sc * count);
  const uint64_t seed = fresh_seed();
  cpu::fill_random(a, seed);
  cpu::fill_random(b, seed + 1);
  cpu::fill_random(c, seed + 2);
  cl::Buffer da = upload(ctx, a), db = upload(ctx, b);
  GuardedBuffer dc(ctx, c.size());
  ctx.queue().enqueueWriteBuffer(dc.view(), CL_TRUE, 0, c.size() * sizeof(float), c.data());
  GemmCall call = row_major_call(m, n, k, 1.25f, -0.5f, da(), db(), dc.view()());
  gemm_strided_batched(call, sa, sb, sc, count, ctx.queue()(), nullptr, with_math(Math::Tf32x3, GemmPath::Tensor));
  const std::vector<float> got = dc.read();
  EXPECT_EQ(dc.guard_damage(), "");
  for (size_t item = 0; item < count; ++item) {
    const std::vector<double> want =
        reference_gemm(m, n, k, 1.25f, a.data() + item * sa, b.data() + item * sb, -0.5f, c.data() + item * sc);
    double diff = 0, norm = 0;
    for (size_t i = 0; i < m * n; ++i) {
      diff += (got[item * sc + i] - want[i]) * (got[item * sc + i] - want[i]);
      norm += want[i] * want[i];
    }
    EXPECT_LE(std::sqrt(diff / norm), 2 * cpu::gemm_tolerance(k)) << "batch item " << item << ", seed " << seed;
    for (size_t i = m * n; i < sc && item + 1 < count; ++i)
      EXPECT_EQ(got[item * sc + i], c[item * sc + i]) << "gap after item " << item << " written";
  }
}

TEST(TensorCApi, MathIsSetPerThreadAndChecked) {
  EXPECT_EQ(clgemmGetMath(), clgemmMathFp32);
  EXPECT_EQ(clgemmSetMath(static_cast<clgemmMath>(7)), clgemmInvalidArgument);
  EXPECT_NE(std::string(clgemmLastErrorMessage()).find("math"), std::string::npos);
  EXPECT_EQ(clgemmGetMath(), clgemmMathFp32);
  ASSERT_EQ(clgemmSetMath(clgemmMathTf32x3), clgemmSuccess);
  EXPECT_EQ(clgemmGetMath(), clgemmMathTf32x3);
  // A call with it set: the tensor path where the device has one, float32 elsewhere; right either way.
  Context& ctx = shared_context();
  const size_t m = 300, n = 260, k = 270;
  std::vector<float> a(m * k), b(k * n);
  cpu::fill_random(a, fresh_seed());
  cpu::fill_random(b, fresh_seed());
  cl::Buffer da = upload(ctx, a), db = upload(ctx, b), dc = ctx.buffer(m * n * sizeof(float));
  cl_command_queue q = ctx.queue()();
  ASSERT_EQ(clgemmSgemm(clgemmLayoutRowMajor, clgemmTransposeNo, clgemmTransposeNo, m, n, k, 1.0f, da(), 0, k, db(), 0,
                        n, 0.0f, dc(), 0, n, &q, nullptr),
            clgemmSuccess)
      << clgemmLastErrorMessage();
  const std::vector<float> got = download(ctx, dc, m * n);
  const std::vector<double> want = reference_gemm(m, n, k, 1.0f, a.data(), b.data(), 0.0f, nullptr);
  EXPECT_LE(cpu::relative_error(got.data(), want.data(), got.size()), cpu::gemm_tolerance(k));
  ASSERT_EQ(clgemmSetMath(clgemmMathFp32), clgemmSuccess);
}

}  // namespace
}  // namespace clgemm::test
