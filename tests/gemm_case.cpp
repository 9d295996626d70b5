// gemm_case.cpp — runs one GEMM case through the public API and checks it against OpenBLAS.
#include "gemm_case.hpp"

#include "test_support.hpp"

#include <cblas.h>

#include <cmath>

namespace clgemm::test {

namespace {

struct Extent {
  size_t rows, cols;  // as stored
};

// Rows×cols of an operand as stored in `layout`, with leading dimension `ld`: the buffer span.
size_t span(Layout layout, Extent e, size_t ld) {
  if (e.rows == 0 || e.cols == 0) return 0;
  return layout == Layout::RowMajor ? (e.rows - 1) * ld + e.cols : (e.cols - 1) * ld + e.rows;
}

size_t min_ld(Layout layout, Extent e) { return std::max<size_t>(1, layout == Layout::RowMajor ? e.cols : e.rows); }

// Is element `i` of a buffer part of the matrix (offset, ld, extent, layout)?
bool in_matrix(size_t i, size_t offset, size_t ld, Extent e, Layout layout) {
  if (i < offset) return false;
  const size_t r = (i - offset) / ld, c = (i - offset) % ld;
  return layout == Layout::RowMajor ? (r < e.rows && c < e.cols) : (r < e.cols && c < e.rows);
}


}  // namespace

std::string describe(const SweepCase& c) {
  return std::string(c.layout == Layout::RowMajor ? "row" : "col") + " ta=" + (c.ta == Transpose::Yes ? "T" : "N") +
         " tb=" + (c.tb == Transpose::Yes ? "T" : "N") + " m=" + std::to_string(c.m) + " n=" + std::to_string(c.n) +
         " k=" + std::to_string(c.k) + " pad=" + std::to_string(c.pad) + " off=" + std::to_string(c.offset) +
         " alpha=" + std::to_string(c.alpha) + " beta=" + std::to_string(c.beta);
}

// Runs one case through clgemm and OpenBLAS on the same inputs and compares.
void run_case(const SweepCase& sc, const GemmOptions& options) {
  Context& ctx = shared_context();
  const uint64_t seed = fresh_seed();
  const Extent ea{sc.ta == Transpose::Yes ? sc.k : sc.m, sc.ta == Transpose::Yes ? sc.m : sc.k};
  const Extent eb{sc.tb == Transpose::Yes ? sc.n : sc.k, sc.tb == Transpose::Yes ? sc.k : sc.n};
  const Extent ec{sc.m, sc.n};
  const size_t lda = min_ld(sc.layout, ea) + sc.pad, ldb = min_ld(sc.layout, eb) + sc.pad,
               ldc = min_ld(sc.layout, ec) + sc.pad;
  std::vector<float> a(sc.offset + span(sc.layout, ea, lda)), b(sc.offset + span(sc.layout, eb, ldb)),
      c(sc.offset + span(sc.layout, ec, ldc));
  cpu::fill_random(a, seed);
  cpu::fill_random(b, seed + 1);
  cpu::fill_random(c, seed + 2);

  cl::Buffer da = upload(ctx, a), db = upload(ctx, b);
  GuardedBuffer dc(ctx, c.size());
  ctx.queue().enqueueWriteBuffer(dc.view(), CL_TRUE, 0, c.size() * sizeof(float), c.data());

  GemmCall call;
  call.layout = sc.layout, call.a_transpose = sc.ta, call.b_transpose = sc.tb;
  call.m = sc.m, call.n = sc.n, call.k = sc.k, call.alpha = sc.alpha, call.beta = sc.beta;
  call.a = {da(), sc.offset, lda};
  call.b = {db(), sc.offset, ldb};
  call.c = {dc.view()(), sc.offset, ldc};
  cl_event ev = nullptr;
  gemm(call, ctx.queue()(), &ev, options);
  ASSERT_NE(ev, nullptr);
  ASSERT_EQ(clWaitForEvents(1, &ev), CL_SUCCESS);
  clReleaseEvent(ev);
  const std::vector<float> got = dc.read();

  std::vector<float> want = c;
  const auto order = sc.layout == Layout::RowMajor ? CblasRowMajor : CblasColMajor;
  const auto ta = sc.ta == Transpose::Yes ? CblasTrans : CblasNoTrans, tb = sc.tb == Transpose::Yes ? CblasTrans : CblasNoTrans;
  cblas_sgemm(order, ta, tb, int(sc.m), int(sc.n), int(sc.k), sc.alpha, a.data() + sc.offset, int(lda),
              b.data() + sc.offset, int(ldb), sc.beta, want.data() + sc.offset, int(ldc));
  // The scale rounding errors are measured against: |alpha|·|A|·|B| + |beta|·|C|. Dividing by the
  // result itself would make a single dot product that cancels to nearly zero look inaccurate.
  std::vector<float> abs_a(a.size()), abs_b(b.size()), scale(c.size());
  for (size_t i = 0; i < a.size(); ++i) abs_a[i] = std::fabs(a[i]);
  for (size_t i = 0; i < b.size(); ++i) abs_b[i] = std::fabs(b[i]);
  for (size_t i = 0; i < c.size(); ++i) scale[i] = std::fabs(c[i]);
  cblas_sgemm(order, ta, tb, int(sc.m), int(sc.n), int(sc.k), std::fabs(sc.alpha), abs_a.data() + sc.offset, int(lda),
              abs_b.data() + sc.offset, int(ldb), std::fabs(sc.beta), scale.data() + sc.offset, int(ldc));

  EXPECT_EQ(dc.guard_damage(), "") << describe(sc);
  double diff = 0, norm = 0;
  for (size_t i = 0; i < c.size(); ++i) {
    if (!in_matrix(i, sc.offset, ldc, ec, sc.layout)) {
      ASSERT_EQ(got[i], c[i]) << "element " << i << " outside the matrix changed; " << describe(sc);
      continue;
    }
    ASSERT_TRUE(std::isfinite(got[i])) << "element " << i << " is " << got[i] << "; " << describe(sc);
    diff += double(got[i] - want[i]) * (got[i] - want[i]);
    norm += double(scale[i]) * scale[i];
  }
  const double err = norm > 0 ? std::sqrt(diff / norm) : std::sqrt(diff);
  // Both results carry float32 rounding, so allow twice the single-result tolerance. TF32 keeps
  // 11 significant bits of each input: 2^-9 of the products' magnitude more. 3xTF32 claims
  // float32's accuracy and gets float32's tolerance.
  EXPECT_LE(err, cpu::gemm_tolerance(sc.k) + cpu::gemm_tolerance(sc.k, options.math == Math::Tf32))
      << describe(sc) << " seed " << seed;
}

void run_every_layout(const std::vector<std::tuple<size_t, size_t, size_t>>& shapes, const GemmOptions& options) {
  for (Layout layout : {Layout::RowMajor, Layout::ColMajor})
    for (Transpose ta : {Transpose::No, Transpose::Yes})
      for (Transpose tb : {Transpose::No, Transpose::Yes})
        for (const auto& [m, n, k] : shapes) {
          run_case({layout, ta, tb, m, n, k, 3, 13, -1.5f, 0.5f}, options);
          run_case({layout, ta, tb, m, n, k, 0, 0, 1.0f, 0.0f}, options);
          if (::testing::Test::HasFatalFailure()) return;
        }
}

}  // namespace clgemm::test
