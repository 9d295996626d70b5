// bench/impls/openblas.cpp — OpenBLAS cblas_sgemm on the host CPU with all its threads: the CPU
// library a user would otherwise call. Synchronous, so the host clock around the call is its time.
#include "bench/impls/factories.hpp"

#include <cblas.h>

#include <chrono>

namespace clgemm::bench {

namespace {

class OpenBlas final : public Implementation {
 public:
  OpenBlas() {
    info_.name = "openblas";
    info_.description = "OpenBLAS cblas_sgemm on the host CPU, " + std::to_string(openblas_get_num_threads()) +
                        " threads";
    info_.peer = true;
    info_.hardware = Hardware::HostCPU;
    info_.timing = Timing::HostClock;
  }
  const ImplInfo& info() const override { return info_; }

  void prepare(const Problem& p) override {
    p_ = &p;
    c_ = p.c0;
  }
  void reset_c() override { c_ = p_->c0; }
  double run() override {
    const auto& s = p_->settings;
    const auto t0 = std::chrono::steady_clock::now();
    cblas_sgemm(s.layout == Layout::RowMajor ? CblasRowMajor : CblasColMajor,
                s.a_transpose == Transpose::Yes ? CblasTrans : CblasNoTrans,
                s.b_transpose == Transpose::Yes ? CblasTrans : CblasNoTrans, int(p_->shape.m), int(p_->shape.n),
                int(p_->shape.k), s.alpha, p_->a.data(), int(p_->lda), p_->b.data(), int(p_->ldb), s.beta, c_.data(),
                int(p_->ldc));
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  std::vector<float> result() override { return c_; }
  void release() override {
    c_ = {};
    p_ = nullptr;
  }

 private:
  ImplInfo info_;
  const Problem* p_ = nullptr;
  std::vector<float> c_;
};

}  // namespace

std::unique_ptr<Implementation> make_openblas() { return std::make_unique<OpenBlas>(); }

}  // namespace clgemm::bench
