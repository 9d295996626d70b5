// wide_test.cpp — the wide path (gemm/wide/wide.cl): forced on every layout and transpose it can read,
// at ragged sizes with padded leading dimensions, odd offsets and alpha/beta, against OpenBLAS
// with C's guard zones checked (gemm_case.cpp); K in one slice and in several; every parameter
// set; batches; bit-for-bit repeatable sums; the planner's rule; the calls it must refuse.
#include <clgemm/error.hpp>
#include <clgemm/gemm.hpp>

#include "kernels/gemm/wide/wide_kernel.hpp"
#include "gemm_case.hpp"
#include "test_support.hpp"

#include <cmath>
#include <cstring>
#include <limits>
#include <tuple>

namespace clgemm::test {
namespace {

// The layouts and transposes the wide kernel reads in place, and which side of C is short. In
// row-major terms: C with few rows and B not transposed (B streamed), or few columns and A
// transposed (A streamed). A column-major call is the row-major Cᵀ = op(B)ᵀ·op(A)ᵀ, so there
// the caller's few columns and A not transposed, or few rows and B transposed.
struct Readable {
  Layout layout;
  Transpose ta, tb;
  bool few_rows;  // C's rows are the short side (else its columns)
};
const Readable kReadable[] = {
    {Layout::RowMajor, Transpose::No, Transpose::No, true},   {Layout::RowMajor, Transpose::Yes, Transpose::No, true},
    {Layout::RowMajor, Transpose::Yes, Transpose::No, false}, {Layout::RowMajor, Transpose::Yes, Transpose::Yes, false},
    {Layout::ColMajor, Transpose::No, Transpose::No, false},  {Layout::ColMajor, Transpose::No, Transpose::Yes, false},
    {Layout::ColMajor, Transpose::No, Transpose::Yes, true},  {Layout::ColMajor, Transpose::Yes, Transpose::Yes, true}};

// (few, many, k). With PoCL's 2 compute units, k from 256 up is cut into slices wherever the
// long side is under 2048; k = 63 stays one slice.
const std::tuple<size_t, size_t, size_t> kShapes[] = {{1, 1, 1},    {3, 7, 5},      {16, 65, 127}, {9, 129, 1000},
                                                      {16, 1000, 63}, {4, 300, 4099}, {1, 4097, 300}};

TEST(WidePath, ForcedMatchesOpenBlasOnEveryReadableLayout) {
  for (const Readable& r : kReadable)
    for (const auto& [few, many, k] : kShapes)
      for (size_t pad : {0, 3})
        for (size_t offset : {0, 13})
          for (const auto& [alpha, beta] : {std::pair{1.0f, 0.0f}, std::pair{-1.5f, 0.5f}}) {
            run_case({r.layout, r.ta, r.tb, r.few_rows ? few : many, r.few_rows ? many : few, k, pad, offset, alpha, beta},
                     forced(GemmPath::Wide));
            if (HasFatalFailure()) return;
          }
}

TEST(WidePath, EveryParameterSetMatches) {
  // PB wider than p (rows held but unused), one to eight k-lanes, groups of 16 to 256 work-items;
  // k = 70 leaves a tail of two after the quads, 1029 one, in slices or not.
  // LQ 2: eight columns per work-item, 131 of them (a tail of three), with rows of 132 at offset
  // 13 (loads of four) and of 136 at offset 0 (loads of eight).
  const KernelParams sets[] = {{{"PB", 16}, {"WL", 16}, {"KL", 1}}, {{"PB", 4}, {"WL", 32}, {"KL", 2}},
                               {{"PB", 8}, {"WL", 64}, {"KL", 4}},  {{"PB", 2}, {"WL", 16}, {"KL", 8}},
                               {{"PB", 1}, {"WL", 256}, {"KL", 1}}, {{"PB", 1}, {"WL", 64}, {"KL", 4}, {"LQ", 2}},
                               {{"PB", 4}, {"WL", 32}, {"KL", 2}, {"LQ", 2}}, {{"PB", 16}, {"WL", 16}, {"KL", 1}, {"LQ", 2}}};
  for (const KernelParams& ps : sets)
    for (size_t k : {70, 1029})
      for (const auto& [pad, offset] : {std::pair<size_t, size_t>{1, 13}, std::pair<size_t, size_t>{5, 0}}) {
        run_case({Layout::RowMajor, Transpose::No, Transpose::No, 1, 131, k, pad, offset, 2.0f, -1.0f},
                 forced(GemmPath::Wide, ps));
        if (HasFatalFailure()) return;
      }
  run_case({Layout::RowMajor, Transpose::Yes, Transpose::No, 77, 8, 1029, 2, 5, 1.0f, 1.0f},
           forced(GemmPath::Wide, {{"PB", 8}, {"WL", 32}, {"KL", 4}}));
}

TEST(WidePath, BatchedAndStridedBatched) {
  check_batched_calls(5, 70, 333, forced(GemmPath::Wide));
  check_batched_calls(1, 9, 33, forced(GemmPath::Wide));
}

// beta = 0 never reads C: NaN there stays out, whether K is in one slice or several.
TEST(WidePath, BetaZeroIgnoresNanInC) {
  Context& ctx = shared_context();
  for (const size_t k : {40, 5000}) {
    const size_t m = 3, n = 200;
    std::vector<float> a(m * k), b(k * n), c(m * n, std::numeric_limits<float>::quiet_NaN());
    cpu::fill_random(a, fresh_seed());
    cpu::fill_random(b, fresh_seed());
    cl::Buffer da = upload(ctx, a), db = upload(ctx, b), dc = upload(ctx, c);
    cl_event ev = nullptr;
    gemm(row_major_call(m, n, k, 1.0f, 0.0f, da(), db(), dc()), ctx.queue()(), &ev, forced(GemmPath::Wide));
    wait_and_release(ev);
    const auto got = download(ctx, dc, c.size());
    const std::vector<float> zero(m * n, 0.0f);
    EXPECT_TRUE(matches_reference(got, reference_gemm(m, n, k, 1.0f, a.data(), b.data(), 0.0f, zero.data()), k, 0))
        << "k = " << k;
  }
}

// Slices of K add up in a fixed order: the same call gives the same bits every time, whether the
// last slice adds them up (one row of C) or gemm_wide_sum does (two). The count the last slice
// sets back to zero is what lets the runs after the first add up at all.
TEST(WidePath, SlicedSumsAreTheSameBitsOnEveryRun) {
  Context& ctx = shared_context();
  for (const size_t m : {size_t(1), size_t(2)}) {
    const size_t n = 96, k = 40000;
    std::vector<float> a(m * k), b(k * n), c(m * n, 0.0f);
    cpu::fill_random(a, fresh_seed());
    cpu::fill_random(b, fresh_seed());
    const KernelParams ps = detail::wide_params(ctx.info(), m);
    ASSERT_GT(detail::wide_slices(ctx.info(), ps, n, k, 1).slices, 1u) << "the test needs K cut into slices";
    cl::Buffer da = upload(ctx, a), db = upload(ctx, b);
    std::vector<float> first;
    for (int run = 0; run < 4; ++run) {
      cl::Buffer dc = upload(ctx, c);
      cl_event ev = nullptr;
      gemm(row_major_call(m, n, k, 1.0f, 0.0f, da(), db(), dc()), ctx.queue()(), &ev, forced(GemmPath::Wide));
      wait_and_release(ev);
      const auto got = download(ctx, dc, c.size());
      if (run == 0) {
        EXPECT_TRUE(matches_reference(got, reference_gemm(m, n, k, 1.0f, a.data(), b.data(), 0.0f, c.data()), k, 0))
            << "m = " << m;
        first = got;
      } else {
        EXPECT_EQ(std::memcmp(got.data(), first.data(), got.size() * sizeof(float)), 0) << "m = " << m << ", run " << run;
      }
    }
  }
}

// A batch of GEMVs cut into slices: each item's column groups count apart, and a batch in
// pieces finds the counts back at zero.
TEST(WidePath, SlicedBatchOfRowVectors) {
  Context& ctx = shared_context();
  ASSERT_GT(detail::wide_slices(ctx.info(), detail::wide_params(ctx.info(), 1), 300, 5000, 3).slices, 1u)
      << "the test needs K cut into slices";
  check_batched_calls(1, 300, 5000, forced(GemmPath::Wide));
}

// Slices: as deep as leaves two work-groups per compute unit (at most 16 quads of k per lane, at
// least 4), k_slice a multiple of the lanes' quads and covering K.
TEST(WidePath, SlicesFillTheDevice) {
  const DeviceInfo h200 = fake_h200();
  const KernelParams ps = detail::wide_params(h200, 1);
  for (const auto& [l, k, items] : {std::tuple<size_t, size_t, size_t>{8192, 8192, 1}, {100, 100000, 1},
                                    {8192, 8192, 64}, {4096, 64, 1}, {1, 3, 1}}) {
    const detail::WideSlices s = detail::wide_slices(h200, ps, l, k, items);
    const size_t l_groups = (l + 255) / 256;
    EXPECT_GE(s.slices, 1u);
    EXPECT_EQ(s.k_slice % 16, 0u);
    EXPECT_GE(s.slices * s.k_slice, k);
    EXPECT_LT((s.slices - 1) * s.k_slice, k) << "an empty slice";
    if (s.slices > 1) {
      EXPECT_GE(s.k_slice, 64u);
    }
    if (k >= 64 * 16) {
      EXPECT_GE(l_groups * s.slices * items, 2 * 132) << l << "x" << k << " x" << items;
    }
  }
  EXPECT_EQ(detail::wide_slices(h200, ps, 8192, 8192, 64).slices, 1u) << "a batch fills the device by itself";
  // The deepest slices that still fill: 16 quads per lane (256 k) at 8192, 8 at 4096, and only
  // the shallowest, 4, fill the device at 2048.
  EXPECT_EQ(detail::wide_slices(h200, ps, 8192, 8192, 1).k_slice, 256u);
  EXPECT_EQ(detail::wide_slices(h200, ps, 4096, 4096, 1).k_slice, 128u);
  EXPECT_EQ(detail::wide_slices(h200, ps, 2048, 2048, 1).k_slice, 64u);
}

// 16-bit rows on a GPU take eight columns per work-item, with the group's 256 columns and 256
// work-items kept; float rows, and 16-bit rows on a CPU device, keep one quad.
TEST(WidePath, SixteenBitRowsOnGpusTakeTwoQuads) {
  const DeviceInfo h200 = fake_h200();
  const KernelParams half = detail::wide_params(h200, 1, {}, DataType::BF16);
  EXPECT_EQ(half.at("LQ"), 2);
  EXPECT_EQ(detail::wide_columns(half), 256u);
  EXPECT_EQ(detail::wide_threads(half), 256u);
  EXPECT_EQ(detail::wide_params(h200, 1, {}, DataType::F32).at("LQ"), 1);
  EXPECT_EQ(detail::wide_params(h200, 1, {{"LQ", 1}}, DataType::F16).at("LQ"), 1) << "an override wins";
  DeviceInfo cpu = h200;
  cpu.kind = DeviceKind::CPU;
  EXPECT_EQ(detail::wide_params(cpu, 1, {}, DataType::BF16).at("LQ"), 1);
}

TEST(WidePath, PlannerTakesShortSidesItCanStream) {
  const DeviceInfo h200 = fake_h200();
  Context& ctx = shared_context();
  cl::Buffer a = ctx.buffer(4), b = ctx.buffer(4), c = ctx.buffer(4);
  auto path_of = [&](size_t m, size_t n, size_t k, Transpose ta, Transpose tb) {
    GemmCall call = row_major_call(m, n, k, 1.0f, 0.0f, a(), b(), c());
    call.a_transpose = ta, call.b_transpose = tb;
    call.a.ld = ta == Transpose::Yes ? m : k;
    call.b.ld = tb == Transpose::Yes ? k : n;
    return plan_call(h200, call).parts.at(0).plan.path;
  };
  const Transpose no = Transpose::No, yes = Transpose::Yes;
  // GEMV both ways round and short sides up to 8.
  EXPECT_EQ(path_of(1, 8192, 8192, no, no), GemmPath::Wide);
  EXPECT_EQ(path_of(1, 8192, 8192, yes, no), GemmPath::Wide);
  EXPECT_EQ(path_of(8, 4096, 4096, no, no), GemmPath::Wide);
  EXPECT_EQ(path_of(8192, 1, 8192, yes, no), GemmPath::Wide);
  EXPECT_EQ(path_of(8192, 7, 8192, yes, yes), GemmPath::Wide);
  // From 9 rows the tuned tiles of the packed path stay (forced, the wide kernel takes up to 16).
  EXPECT_NE(path_of(16, 4096, 4096, no, no), GemmPath::Wide);
  EXPECT_NE(path_of(8192, 9, 8192, yes, yes), GemmPath::Wide);
  // The tall kernel keeps few columns with A not transposed; B transposed under few rows, and
  // more than 16 on the short side, go elsewhere; so does too little work.
  EXPECT_EQ(path_of(8192, 1, 8192, no, no), GemmPath::Tall);
  EXPECT_NE(path_of(1, 8192, 8192, no, yes), GemmPath::Wide);
  EXPECT_NE(path_of(17, 4096, 4096, no, no), GemmPath::Wide);
  EXPECT_NE(path_of(4, 32, 4096, no, no), GemmPath::Wide);
  EXPECT_NE(path_of(4, 128, 64, no, no), GemmPath::Wide);
  // Column-major y = A·x: the caller's B (x) is the short operand and its A is streamed.
  GemmCall gemv = row_major_call(8192, 1, 8192, 1.0f, 0.0f, a(), b(), c());
  gemv.layout = Layout::ColMajor;
  gemv.a.ld = 8192, gemv.b.ld = 8192, gemv.c.ld = 8192;
  EXPECT_EQ(plan_call(h200, gemv).parts.at(0).plan.path, GemmPath::Wide);
}

TEST(WidePath, RefusesWhatItCannotRun) {
  Context& ctx = shared_context();
  cl::Buffer a = ctx.buffer(64 * 64 * 4), b = ctx.buffer(64 * 64 * 4), c = ctx.buffer(64 * 64 * 4);
  const GemmCall call = row_major_call(4, 64, 64, 1.0f, 0.0f, a(), b(), c());
  // B transposed under few rows: its rows run along k, which the kernel does not stream.
  GemmCall strided = call;
  strided.b_transpose = Transpose::Yes;
  strided.b.ld = 64;
  EXPECT_EQ(gemm_status(strided, forced(GemmPath::Wide)), Status::InvalidArgument);
  try {
    gemm(strided, ctx.queue()(), nullptr, forced(GemmPath::Wide));
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("B not transposed"), std::string::npos) << e.what();
  }
  // Neither side short enough; parameters it does not have or cannot run.
  EXPECT_EQ(gemm_status(row_major_call(17, 40, 64, 1.0f, 0.0f, a(), b(), c()), forced(GemmPath::Wide)),
            Status::InvalidArgument);
  EXPECT_EQ(gemm_status(call, forced(GemmPath::Wide, {{"PB", 2}})), Status::InvalidArgument);  // p = 4 > PB
  EXPECT_EQ(gemm_status(call, forced(GemmPath::Wide, {{"PB", 32}})), Status::InvalidArgument);
  EXPECT_EQ(gemm_status(call, forced(GemmPath::Wide, {{"KL", 0}})), Status::InvalidArgument);
  EXPECT_EQ(gemm_status(call, forced(GemmPath::Wide, {{"KL", 32}})), Status::InvalidArgument);
  EXPECT_EQ(gemm_status(call, forced(GemmPath::Wide, {{"WL", 4096}})), Status::InvalidArgument);  // past the group size
  EXPECT_EQ(gemm_status(call, forced(GemmPath::Wide, {{"LQ", 3}})), Status::InvalidArgument);
  EXPECT_EQ(gemm_status(call, forced(GemmPath::Wide, {{"NB", 4}})), Status::InvalidArgument);
  // A shape alone does not say whether the wide kernel can read the call.
  EXPECT_THROW(plan_gemm(ctx.info(), 4, 64, 64, forced(GemmPath::Wide)), Error);
}

}  // namespace
}  // namespace clgemm::test
