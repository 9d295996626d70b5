// bench/impls/openblas.cpp — OpenBLAS on the host CPU with all its threads: the CPU library a user
// would otherwise call, cblas_sgemm for float32 and cblas_dgemm for float64 (OpenBLAS has no GEMM
// of the 16-bit types as clgemm stores them), and cblas_sgemv or cblas_dgemv where M = 1, as a
// caller with one row of activations writes (the OpenBLAS of Debian 12 does not forward such a
// GEMM to its GEMV, which is faster at it). Synchronous, so the host clock around the call is its
// time.
#include "bench/impls/factories.hpp"

#include <cblas.h>

#include <chrono>

namespace clgemm::bench {

namespace {

class OpenBlas final : public Implementation {
 public:
  explicit OpenBlas(GemmTypes types) : types_(types) {
    const bool f64 = types.in == DataType::F64;
    info_.name = "openblas";
    info_.description = std::string("OpenBLAS ") + (f64 ? "cblas_dgemm (dgemv where M = 1)" : "cblas_sgemm (sgemv where M = 1)") +
                        " on the host CPU, " +
                        std::to_string(openblas_get_num_threads()) + " threads";
    info_.peer = true;
    info_.precision = f64 ? Precision::FP64 : Precision::FP32;
    info_.hardware = Hardware::HostCPU;
    info_.timing = Timing::HostClock;
  }
  const ImplInfo& info() const override { return info_; }

  std::string unsupported(const Problem& p) const override {
    const GemmTypes& t = p.settings.types;
    if (!t.is_f32() && !(t.in == DataType::F64 && t.out == DataType::F64))
      return "OpenBLAS has sgemm and dgemm only, no GEMM of " + t.describe() + " (--precision " + t.name() + ")";
    return types_mismatch(types_, p);
  }
  void prepare(const Problem& p) override {
    p_ = &p;
    c_ = p.c0;
  }
  void reset_c() override { c_ = p_->c0; }
  double run() override {
    const auto& s = p_->settings;
    const auto layout = s.layout == Layout::RowMajor ? CblasRowMajor : CblasColMajor;
    const auto ta = s.a_transpose == Transpose::Yes ? CblasTrans : CblasNoTrans;
    const auto tb = s.b_transpose == Transpose::Yes ? CblasTrans : CblasNoTrans;
    const int m = int(p_->shape.m), n = int(p_->shape.n), k = int(p_->shape.k);
    if (m == 1) return run_gemv(layout, tb, n, k);
    const auto t0 = std::chrono::steady_clock::now();
    if (c_.type() == DataType::F64)
      cblas_dgemm(layout, ta, tb, m, n, k, double(s.alpha), p_->a.f64().data(), int(p_->lda), p_->b.f64().data(),
                  int(p_->ldb), double(s.beta), c_.f64().data(), int(p_->ldc));
    else
      cblas_sgemm(layout, ta, tb, m, n, k, s.alpha, p_->a.f32().data(), int(p_->lda), p_->b.f32().data(), int(p_->ldb),
                  s.beta, c_.f32().data(), int(p_->ldc));
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  HostMatrix result() override { return c_; }

  // C's one row = alpha·op(B)ᵀ·a + beta·C: op(B)ᵀ is B as stored where B enters transposed, else
  // its transpose, in either layout. The strides of a's and C's elements follow from the layout.
  double run_gemv(decltype(CblasRowMajor) layout, decltype(CblasTrans) tb, int n, int k) {
    const auto& s = p_->settings;
    const bool row = s.layout == Layout::RowMajor, ta = s.a_transpose == Transpose::Yes;
    const int inc_a = row != ta ? 1 : int(p_->lda), inc_c = row ? 1 : int(p_->ldc);
    const bool b_as_stored = tb == CblasTrans;
    const auto op = b_as_stored ? CblasNoTrans : CblasTrans;
    const int rows = b_as_stored ? n : k, cols = b_as_stored ? k : n;
    const auto t0 = std::chrono::steady_clock::now();
    if (c_.type() == DataType::F64)
      cblas_dgemv(layout, op, rows, cols, double(s.alpha), p_->b.f64().data(), int(p_->ldb), p_->a.f64().data(), inc_a,
                  double(s.beta), c_.f64().data(), inc_c);
    else
      cblas_sgemv(layout, op, rows, cols, s.alpha, p_->b.f32().data(), int(p_->ldb), p_->a.f32().data(), inc_a,
                  s.beta, c_.f32().data(), inc_c);
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  void release() override {
    c_ = {};
    p_ = nullptr;
  }

 private:
  GemmTypes types_;
  ImplInfo info_;
  const Problem* p_ = nullptr;
  HostMatrix c_;
};

}  // namespace

std::unique_ptr<Implementation> make_openblas(GemmTypes types) { return std::make_unique<OpenBlas>(types); }

}  // namespace clgemm::bench
