// dmma_in_place_test.cpp — the dmma kernel (double on FP64 tensor cores) reading the caller's
// matrices in place in every form it takes: A as At (K×M) or M×K (A_MK), B as K×N or N×K (B_NK),
// whole tiles or ragged (GUARD), on 16-byte boundaries or off them (a double at a time), so that
// no call pays a copy. The commands are checked on every device; the results, against a float64
// loop with guard zones around every item of C, where the device has the FP64 tensor cores.
#include <clgemm/gemm.hpp>

#include "kernels/nvidia_arch.hpp"
#include "test_support.hpp"

#include <cmath>
#include <limits>
#include <random>
#include <string>

namespace clgemm::test {
namespace {

struct Form {
  Layout layout;
  Transpose ta, tb;
};

const Form kForms[] = {
    {Layout::RowMajor, Transpose::No, Transpose::No},   {Layout::RowMajor, Transpose::Yes, Transpose::No},
    {Layout::RowMajor, Transpose::No, Transpose::Yes},  {Layout::RowMajor, Transpose::Yes, Transpose::Yes},
    {Layout::ColMajor, Transpose::No, Transpose::No},   {Layout::ColMajor, Transpose::Yes, Transpose::Yes},
};

std::string form_text(const Form& f) {
  return std::string(f.layout == Layout::RowMajor ? "row" : "col") + "-major, ta " +
         std::to_string(int(f.ta == Transpose::Yes)) + " tb " + std::to_string(int(f.tb == Transpose::Yes));
}

// A strided batch of `count` items in `form`, each operand with even padding after its rows, an
// even offset and a gap between items; C with a gap of `kGuard` elements before, between and after
// the items. Buffers are set by the caller.
constexpr size_t kGuard = 6;

struct Batch {
  GemmCall call;
  size_t count = 1, sa = 0, sb = 0, sc = 0;
  size_t a_outer = 0, a_inner = 0, b_outer = 0, b_inner = 0, c_outer = 0, c_inner = 0;
};

// With `odd`, A's and B's rows have odd lengths and start at odd offsets (off 16-byte boundaries).
Batch batch_of(const Form& f, size_t count, size_t m, size_t n, size_t k, bool odd = false) {
  Batch b;
  b.count = count;
  GemmCall& c = b.call;
  c.layout = f.layout, c.a_transpose = f.ta, c.b_transpose = f.tb;
  c.m = m, c.n = n, c.k = k;
  c.alpha = -1.5, c.beta = 0.5;
  c.a_type = c.b_type = c.c_type = DataType::F64;
  const bool row = f.layout == Layout::RowMajor, at = f.ta == Transpose::Yes, bt = f.tb == Transpose::Yes;
  const size_t a_rows = at ? k : m, a_cols = at ? m : k, b_rows = bt ? n : k, b_cols = bt ? k : n;
  b.a_outer = row ? a_rows : a_cols, b.a_inner = row ? a_cols : a_rows;
  b.b_outer = row ? b_rows : b_cols, b.b_inner = row ? b_cols : b_rows;
  b.c_outer = row ? m : n, b.c_inner = row ? n : m;
  c.a = {nullptr, odd ? 3u : 2u, odd ? b.a_inner | 1 : b.a_inner + 4};
  c.b = {nullptr, odd ? 1u : 4u, odd ? (b.b_inner + 2) | 1 : b.b_inner + 2};
  c.c = {nullptr, kGuard, b.c_inner + 3};
  b.sa = b.a_outer * c.a.ld + 6, b.sb = b.b_outer * c.b.ld + 2, b.sc = b.c_outer * c.c.ld + kGuard;
  return b;
}

// The plan's single command, or a failure that lists what it runs instead.
::testing::AssertionResult runs_dmma_alone(const CallPlan& plan) {
  if (plan.commands.size() == 1 && plan.commands[0].what == "dmma" && plan.temporaries.empty())
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "not the dmma kernel alone on the operands in place:\n" << plan.describe();
}

bool has(const CallPlan& plan, const std::string& option) {
  return plan.commands.back().options.find(option) != std::string::npos;
}

TEST(DmmaInPlace, WholeTilesOfEveryFormRunWithoutACopy) {
  const DeviceInfo d = fake_h200();
  const GemmOptions o = forced(GemmPath::Tensor, {{"BM", 64}, {"BN", 64}});
  for (const Form& f : kForms) {
    SCOPED_TRACE(form_text(f));
    const Batch b = batch_of(f, 3, 128, 64, 40);
    const CallPlan plan = plan_call(d, b.call, o, b.count, b.sa, b.sb, b.sc);
    EXPECT_TRUE(runs_dmma_alone(plan));
  }
  // Row-major: A as stored is M×K, A transposed is At; B as stored is K×N, B transposed is N×K.
  const auto options_of = [&](Transpose ta, Transpose tb) {
    const Batch b = batch_of({Layout::RowMajor, ta, tb}, 3, 128, 64, 40);
    return plan_call(d, b.call, o, b.count, b.sa, b.sb, b.sc);
  };
  EXPECT_TRUE(has(options_of(Transpose::No, Transpose::No), "-DA_MK=1 -DB_NK=0"));
  EXPECT_TRUE(has(options_of(Transpose::Yes, Transpose::No), "-DA_MK=0 -DB_NK=0"));
  EXPECT_TRUE(has(options_of(Transpose::No, Transpose::Yes), "-DA_MK=1 -DB_NK=1"));
  EXPECT_TRUE(has(options_of(Transpose::Yes, Transpose::Yes), "-DA_MK=0 -DB_NK=1"));
}

TEST(DmmaInPlace, RaggedOrMisalignedOperandsAreReadInPlaceToo) {
  const DeviceInfo d = fake_h200();
  const GemmOptions o = forced(GemmPath::Tensor, {{"BM", 64}, {"BN", 64}});
  const Form row{Layout::RowMajor, Transpose::No, Transpose::No};
  const auto plan_of = [&](const Batch& b) { return plan_call(d, b.call, o, b.count, b.sa, b.sb, b.sc); };
  const CallPlan whole = plan_of(batch_of(row, 3, 128, 64, 40));
  EXPECT_TRUE(has(whole, "-DGUARD=0")) << whole.describe();
  EXPECT_TRUE(has(whole, "-DA_UNIT=2 -DB_UNIT=2")) << whole.describe();
  // Rows off 16-byte boundaries are copied a double at a time (a unit of one double).
  Batch odd_lda = batch_of(row, 3, 128, 64, 40);
  odd_lda.call.a.ld += 1;
  EXPECT_TRUE(runs_dmma_alone(plan_of(odd_lda)));
  EXPECT_TRUE(has(plan_of(odd_lda), "-DA_UNIT=1 -DB_UNIT=2")) << plan_of(odd_lda).describe();
  Batch odd_b_offset = batch_of(row, 3, 128, 64, 40);
  odd_b_offset.call.b.offset = 3;
  EXPECT_TRUE(has(plan_of(odd_b_offset), "-DA_UNIT=2 -DB_UNIT=1")) << plan_of(odd_b_offset).describe();
  // Sizes the tiles do not divide (K of 36, M of 100) are read with guarded copies.
  for (const Batch& ragged : {batch_of(row, 3, 128, 64, 36), batch_of(row, 3, 100, 64, 40)}) {
    const CallPlan plan = plan_of(ragged);
    EXPECT_TRUE(runs_dmma_alone(plan));
    EXPECT_TRUE(has(plan, "-DGUARD=1")) << plan.describe();
  }
}

// Runs `b` (forced onto dmma with `params`) on fresh random data and returns the first failure:
// an element of C off the float64 result, or a write outside the items of C.
std::string run_and_check(const Batch& b, const KernelParams& params, std::mt19937_64& rng) {
  Context& ctx = shared_context();
  const GemmCall& call = b.call;
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  std::vector<double> a(call.a.offset + b.count * b.sa), bm(call.b.offset + b.count * b.sb);
  for (double& x : a) x = value(rng);
  for (double& x : bm) x = value(rng);
  const double outside = -7.25;
  std::vector<double> c(call.c.offset + b.count * b.sc, outside);
  for (size_t i = 0; i < b.count; ++i)
    for (size_t o = 0; o < b.c_outer; ++o)
      for (size_t x = 0; x < b.c_inner; ++x) c[call.c.offset + i * b.sc + o * call.c.ld + x] = value(rng);
  const std::vector<double> before = c;
  cl::Buffer da(ctx.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, a.size() * 8, a.data());
  cl::Buffer db(ctx.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bm.size() * 8, bm.data());
  cl::Buffer dc(ctx.context(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, c.size() * 8, c.data());
  GemmCall run = call;
  run.a.buffer = da(), run.b.buffer = db(), run.c.buffer = dc();
  cl_event ev = nullptr;
  gemm_strided_batched(run, b.sa, b.sb, b.sc, b.count, ctx.queue()(), &ev, forced(GemmPath::Tensor, params));
  wait_and_release(ev);
  ctx.queue().enqueueReadBuffer(dc, CL_TRUE, 0, c.size() * 8, c.data());

  const bool row = call.layout == Layout::RowMajor;
  const bool at = call.a_transpose == Transpose::Yes, bt = call.b_transpose == Transpose::Yes;
  for (size_t item = 0; item < b.count; ++item) {
    const HostDoubles ia{a, call.a.offset + item * b.sa, call.a.ld, row};
    const HostDoubles ib{bm, call.b.offset + item * b.sb, call.b.ld, row};
    const size_t c0 = call.c.offset + item * b.sc;
    for (size_t i = 0; i < call.m; ++i)
      for (size_t j = 0; j < call.n; ++j) {
        const size_t at_c = c0 + (row ? i * call.c.ld + j : j * call.c.ld + i);
        const Float64Element e = float64_element(ia, at, ib, bt, i, j, call.k, call.alpha, call.beta, before[at_c]);
        if (!(std::fabs(c[at_c] - e.want) <= e.bound))
          return "item " + std::to_string(item) + ", C(" + std::to_string(i) + "," + std::to_string(j) +
                 ") = " + std::to_string(c[at_c]) + ", want " + std::to_string(e.want);
      }
  }
  for (size_t x = 0; x < c.size(); ++x) {
    const bool item_area = x >= call.c.offset && (x - call.c.offset) / b.sc < b.count;
    const size_t in = item_area ? (x - call.c.offset) % b.sc : 0;
    const bool inside = item_area && in < b.c_outer * call.c.ld && in % call.c.ld < b.c_inner;
    if (!inside && c[x] != outside) return "a stray write at element " + std::to_string(x) + " of C's buffer";
  }
  return "";
}

TEST(DmmaInPlace, EveryFormMatchesAFloat64Loop) {
  // As gemm() plans for it: with the static local limit measured, which the deep tiles below need.
  const DeviceInfo dev = planning_device(shared_context().info());
  if (!tensor_path_available(dev) || !dev.fp64) GTEST_SKIP() << "needs an NVIDIA GPU, sm_80 or newer";
  const uint64_t seed = fresh_seed();
  std::mt19937_64 rng(seed);
  const long mma_k = detail::nvidia_sm(dev) >= 90 ? 8 : 4;
  struct Tiling {
    KernelParams params;
    size_t count, m, n, k;
    bool odd;
  };
  const Tiling tilings[] = {
      {{{"BM", 32}, {"BN", 32}}, 5, 32, 64, 32, false},
      {{{"BM", 64}, {"BN", 64}}, 3, 128, 64, 40, false},
      {{{"BM", 128}, {"BN", 64}}, 2, 128, 128, 72, false},
      {{{"BM", 64}, {"BN", 64}, {"BK", 16}, {"STAGES", 2}}, 2, 64, 128, 48, false},
      // Ragged sizes, rows on and off 16-byte boundaries.
      {{{"BM", 64}, {"BN", 64}}, 3, 100, 70, 37, false},
      {{{"BM", 128}, {"BN", 64}}, 2, 129, 65, 63, true},
      {{{"BM", 32}, {"BN", 32}}, 4, 7, 9, 13, true},
      {{{"BM", 64}, {"BN", 64}, {"BK", 16}, {"STAGES", 2}}, 2, 65, 127, 100, true},
      {{{"BM", 64}, {"BN", 64}}, 2, 64, 64, 40, true},
      // The large tiles and deep pipelines that static local memory past 48 KiB holds, with the
      // sm_90 instructions where the device has them.
      {{{"BM", 128}, {"BN", 128}, {"WM", 64}, {"WN", 32}, {"BK", 16}, {"STAGES", 4}, {"MMA_K", mma_k}},
       2, 129, 130, 100, true},
      {{{"BM", 128}, {"BN", 128}, {"WM", 64}, {"WN", 32}, {"BK", 16}, {"STAGES", 6}, {"MMA_K", mma_k}},
       2, 256, 128, 200, false},
      {{{"BM", 128}, {"BN", 64}, {"BK", 16}, {"STAGES", 4}, {"MMA_K", mma_k}}, 3, 130, 70, 90, false},
  };
  for (const Tiling& t : tilings)
    for (const Form& f : kForms) {
      const Batch b = batch_of(f, t.count, t.m, t.n, t.k, t.odd);
      const CallPlan plan = plan_call(dev, b.call, forced(GemmPath::Tensor, t.params), b.count, b.sa, b.sb, b.sc);
      EXPECT_TRUE(runs_dmma_alone(plan)) << form_text(f);
      EXPECT_EQ(run_and_check(b, t.params, rng), "")
          << form_text(f) << ", " << t.count << " × " << t.m << "×" << t.n << "×" << t.k
          << (t.odd ? ", odd rows" : "") << ", BM "
          << t.params.at("BM") << " BN " << t.params.at("BN") << ", seed " << seed;
    }
}

}  // namespace
}  // namespace clgemm::test
