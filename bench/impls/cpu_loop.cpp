// bench/impls/cpu_loop.cpp — the textbook triple loop (one thread, float accumulation): the
// baseline that "x times faster than the CPU" claims usually mean. It runs only where all of a
// shape's runs are predicted to finish within the limit; elsewhere it is "n/a" with the estimate.
#include "bench/impls/factories.hpp"

#include "bench/triple_loop.hpp"

#include <clgemm/cpu.hpp>

#include <chrono>
#include <cmath>

namespace clgemm::bench {

namespace {

class CpuLoop final : public Implementation {
 public:
  CpuLoop(double limit_s, int runs) : limit_s_(limit_s), runs_(runs) {
    info_.name = "cpu-loop";
    info_.description = "textbook i-j-k triple loop on the host, 1 thread";
    info_.hardware = Hardware::HostCPU;
    info_.timing = Timing::HostClock;
  }
  const ImplInfo& info() const override { return info_; }

  std::string unsupported(const Problem& p) const override {
    if (!p.settings.types.is_f32()) return "the triple loop computes float32 only (--precision f32)";
    if (!p.settings.is_plain()) return "the triple loop computes C = A*B only (row-major, no transposes, alpha 1, beta 0)";
    const double one = predict_triple_loop_seconds(p.gemm_shape());
    if (one * runs_ > limit_s_) {
      const auto whole = [](double v) { return std::to_string(std::llround(v)); };
      return "not run: " + std::to_string(runs_) + " runs would take about " + whole(one * runs_) +
             " s, over the limit of " + whole(limit_s_) + " s (--cpu-limit)";
    }
    return "";
  }
  void prepare(const Problem& p) override {
    p_ = &p;
    c_ = p.c0.f32();
  }
  void reset_c() override { c_ = p_->c0.f32(); }
  double run() override {
    const auto t0 = std::chrono::steady_clock::now();
    cpu::gemm_triple_loop(p_->gemm_shape(), p_->a.f32().data(), p_->b.f32().data(), c_.data());
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  HostMatrix result() override { return HostMatrix(c_); }
  void release() override {
    c_ = {};
    p_ = nullptr;
  }

 private:
  double limit_s_;
  int runs_;
  ImplInfo info_;
  const Problem* p_ = nullptr;
  std::vector<float> c_;
};

}  // namespace

std::unique_ptr<Implementation> make_cpu_loop(double limit_s, int runs) {
  return std::make_unique<CpuLoop>(limit_s, runs);
}

}  // namespace clgemm::bench
