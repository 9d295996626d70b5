// bench/triple_loop.cpp — timing and predicting the single-threaded i-j-k loop.
#include "bench/triple_loop.hpp"

#include <clgemm/cpu.hpp>

#include <algorithm>
#include <chrono>
#include <vector>

namespace clgemm::bench {

namespace {
using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }
}  // namespace

double predict_triple_loop_seconds(const GemmShape& s) {
  const size_t c = std::min<size_t>(256, std::max({s.m, s.n, s.k}));
  const GemmShape cal{std::min(s.m, c), std::min(s.n, c), std::min(s.k, c)};
  std::vector<float> a(cal.m * cal.k, 0.5f), b(cal.k * cal.n, 0.25f), out(cal.m * cal.n);
  const auto t0 = Clock::now();
  cpu::gemm_triple_loop(cal, a.data(), b.data(), out.data());
  const double rate = gemm_flops(cal) / std::max(seconds_since(t0), 1e-9);
  return gemm_flops(s) / rate;
}

std::pair<double, bool> triple_loop_seconds(const GemmShape& s, const float* a, const float* b, double limit_s) {
  const double predicted = predict_triple_loop_seconds(s);
  if (predicted > limit_s) return {predicted, false};
  std::vector<float> out(s.m * s.n);
  const auto t0 = Clock::now();
  cpu::gemm_triple_loop(s, a, b, out.data());
  return {seconds_since(t0), true};
}

}  // namespace clgemm::bench
