// grouped_test.cpp — gemm_grouped and its C entries: problems of mixed sizes (empty ones, k = 0,
// odd shapes), each with its own transposes (or one pair for all, which xgemm's grouped build
// takes on NVIDIA), scalars, offsets and leading dimensions, in one launch, checked against float64 with the gaps between them and guard zones around C; every
// precision; and bad input, each with its status and the problem's index.
#include <clgemm/clgemm.h>
#include <clgemm/gemm.hpp>

#include "test_support.hpp"

#include <cmath>
#include <limits>

namespace clgemm::test {
namespace {

struct Spec {
  size_t m, n, k;
  bool ta, tb;
  double alpha, beta;
};

// op(X)(i, p) of a stored matrix (rows × cols as stored) in `layout` with leading dimension ld.
double at(const std::vector<double>& x, size_t off, size_t ld, Layout layout, bool trans, size_t i, size_t p) {
  const size_t r = trans ? p : i, c = trans ? i : p;
  return x[off + (layout == Layout::RowMajor ? r * ld + c : c * ld + r)];
}

// The problems laid out one after another in each buffer, `gap` elements apart, leading dimensions
// `pad` beyond the minimum.
struct Layouted {
  std::vector<GemmCall> calls;
  size_t a_size = 0, b_size = 0, c_size = 0;
};

Layouted lay_out(const std::vector<Spec>& specs, Layout layout, size_t gap, size_t pad) {
  Layouted l;
  const bool row = layout == Layout::RowMajor;
  for (const Spec& s : specs) {
    GemmCall c;
    c.layout = layout;
    c.a_transpose = s.ta ? Transpose::Yes : Transpose::No;
    c.b_transpose = s.tb ? Transpose::Yes : Transpose::No;
    c.m = s.m, c.n = s.n, c.k = s.k, c.alpha = s.alpha, c.beta = s.beta;
    const size_t a_rows = s.ta ? s.k : s.m, a_cols = s.ta ? s.m : s.k;
    const size_t b_rows = s.tb ? s.n : s.k, b_cols = s.tb ? s.k : s.n;
    const auto place = [&](size_t rows, size_t cols, size_t& size, MatrixRef& ref) {
      ref.ld = (row ? cols : rows) + pad;
      ref.offset = size;
      size += (row ? rows : cols) * ref.ld + gap;
    };
    place(a_rows, a_cols, l.a_size, c.a);
    place(b_rows, b_cols, l.b_size, c.b);
    place(s.m, s.n, l.c_size, c.c);
    l.calls.push_back(c);
  }
  return l;
}

// Runs the problems in f32 with C in a guarded buffer; every problem against float64, every
// element of C outside them untouched, both guard zones intact; one command enqueued.
void check_grouped_f32(const std::vector<Spec>& specs, Layout layout, const GemmOptions& base = {}) {
  Context& ctx = shared_context();
  Layouted l = lay_out(specs, layout, 5, 3);
  std::vector<float> a(l.a_size), b(l.b_size), c(l.c_size);
  const uint64_t seed = fresh_seed();
  cpu::fill_random(a, seed);
  cpu::fill_random(b, seed + 1);
  cpu::fill_random(c, seed + 2);
  const cl::Buffer da = upload(ctx, a), db = upload(ctx, b);
  GuardedBuffer dc(ctx, c.size());
  dc.poison();
  ctx.queue().enqueueWriteBuffer(dc.view(), CL_TRUE, 0, c.size() * sizeof(float), c.data());
  for (GemmCall& call : l.calls) call.a.buffer = da(), call.b.buffer = db(), call.c.buffer = dc.view()();
  std::vector<cl::Event> events;
  GemmOptions options = base;
  options.events = &events;
  cl_event ev = nullptr;
  gemm_grouped(l.calls, ctx.queue()(), &ev, options);
  wait_and_release(ev);
  EXPECT_EQ(events.size(), 1u) << "one launch for all problems";
  const std::vector<float> got = dc.read();
  EXPECT_EQ(dc.guard_damage(), "");
  const std::vector<double> ad(a.begin(), a.end()), bd(b.begin(), b.end());
  std::vector<bool> inside(c.size(), false);
  const bool row = layout == Layout::RowMajor;
  for (size_t q = 0; q < specs.size(); ++q) {
    const Spec& s = specs[q];
    const GemmCall& call = l.calls[q];
    std::vector<float> mine;
    std::vector<double> want;
    for (size_t i = 0; i < s.m; ++i)
      for (size_t j = 0; j < s.n; ++j) {
        double sum = 0;
        for (size_t p = 0; p < s.k; ++p)
          sum += at(ad, call.a.offset, call.a.ld, layout, s.ta, i, p) * at(bd, call.b.offset, call.b.ld, layout, s.tb, p, j);
        const size_t e = call.c.offset + (row ? i * call.c.ld + j : j * call.c.ld + i);
        inside[e] = true;
        want.push_back(s.alpha * sum + (s.beta != 0 ? s.beta * double(c[e]) : 0.0));
        mine.push_back(got[e]);
      }
    if (!mine.empty()) {
      EXPECT_TRUE(matches_reference(mine, want, std::max<size_t>(s.k, 1), seed))
          << "problem " << q << ": " << shape_text({s.m, s.n, s.k}) << (s.ta ? " A^T" : "") << (s.tb ? " B^T" : "");
    }
  }
  for (size_t e = 0; e < c.size(); ++e) {
    if (!inside[e]) {
      ASSERT_EQ(got[e], c[e]) << "C[" << e << "] outside every problem was written";
    }
  }
}

const std::vector<Spec> kMixed = {
    {1, 1, 1, false, false, 1.0, 0.0},      {7, 9, 13, true, false, 0.5, -1.0},  {0, 5, 5, false, false, 1, 0},
    {63, 65, 127, false, true, 1.0, 0.5},   {5, 0, 3, true, true, 1, 1},         {129, 1, 7, true, true, -2.0, 0.0},
    {33, 17, 0, false, false, 1.0, 0.25},   {65, 64, 31, false, false, 0.0, 2.0}, {3, 130, 40, true, false, 1.0, 1.0},
};

TEST(Grouped, MixedSizesTransposesAndScalarsRowMajor) { check_grouped_f32(kMixed, Layout::RowMajor); }
TEST(Grouped, MixedSizesTransposesAndScalarsColumnMajor) { check_grouped_f32(kMixed, Layout::ColMajor); }

// Every problem with the same transposes, as xgemm's grouped build takes them where it reads
// operands in place (NVIDIA); elsewhere the grouped kernel: each pair of transposes, both layouts.
TEST(Grouped, OnePairOfTransposesForAllProblems) {
  for (const Layout layout : {Layout::RowMajor, Layout::ColMajor})
    for (const bool ta : {false, true})
      for (const bool tb : {false, true}) {
        std::vector<Spec> specs = kMixed;
        for (Spec& s : specs) s.ta = ta, s.tb = tb;
        check_grouped_f32(specs, layout);
        if (HasFatalFailure()) return;
      }
}

// Tiles other than the defaults: the problems still fall to the right work-groups.
TEST(Grouped, OtherTiles) {
  check_grouped_f32(kMixed, Layout::RowMajor, forced(GemmPath::Auto, {{"TM", 16}, {"TN", 32}, {"WM", 2}, {"WN", 4}}));
  check_grouped_f32(kMixed, Layout::ColMajor, forced(GemmPath::Auto, {{"TM", 32}, {"TN", 16}, {"TK", 8}, {"WM", 4}, {"WN", 2}}));
}

// beta = 0 never reads C: NaN there is overwritten.
TEST(Grouped, BetaZeroOverwritesNan) {
  Context& ctx = shared_context();
  const Layouted l = lay_out({{4, 5, 6, false, false, 1.0, 0.0}, {3, 2, 1, true, false, 2.0, 0.0}}, Layout::RowMajor, 0, 0);
  std::vector<float> a(l.a_size, 1.0f), b(l.b_size, 1.0f), c(l.c_size, std::numeric_limits<float>::quiet_NaN());
  const cl::Buffer da = upload(ctx, a), db = upload(ctx, b), dc = upload(ctx, c);
  std::vector<GemmCall> calls = l.calls;
  for (GemmCall& call : calls) call.a.buffer = da(), call.b.buffer = db(), call.c.buffer = dc();
  cl_event ev = nullptr;
  gemm_grouped(calls, ctx.queue()(), &ev);
  wait_and_release(ev);
  const std::vector<float> got = download(ctx, dc, c.size());
  for (size_t e = 0; e < 20; ++e) EXPECT_EQ(got[e], 6.0f) << e;
  for (size_t e = 20; e < 26; ++e) EXPECT_EQ(got[e], 2.0f) << e;
}

// f64, and bf16 and f16 operands with an f32 C, through the C entry with types.
TEST(Grouped, EveryPrecisionThroughTheTypedCEntry) {
  Context& ctx = shared_context();
  struct Types {
    DataType in, out;
  };
  for (const Types t : {Types{DataType::F64, DataType::F64}, Types{DataType::BF16, DataType::F32},
                        Types{DataType::F16, DataType::F16}}) {
    if (t.in == DataType::F64 && !ctx.info().fp64) continue;
    // One pair of transposes, so that f64 takes xgemm's grouped build where it exists.
    const std::vector<Spec> specs = {{17, 9, 33, false, true, 1.5, 0.0}, {5, 31, 8, false, true, 1.0, -0.5},
                                     {64, 16, 100, false, true, -1.0, 0.0}};
    const Layouted l = lay_out(specs, Layout::ColMajor, 2, 1);
    std::vector<float> a(l.a_size), b(l.b_size), c(l.c_size);
    const uint64_t seed = fresh_seed();
    cpu::fill_random(a, seed);
    cpu::fill_random(b, seed + 1);
    cpu::fill_random(c, seed + 2);
    const auto store = [&](const std::vector<float>& x, DataType type) {
      const auto bytes = cpu::to_storage(type, std::vector<double>(x.begin(), x.end()));
      return std::make_pair(bytes, cpu::from_storage(type, bytes.data(), x.size()));
    };
    const auto [ab, av] = store(a, t.in);
    const auto [bb, bv] = store(b, t.in);
    const auto [cb, cv] = store(c, t.out);
    cl::Buffer da(ctx.context(), CL_MEM_COPY_HOST_PTR, ab.size(), const_cast<unsigned char*>(ab.data()));
    cl::Buffer db(ctx.context(), CL_MEM_COPY_HOST_PTR, bb.size(), const_cast<unsigned char*>(bb.data()));
    cl::Buffer dc(ctx.context(), CL_MEM_COPY_HOST_PTR, cb.size(), const_cast<unsigned char*>(cb.data()));
    std::vector<clgemmTranspose> ta, tb;
    std::vector<size_t> ms, ns, ks, ao, al, bo, bl, co, cl;
    std::vector<double> alphas, betas;
    for (size_t q = 0; q < specs.size(); ++q) {
      const GemmCall& g = l.calls[q];
      ta.push_back(specs[q].ta ? clgemmTransposeYes : clgemmTransposeNo);
      tb.push_back(specs[q].tb ? clgemmTransposeYes : clgemmTransposeNo);
      ms.push_back(g.m), ns.push_back(g.n), ks.push_back(g.k), alphas.push_back(g.alpha), betas.push_back(g.beta);
      ao.push_back(g.a.offset), al.push_back(g.a.ld), bo.push_back(g.b.offset), bl.push_back(g.b.ld);
      co.push_back(g.c.offset), cl.push_back(g.c.ld);
    }
    cl_command_queue q = ctx.queue()();
    cl_event ev = nullptr;
    ASSERT_EQ(clgemmGemmGroupedEx(clgemmLayoutColMajor, ta.data(), tb.data(), ms.data(), ns.data(), ks.data(), alphas.data(),
                                  da(), clgemmDataType(t.in), ao.data(), al.data(), db(), clgemmDataType(t.in),
                                  bo.data(), bl.data(), betas.data(), dc(), clgemmDataType(t.out), co.data(), cl.data(),
                                  specs.size(), clgemmComputeAuto, &q, &ev),
              clgemmSuccess)
        << clgemmLastErrorMessage();
    wait_and_release(ev);
    std::vector<unsigned char> out(cb.size());
    ctx.queue().enqueueReadBuffer(dc, CL_TRUE, 0, out.size(), out.data());
    const std::vector<double> got = cpu::from_storage(t.out, out.data(), c.size());
    for (size_t p = 0; p < specs.size(); ++p) {
      const Spec& s = specs[p];
      const GemmCall& g = l.calls[p];
      std::vector<double> mine, want;
      for (size_t i = 0; i < s.m; ++i)
        for (size_t j = 0; j < s.n; ++j) {
          double sum = 0;
          for (size_t r = 0; r < s.k; ++r)
            sum += at(av, g.a.offset, g.a.ld, Layout::ColMajor, s.ta, i, r) *
                   at(bv, g.b.offset, g.b.ld, Layout::ColMajor, s.tb, r, j);
          const size_t e = g.c.offset + j * g.c.ld + i;
          want.push_back(s.alpha * sum + (s.beta != 0 ? s.beta * cv[e] : 0.0));
          mine.push_back(got[e]);
        }
      const double err = cpu::relative_error(mine.data(), want.data(), mine.size());
      EXPECT_LE(err, cpu::gemm_tolerance(s.k, t.in, t.out))
          << data_type_name(t.in) << " to " << data_type_name(t.out) << ", problem " << p << " (seed " << seed << ")";
    }
  }
}

// Bad input: each failure has its status and names the problem; nothing runs.
TEST(Grouped, BadProblemsAreNamed) {
  Context& ctx = shared_context();
  const cl::Buffer a = upload(ctx, std::vector<float>(4096, 1.0f)), b = upload(ctx, std::vector<float>(4096, 1.0f)),
                   c = upload(ctx, std::vector<float>(4096, 0.0f)), other = upload(ctx, std::vector<float>(4096, 0.0f));
  const auto good = [&](size_t c_offset) {
    GemmCall g = row_major_call(8, 8, 8, 1, 0, a(), b(), c());
    g.c.offset = c_offset;
    return g;
  };
  const auto status_of = [&](const std::vector<GemmCall>& problems, const std::string& want_text) {
    try {
      gemm_grouped(problems, ctx.queue()());
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(want_text), std::string::npos) << e.what();
      return e.status();
    }
    return Status::Success;
  };
  std::vector<GemmCall> p = {good(0), good(64)};
  EXPECT_EQ(status_of(p, ""), Status::Success);
  p[1].a.buffer = other();
  EXPECT_EQ(status_of(p, "problem 1: A buffer differs from problem 0's"), Status::InvalidArgument);
  p = {good(0), good(64), good(128)};
  p[2].b.ld = 3;
  EXPECT_EQ(status_of(p, "problem 2: b_ld"), Status::InvalidLeadingDimension);
  p = {good(0), good(60)};
  EXPECT_EQ(status_of(p, "problems 0 and 1"), Status::OverlappingOperands);
  p = {good(0), good(64)};
  p[1].c.offset = 8 * 8 * 64;  // past the end of C
  EXPECT_EQ(status_of(p, "problem 1: "), Status::BufferTooSmall);
  p = {good(0), good(64)};
  p[1].a_type = p[1].b_type = DataType::F16;  // valid alone (f16 A and B, f32 C), not beside f32
  EXPECT_EQ(status_of(p, "problem 1: A type differs"), Status::UnsupportedTypes);
  p[1].c_type = DataType::F64;
  EXPECT_EQ(status_of(p, "problem 1: "), Status::UnsupportedTypes);
  p = {good(0)};
  p[0].compute = ComputeType::Tf32x3;
  EXPECT_EQ(status_of(p, "problem 0: a grouped call computes in float32"), Status::UnsupportedTypes);
  p = {good(0), good(64)};
  p[1].layout = Layout::ColMajor;
  EXPECT_EQ(status_of(p, "problem 1: layout differs"), Status::InvalidArgument);
  // Nothing to do: an empty list, and problems without elements of C, succeed.
  EXPECT_EQ(status_of({}, ""), Status::Success);
  GemmCall empty = good(0);
  empty.m = 0;
  EXPECT_EQ(status_of({empty}, ""), Status::Success);
  // The C entry: null arrays with problems are refused.
  cl_command_queue q = ctx.queue()();
  EXPECT_EQ(clgemmSgemmGrouped(clgemmLayoutRowMajor, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, a(), nullptr,
                               nullptr, b(), nullptr, nullptr, nullptr, c(), nullptr, nullptr, 2, &q, nullptr),
            clgemmInvalidArgument);
  EXPECT_EQ(clgemmSgemmGrouped(clgemmLayoutRowMajor, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, a(), nullptr,
                               nullptr, b(), nullptr, nullptr, nullptr, c(), nullptr, nullptr, 0, &q, nullptr),
            clgemmSuccess);
}

}  // namespace
}  // namespace clgemm::test
