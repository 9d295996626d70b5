// bench_fake.cpp — the fake implementation's GEMM and its faults.
#include "bench_fake.hpp"

#include <cblas.h>

#include <stdexcept>

namespace clgemm::test {

using bench::Hardware;

Fake::Fake(std::string name, Mode mode, std::string unavailable, std::string unsupported)
    : mode_(mode), unavailable_(std::move(unavailable)), unsupported_(std::move(unsupported)) {
  info_.name = std::move(name);
  info_.peer = true;
  info_.hardware = Hardware::HostCPU;
}

void Fake::prepare(const bench::Problem& p) {
  if (mode_ == Mode::ThrowInPrepare) throw std::runtime_error("out of device memory\nsecond line");
  p_ = &p;
  c_ = p.c0;
  inputs = p.a.to_doubles();
  for (const bench::HostMatrix* m : {&p.b, &p.c0}) {
    const auto values = m->to_doubles();
    inputs.insert(inputs.end(), values.begin(), values.end());
  }
}

void Fake::reset_c() {
  ++resets;
  c_ = p_->c0;
}

double Fake::run() {
  ++runs;
  const auto& s = p_->settings;
  const bench::HostMatrix before = c_;
  if (s.types.is_f32()) {
    cblas_sgemm(s.layout == Layout::RowMajor ? CblasRowMajor : CblasColMajor,
                s.a_transpose == Transpose::Yes ? CblasTrans : CblasNoTrans,
                s.b_transpose == Transpose::Yes ? CblasTrans : CblasNoTrans, int(p_->shape.m), int(p_->shape.n),
                int(p_->shape.k), s.alpha, p_->a.f32().data(), int(p_->lda), p_->b.f32().data(), int(p_->ldb), s.beta,
                c_.f32().data(), int(p_->ldc));
  } else {
    // The reference reads C0, which is C as it is now: the runner resets C before every run
    // whose beta reads it.
    const std::vector<double> ref = bench::reference_result(*p_);
    for (size_t i = 0; i < ref.size(); ++i) c_.set(i, ref[i]);
  }
  const size_t mid = c_.size() / 2;
  if (mode_ == Mode::PerturbOneElement && c_.size()) c_.set(mid, c_.get(mid) + 0.5);
  if (mode_ == Mode::SkipLastRow)  // row-major: the last row keeps what C held before
    for (size_t i = c_.size() - p_->shape.n; i < c_.size(); ++i) c_.set(i, before.get(i));
  return mode_ == Mode::Slow ? 100.0 : 1e-3;
}

}  // namespace clgemm::test
