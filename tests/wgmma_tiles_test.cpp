// wgmma_tiles_test.cpp — every large tile, stage count and schedule of the wgmma kernel forced
// through the public API on an sm_90 (skipped elsewhere): tiles of 128×256, 256×128, 192×192 and
// more with up to six slices of 128-byte rows in local memory past 48 KiB, and the warp-specialised
// schedule (WS), in f16, bf16 and TF32, with B stored transposed and as stored, single products at
// sizes off every tile, a product of more tiles than the persistent work-groups, and strided batches;
// against float64, with every element of C's buffer outside the products checked untouched.
#include "kernels/gemm/wgmma/wgmma_kernel.hpp"

#include "test_support.hpp"

#include <clgemm/cpu.hpp>
#include <clgemm/error.hpp>
#include <clgemm/gemm.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

namespace clgemm::test {
namespace {

struct Product {
  size_t m, n, k, items;
};

// Sizes off every tile (and one smaller than any), and a strided batch.
const std::vector<Product> kProducts = {{300, 200, 1000, 1}, {129, 257, 65, 1}, {7, 9, 13, 1}, {70, 390, 90, 3}};

std::string text_of(const KernelParams& ps) {
  std::string s;
  for (const auto& [name, value] : ps) s += (s.empty() ? "" : ",") + name + "=" + std::to_string(value);
  return s;
}

// One forced call of `items` products m×n×k (row-major; B N×K where `b_transposed`, else K×N) of
// `in` operands into a float32 C, against float64. Returns the wrong elements of C's buffer: inside
// a product off the tolerance, outside any product changed at all.
size_t wrong_elements(DataType in, bool b_transposed, const Product& sh, const KernelParams& ps, std::string& plan,
                      Math math = Math::Tf32) {
  const Context& ctx = shared_context();
  // Rows of A and B on 128-byte lines (read in place), C's rows ragged, items apart by odd gaps.
  const size_t elem = in == DataType::F32 ? 4 : 2, line = 128 / elem;
  const size_t lda = (sh.k + line - 1) / line * line, ldb_cols = b_transposed ? sh.k : sh.n;
  const size_t ldb = (ldb_cols + line - 1) / line * line, ldc = sh.n + 3;
  const size_t a_item = sh.m * lda + line, b_item = (b_transposed ? sh.n : sh.k) * ldb + line;
  const size_t c_item = sh.m * ldc + 5;
  std::mt19937 rng{unsigned(fresh_seed())};
  const auto random = [&](size_t count) { return random_stored(in, count, rng); };
  const std::vector<double> a = random(sh.items * a_item), b = random(sh.items * b_item);
  std::vector<double> c = random(sh.items * c_item + 64);
  cl::Buffer da = upload_as(ctx, in, a), db = upload_as(ctx, in, b), dc = upload_as(ctx, DataType::F32, c);
  GemmCall call;
  call.m = sh.m, call.n = sh.n, call.k = sh.k;
  call.b_transpose = b_transposed ? Transpose::Yes : Transpose::No;
  call.a = {da(), 0, lda}, call.b = {db(), 0, ldb}, call.c = {dc(), 0, ldc};
  call.a_type = call.b_type = in, call.c_type = DataType::F32;
  call.alpha = -1.25, call.beta = 0.5;
  GemmOptions forced;
  forced.force_path = GemmPath::Wgmma;
  forced.force_params = ps;
  if (in == DataType::F32) forced.math = math;
  const DeviceInfo device = planning_device(ctx.info());
  plan = plan_call(device, call, forced, sh.items, a.size(), b.size(), c.size()).describe();
  cl_event ev = nullptr;
  if (sh.items > 1)
    gemm_strided_batched(call, a_item, b_item, c_item, sh.items, ctx.queue()(), &ev, forced);
  else
    gemm(call, ctx.queue()(), &ev, forced);
  wait_and_release(ev);
  const std::vector<float> got = download(ctx, dc, c.size());
  // TF32 keeps 10 of float's 23 bits of each input; 16-bit inputs multiply exactly and 3xTF32 carries
  // each input to 2^-20 of itself, sums in float32.
  const double unit = in == DataType::F32 && math == Math::Tf32 ? std::ldexp(1.0, -9) : (double(sh.k) + 4) * 1.2e-7;
  size_t wrong = 0;
  for (size_t x = 0; x < c.size(); ++x) {
    const size_t item = x / c_item, at = x % c_item, i = at / ldc, j = at % ldc;
    if (item >= sh.items || i >= sh.m || j >= sh.n) {
      wrong += got[x] != float(c[x]);
      continue;
    }
    double sum = 0, mag = 0;
    for (size_t p = 0; p < sh.k; ++p) {
      const double y = b_transposed ? b[item * b_item + j * ldb + p] : b[item * b_item + p * ldb + j];
      const double t = a[item * a_item + i * lda + p] * y;
      sum += t, mag += std::fabs(t);
    }
    const double want = call.alpha * sum + call.beta * c[x];
    wrong += !(std::fabs(got[x] - want) <= unit * (std::fabs(call.alpha) * mag + std::fabs(call.beta * c[x])) + 1e-30);
  }
  return wrong;
}

// The configurations: the larger tiles without and with WS, each slice 128 bytes of every row.
std::vector<KernelParams> configurations(bool ws) {
  std::vector<KernelParams> out = {
      {{"BM", 128}, {"BN", 256}, {"WM", 64}, {"BK", 64}, {"STAGES", 4}},
      {{"BM", 128}, {"BN", 128}, {"WM", 64}, {"BK", 64}, {"STAGES", 6}},
      {{"BM", 256}, {"BN", 128}, {"WM", 128}, {"BK", 64}, {"STAGES", 4}},
      {{"BM", 192}, {"BN", 192}, {"WM", 64}, {"BK", 64}, {"STAGES", 4}},
      {{"BM", 256}, {"BN", 128}, {"WM", 64}, {"BK", 64}, {"STAGES", 3}},
  };
  if (ws) {
    out.push_back({{"BM", 128}, {"BN", 192}, {"WM", 64}, {"BK", 64}, {"STAGES", 5}});
    out.push_back({{"BM", 128}, {"BN", 128}, {"WM", 128}, {"BK", 64}, {"STAGES", 4}});
    for (auto& ps : out) ps["WS"] = 1;
  }
  return out;
}

bool wgmma_here() { return planning_device(shared_context().info()).sm90a_patching; }

// Each configuration in f16 and TF32 (bf16 for the first: the same code with another type), B
// both ways, on every product; without WS, by TMA where the device encodes maps (else cp.async).
void sweep(bool ws) {
  const std::vector<Product>& products = kProducts;
  const std::vector<KernelParams> configs = configurations(ws);
  for (size_t at = 0; at < configs.size(); ++at) {
    KernelParams ps = configs[at];
    if (!ws) ps["TMA"] = 1;
    std::vector<DataType> types = {DataType::F16, DataType::F32};
    if (at == 0) types.push_back(DataType::BF16);
    for (const DataType in : types)
      for (const bool bt : {true, false})
        for (const Product& sh : products) {
          std::string plan;
          const size_t wrong = wrong_elements(in, bt, sh, ps, plan);
          EXPECT_EQ(wrong, 0u) << text_of(ps) << " " << data_type_name(in) << (bt ? " B transposed " : " B as stored ")
                               << sh.items << "×" << sh.m << "×" << sh.n << "×" << sh.k << "\n" << plan;
        }
  }
}

// The planner's warp-specialised tiles (kWgmmaWideTiles) on every product in f16 and TF32 with B
// both ways (bf16 with B transposed), and on a product of more tiles than persistent work-groups
// (2100² in 128×256 tiles: 153 against 132 SMs), so that work-groups walk on to further tiles and
// the stages' phases carry over from tile to tile.
TEST(WgmmaTilesOnDevice, TheWideWarpSpecialisedTilesMatchFloat64) {
  if (!wgmma_here()) GTEST_SKIP() << "no wgmma here: the device is not an sm_90 whose driver builds PTX patched for sm_90a";
  if (!planning_device(shared_context().info()).tensor_maps)
    GTEST_SKIP() << "no tensor maps here (CLGEMM_TENSOR_MAPS=1 lets clgemm create the CUDA context they need)";
  const KernelParams& ps = detail::kWgmmaWideTiles;
  for (const DataType in : {DataType::F16, DataType::F32, DataType::BF16})
    for (const bool bt : {true, false}) {
      if (in == DataType::BF16 && !bt) continue;
      for (const Product& sh : kProducts) {
        std::string plan;
        EXPECT_EQ(wrong_elements(in, bt, sh, ps, plan), 0u)
            << data_type_name(in) << (bt ? " B transposed " : " B as stored ") << sh.items << "×" << sh.m << "×" << sh.n
            << "×" << sh.k << "\n" << plan;
      }
    }
  for (const DataType in : {DataType::F16, DataType::F32}) {
    std::string plan;
    EXPECT_EQ(wrong_elements(in, true, {2100, 2100, 200, 1}, ps, plan), 0u) << data_type_name(in) << "\n" << plan;
    EXPECT_NE(plan.find("persistent"), std::string::npos) << plan;
  }
}

TEST(WgmmaTilesOnDevice, LargeTilesMatchFloat64) {
  if (!wgmma_here()) GTEST_SKIP() << "no wgmma here: the device is not an sm_90 whose driver builds PTX patched for sm_90a";
  sweep(false);
}

TEST(WgmmaTilesOnDevice, WarpSpecialisedMatchesFloat64) {
  if (!wgmma_here()) GTEST_SKIP() << "no wgmma here: the device is not an sm_90 whose driver builds PTX patched for sm_90a";
  const DeviceInfo device = planning_device(shared_context().info());
  if (!device.tensor_maps) {
    // WS copies by TMA alone: forced without tensor maps, it is refused with the reason.
    std::string plan;
    try {
      wrong_elements(DataType::F16, true, {129, 257, 65, 1}, configurations(true).front(), plan);
      ADD_FAILURE() << "WS was accepted without tensor maps";
    } catch (const Error& e) {
      EXPECT_EQ(e.status(), Status::InvalidArgument);
      EXPECT_NE(std::string(e.what()).find("tensor maps"), std::string::npos) << e.what();
    }
    GTEST_SKIP() << "no tensor maps here (CLGEMM_TENSOR_MAPS=1 lets clgemm create the CUDA context they need)";
  }
  sweep(true);
}

// 3xTF32 in the tiles and stages that the 227 KiB of static local memory holds beside its lo
// buffers of B, with B both ways, on every product.
TEST(WgmmaTilesOnDevice, ThreeTf32LargeTilesMatchFloat64) {
  if (!wgmma_here()) GTEST_SKIP() << "no wgmma here: the device is not an sm_90 whose driver builds PTX patched for sm_90a";
  const std::vector<KernelParams> configs = {
      {{"BM", 128}, {"BN", 64}, {"WM", 64}, {"BK", 64}, {"STAGES", 4}},
      {{"BM", 128}, {"BN", 128}, {"WM", 64}, {"BK", 64}, {"STAGES", 4}},
      {{"BM", 64}, {"BN", 64}, {"WM", 64}, {"BK", 64}, {"STAGES", 6}},
      {{"BM", 256}, {"BN", 64}, {"WM", 64}, {"BK", 64}, {"STAGES", 4}},
  };
  for (const KernelParams& ps : configs)
    for (const bool bt : {true, false})
      for (const Product& sh : kProducts) {
        std::string plan;
        EXPECT_EQ(wrong_elements(DataType::F32, bt, sh, ps, plan, Math::Tf32x3), 0u)
            << text_of(ps) << " 3xTF32" << (bt ? " B transposed " : " B as stored ") << sh.items << "×" << sh.m << "×"
            << sh.n << "×" << sh.k << "\n" << plan;
      }
}

}  // namespace
}  // namespace clgemm::test
