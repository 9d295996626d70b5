// tall_test.cpp — the tall path (gemm/tall/tall.cl): forced on every layout and transpose it can read,
// at ragged sizes, with padded leading dimensions, odd offsets and alpha/beta, against OpenBLAS
// with C's guard zones checked (gemm_case.cpp); several parameter sets; batches; the planner's
// rule on the built-in H200 device; and the calls it must refuse or hand on.
#include <clgemm/error.hpp>
#include <clgemm/gemm.hpp>

#include "kernels/gemm/tall/tall_kernel.hpp"
#include "plan/plan_call.hpp"
#include "gemm_case.hpp"
#include "test_support.hpp"

#include <tuple>

namespace clgemm::test {
namespace {

// The layouts and transposes whose op(A) the tall kernel reads in place: in row-major terms A
// not transposed. A column-major call is the row-major C^T = op(B)^T·op(A)^T, so there the
// caller's B plays A (not transposed), and C's few columns are the caller's few rows.
struct Readable {
  Layout layout;
  Transpose ta, tb;
};
const Readable kReadable[] = {{Layout::RowMajor, Transpose::No, Transpose::No},
                              {Layout::RowMajor, Transpose::No, Transpose::Yes},
                              {Layout::ColMajor, Transpose::No, Transpose::No},
                              {Layout::ColMajor, Transpose::Yes, Transpose::No}};

// (many, few, k): C is many×few in row-major terms.
const std::tuple<size_t, size_t, size_t> kShapes[] = {{1, 1, 1},     {7, 3, 5},      {65, 16, 127},
                                                      {129, 9, 1000}, {1000, 16, 63}, {300, 4, 4099}};

TEST(TallPath, ForcedMatchesOpenBlasOnEveryReadableLayout) {
  for (const Readable& r : kReadable)
    for (const auto& [many, few, k] : kShapes)
      for (size_t pad : {0, 3})
        for (size_t offset : {0, 13})
          for (const auto& [alpha, beta] : {std::pair{1.0f, 0.0f}, std::pair{-1.5f, 0.5f}}) {
            const bool row = r.layout == Layout::RowMajor;
            run_case({r.layout, r.ta, r.tb, row ? many : few, row ? few : many, k, pad, offset, alpha, beta},
                     forced(GemmPath::Tall));
            if (HasFatalFailure()) return;
          }
}

// A C of few rows whose B is stored with its rows along k (row-major B transposed; column-major:
// few columns and A transposed) runs reversed, Cᵀ = op(B)ᵀ·op(A)ᵀ, with C written transposed:
// forced, and by the planner on PoCL, where the tall kernel pays at any size.
TEST(TallPath, ReversedCallsMatchOpenBlas) {
  const Readable reversed[] = {{Layout::RowMajor, Transpose::No, Transpose::Yes},
                               {Layout::RowMajor, Transpose::Yes, Transpose::Yes},
                               {Layout::ColMajor, Transpose::Yes, Transpose::No},
                               {Layout::ColMajor, Transpose::Yes, Transpose::Yes}};
  const std::tuple<size_t, size_t, size_t> shapes[] = {{1, 1, 1}, {3, 70, 5}, {16, 129, 1000}, {1, 1030, 67}};
  for (const Readable& r : reversed)
    for (const auto& [few, many, k] : shapes)
      for (const GemmOptions& o : {forced(GemmPath::Tall), GemmOptions{}}) {
        const bool row = r.layout == Layout::RowMajor;
        run_case({r.layout, r.ta, r.tb, row ? few : many, row ? many : few, k, 3, 13, -1.5f, 0.5f}, o);
        if (HasFatalFailure()) return;
      }
}

// A reversed batch: A's and B's strides trade places with the operands.
TEST(TallPath, ReversedStridedBatch) {
  Context& ctx = shared_context();
  const size_t m = 3, n = 40, k = 33, items = 3;
  const size_t sa = m * k + 5, sb = n * k + 2, sc = m * n + 11;
  std::vector<float> a(items * sa), bt(items * sb), c(items * sc);
  cpu::fill_random(a, fresh_seed());
  cpu::fill_random(bt, fresh_seed());
  cpu::fill_random(c, fresh_seed());
  cl::Buffer da = upload(ctx, a), db = upload(ctx, bt), dc = upload(ctx, c);
  GemmCall call = row_major_call(m, n, k, 0.5f, -2.0f, da(), db(), dc());
  call.b_transpose = Transpose::Yes;
  call.b.ld = k;
  cl_event ev = nullptr;
  gemm_strided_batched(call, sa, sb, sc, items, ctx.queue()(), &ev, forced(GemmPath::Tall));
  wait_and_release(ev);
  const auto got = download(ctx, dc, c.size());
  for (size_t i = 0; i < items; ++i) {
    std::vector<float> b(k * n);  // op(B) of item i, k×n
    for (size_t p = 0; p < k; ++p)
      for (size_t j = 0; j < n; ++j) b[p * n + j] = bt[i * sb + j * k + p];
    const std::vector<float> part(got.begin() + i * sc, got.begin() + i * sc + m * n);
    EXPECT_TRUE(matches_reference(part, reference_gemm(m, n, k, 0.5f, &a[i * sa], b.data(), -2.0f, &c[i * sc]), k, 0))
        << "item " << i;
    for (size_t j = i * sc + m * n; j < (i + 1) * sc; ++j) ASSERT_EQ(got[j], c[j]) << "gap between items written";
  }
}

TEST(TallPath, PlannerRunsFewRowsWithBAlongKReversed) {
  const DeviceInfo h200 = fake_h200();
  Context& ctx = shared_context();
  cl::Buffer a = ctx.buffer(4), b = ctx.buffer(4), c = ctx.buffer(4);
  GemmCall gemv = row_major_call(1, 8192, 8192, 1.0f, 0.0f, a(), b(), c());
  gemv.b_transpose = Transpose::Yes;
  gemv.b.ld = 8192;
  const CallPlan plan = plan_call(h200, gemv);
  ASSERT_EQ(plan.parts.size(), 1u);
  EXPECT_EQ(plan.parts[0].plan.path, GemmPath::Tall);
  EXPECT_EQ(plan.parts[0].rows, 1u) << "the part is described in the caller's terms";
  EXPECT_EQ(plan.parts[0].cols, 8192u);
  EXPECT_NE(plan.parts[0].plan.reason.find("reversed"), std::string::npos) << plan.parts[0].plan.reason;
  EXPECT_NE(plan.commands.at(0).options.find("-DC_T=1"), std::string::npos) << plan.commands.at(0).options;
  // Too few columns of C to fill the GPU: not the tall kernel.
  GemmCall narrow = gemv;
  narrow.n = 512;
  narrow.b.ld = 8192;
  EXPECT_NE(plan_call(h200, narrow).parts.at(0).plan.path, GemmPath::Tall);
}

TEST(TallPath, EveryParameterSetMatches) {
  // Widths 4, 8 and 16 with few and many rows per row group, one and several row groups, 32 to
  // 256 work-items sharing k, and an NB wider than n (B then read element by element). k = 70
  // (17 float4s and a tail of two) leaves most lanes without a float4; 1029, a tail of one.
  const KernelParams sets[] = {{{"NB", 4}, {"RW", 1}, {"GR", 1}, {"LANES", 32}},
                               {{"NB", 8}, {"RW", 4}, {"GR", 4}, {"LANES", 32}},
                               {{"NB", 16}, {"RW", 8}, {"GR", 2}, {"LANES", 64}},
                               {{"NB", 16}, {"RW", 3}, {"GR", 3}, {"LANES", 96}},
                               {{"NB", 4}, {"RW", 4}, {"GR", 2}, {"LANES", 128}},
                               {{"NB", 8}, {"RW", 8}, {"GR", 1}, {"LANES", 256}}};
  for (const KernelParams& ps : sets)
    for (size_t n : {1, 4})
      for (size_t k : {70, 1029}) {
        run_case({Layout::RowMajor, Transpose::No, Transpose::No, 131, n, k, 1, 13, 2.0f, -1.0f},
                 forced(GemmPath::Tall, ps));
        if (HasFatalFailure()) return;
      }
}

TEST(TallPath, BatchedAndStridedBatched) { check_batched_calls(70, 9, 33, forced(GemmPath::Tall)); }

TEST(TallPath, RefusesWhatItCannotRun) {
  Context& ctx = shared_context();
  cl::Buffer a = ctx.buffer(64 * 64 * 4), b = ctx.buffer(64 * 64 * 4), c = ctx.buffer(64 * 64 * 4);
  GemmCall call = row_major_call(64, 8, 64, 1.0f, 0.0f, a(), b(), c());
  // A transposed: its rows are strided, which the kernel does not read.
  GemmCall strided = call;
  strided.a_transpose = Transpose::Yes;
  strided.a.ld = 64;
  EXPECT_EQ(gemm_status(strided, forced(GemmPath::Tall)), Status::InvalidArgument);
  // More columns than it holds; parameters it does not have or cannot run.
  GemmCall wide = row_major_call(64, 17, 64, 1.0f, 0.0f, a(), b(), c());
  EXPECT_EQ(gemm_status(wide, forced(GemmPath::Tall)), Status::InvalidArgument);
  EXPECT_EQ(gemm_status(call, forced(GemmPath::Tall, {{"NB", 6}})), Status::InvalidArgument);
  EXPECT_EQ(gemm_status(call, forced(GemmPath::Tall, {{"NB", 16}, {"RW", 9}})), Status::InvalidArgument);
  EXPECT_EQ(gemm_status(call, forced(GemmPath::Tall, {{"TM", 16}})), Status::InvalidArgument);
  EXPECT_EQ(gemm_status(call, forced(GemmPath::Tall, {{"NB", 4}})), Status::InvalidArgument);  // n = 8 > NB
  EXPECT_EQ(gemm_status(call, forced(GemmPath::Tall, {{"LANES", 48}})), Status::InvalidArgument);  // not whole warps
  EXPECT_EQ(gemm_status(call, forced(GemmPath::Tall, {{"LANES", 512}})), Status::InvalidArgument);
}

TEST(TallPath, PlannerTakesTallShapesOnGpusFromManyRowsAndOnCpus) {
  const DeviceInfo h200 = fake_h200();
  EXPECT_EQ(plan_gemm(h200, 4096, 16, 4096).path, GemmPath::Tall);
  EXPECT_EQ(plan_gemm(h200, 16384, 1, 1024).path, GemmPath::Tall);
  EXPECT_EQ(plan_gemm(h200, 1024, 8, 1024).path, GemmPath::Tall);
  EXPECT_EQ(plan_gemm(h200, 4096, 16, 4096).params.at("NB"), 16);
  EXPECT_EQ(plan_gemm(h200, 4096, 5, 4096).params.at("NB"), 8);
  // More work-items share k where there are fewer rows: 128 at 1024-2048 rows, 64 at 4096, 32
  // from 8192 (16 columns, 132 compute units).
  EXPECT_EQ(plan_gemm(h200, 1024, 16, 1024).params.at("LANES"), 128);
  EXPECT_EQ(plan_gemm(h200, 2048, 16, 2064).params.at("LANES"), 128);
  EXPECT_EQ(plan_gemm(h200, 4096, 16, 4096).params.at("LANES"), 64);
  EXPECT_EQ(plan_gemm(h200, 8192, 16, 8192).params.at("LANES"), 32);
  EXPECT_EQ(plan_gemm(h200, 16384, 16, 1024).params.at("LANES"), 32);
  // ... but no more lanes than float4s of k: 16 of them at k = 64, 32 at k = 128.
  EXPECT_EQ(plan_gemm(h200, 1024, 16, 64).params.at("LANES"), 32);
  EXPECT_EQ(plan_gemm(h200, 1024, 16, 256).params.at("LANES"), 64);
  for (size_t m : {1024, 4096, 16384})
    for (size_t n : {1, 8, 16}) {
      const KernelParams ps = plan_gemm(h200, m, n, 1024).params;
      EXPECT_LE(size_t(ps.at("LANES") * ps.at("GR")), h200.max_work_group_size) << m << "x" << n;
    }
  // Too few rows to fill the device, or too many columns.
  EXPECT_NE(plan_gemm(h200, 512, 16, 4096).path, GemmPath::Tall);
  EXPECT_NE(plan_gemm(h200, 4096, 17, 4096).path, GemmPath::Tall);
  // On a CPU at any number of rows (no compute units to fill), but not past 16 columns or under
  // 4 of k; neither on other kinds of device.
  DeviceInfo cpu = h200, other = h200;
  cpu.kind = DeviceKind::CPU;
  other.kind = DeviceKind::Other;
  EXPECT_EQ(plan_gemm(cpu, 4096, 16, 4096).path, GemmPath::Tall);
  EXPECT_EQ(plan_gemm(cpu, 512, 13, 77).path, GemmPath::Tall);
  EXPECT_EQ(plan_gemm(cpu, 16, 16, 16).path, GemmPath::Tall);
  EXPECT_NE(plan_gemm(cpu, 4096, 17, 4096).path, GemmPath::Tall);
  EXPECT_NE(plan_gemm(cpu, 1024, 16, 3).path, GemmPath::Tall);
  EXPECT_NE(plan_gemm(other, 4096, 16, 4096).path, GemmPath::Tall);
  // Overrides without a forced path are for the kernel the planner picks otherwise.
  GemmOptions tiled;
  tiled.force_params = {{"KWG", 32}};
  EXPECT_EQ(plan_gemm(h200, 4096, 16, 4096, tiled).path, GemmPath::Packed);
  // Without the tall path the same shape gets the packed or direct path.
  EXPECT_NE(detail::plan_without_tall(h200, 4096, 16, 4096, {}).path, GemmPath::Tall);
}

// In double the reduction's local tile doubles: the work-groups shrink to fit 48 KiB instead of
// failing the plan.
TEST(TallPath, DoubleFitsTheLocalMemoryOfAGpu) {
  const DeviceInfo h200 = fake_h200();
  for (const size_t m : {64, 1024, 4096, 16384})
    for (const size_t n : {1, 4, 5, 16}) {
      const KernelParams ps = detail::tall_params(h200, m, n, 4096, {}, 64);
      EXPECT_LE(detail::tall_threads(ps) * 33 * 8, h200.local_mem_bytes) << m << "x" << n;
      EXPECT_EQ(ps.at("PRECISION"), 64);
    }
}

TEST(TallPath, AutoPlanWithStridedAHandsOnToAnotherPath) {
  // A transposed at a shape the planner gives the tall path: the call runs another path, correctly.
  const size_t m = 1030, n = 16, k = 67;
  if (!detail::tall_pays(shared_context().info(), m, n, k)) {
    // This device would not take the tall path here (a GPU where 1030 rows are too few, or
    // another kind of device): check the planner's rule on the H200 instead, and run the call
    // here on whatever path it gets.
    ASSERT_TRUE(detail::tall_pays(fake_h200(), m, n, k));
  }
  run_case({Layout::RowMajor, Transpose::Yes, Transpose::No, m, n, k, 2, 13, 1.0f, 0.5f});
}

}  // namespace
}  // namespace clgemm::test
