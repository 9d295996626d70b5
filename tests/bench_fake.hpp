// bench_fake.hpp — a host implementation for the bench tests that can be made wrong, slow,
// failing, unavailable or unsupported, in any of the bench's precisions.
#pragma once

#include "bench/impl.hpp"

#include <string>
#include <vector>

namespace clgemm::test {

class Fake final : public bench::Implementation {
 public:
  enum class Mode { Correct, PerturbOneElement, SkipLastRow, ThrowInPrepare, Slow };
  Fake(std::string name, Mode mode, std::string unavailable = "", std::string unsupported = "");

  const bench::ImplInfo& info() const override { return info_; }
  std::string unavailable() const override { return unavailable_; }
  std::string unsupported(const bench::Problem&) const override { return unsupported_; }
  void prepare(const bench::Problem& p) override;
  void reset_c() override;
  // float32: OpenBLAS sgemm. Other types: the float64 reference rounded to C's type, which is what
  // a correct GEMM of that C stores at best. Then the mode's fault, if any.
  double run() override;
  bench::HostMatrix result() override { return c_; }
  void release() override { ++releases; }

  int runs = 0, resets = 0, releases = 0;
  std::vector<double> inputs;  // A, B and C0 as the last prepare() received them

 private:
  bench::ImplInfo info_;
  Mode mode_;
  std::string unavailable_, unsupported_;
  const bench::Problem* p_ = nullptr;
  bench::HostMatrix c_;
};

}  // namespace clgemm::test
