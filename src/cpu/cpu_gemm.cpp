// cpu_gemm.cpp — the triple-loop baseline, OpenBLAS, the float64 reference and error measures.
#include <clgemm/cpu.hpp>

#include "cpu/host_cblas.hpp"

#include <cmath>
#include <limits>
#include <random>

namespace clgemm::cpu {

void gemm_triple_loop(const GemmShape& s, const float* a, const float* b, float* c) {
  for (size_t i = 0; i < s.m; ++i)
    for (size_t j = 0; j < s.n; ++j) {
      float acc = 0.0f;
      for (size_t p = 0; p < s.k; ++p) acc += a[i * s.k + p] * b[p * s.n + j];
      c[i * s.n + j] = acc;
    }
}

void gemm_openblas(const GemmShape& s, const float* a, const float* b, float* c) {
  detail::host_cblas().sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, int(s.m), int(s.n), int(s.k), 1.0f, a,
                             int(s.k), b, int(s.n), 0.0f, c, int(s.n));
}

std::vector<double> gemm_reference_f64(const GemmShape& s, const float* a, const float* b) {
  const std::vector<double> ad(a, a + s.m * s.k * s.batch), bd(b, b + s.k * s.n * s.batch);
  return gemm_reference_f64(s, ad.data(), bd.data());
}

std::vector<double> gemm_reference_f64(const GemmShape& s, const double* a, const double* b) {
  std::vector<double> cd(s.m * s.n * s.batch, 0.0);
  if (s.m && s.n && s.k)
    for (size_t i = 0; i < s.batch; ++i)
      detail::host_cblas().dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, int(s.m), int(s.n), int(s.k), 1.0, a + i * s.m * s.k,
                  int(s.k), b + i * s.k * s.n, int(s.n), 0.0, cd.data() + i * s.m * s.n, int(s.n));
  return cd;
}

namespace {

template <typename T>
double relative_error_of(const T* c, const double* ref, size_t count) {
  double diff = 0.0, norm = 0.0;
  for (size_t i = 0; i < count; ++i) {
    if (!std::isfinite(c[i])) return std::numeric_limits<double>::infinity();
    const double d = double(c[i]) - ref[i];
    diff += d * d;
    norm += ref[i] * ref[i];
  }
  return norm > 0 ? std::sqrt(diff / norm) : std::sqrt(diff);
}

}  // namespace

double relative_error(const float* c, const double* ref, size_t count) { return relative_error_of(c, ref, count); }

double relative_error(const double* c, const double* ref, size_t count) { return relative_error_of(c, ref, count); }

double gemm_tolerance(size_t k) {
  // float32 epsilon is 1.2e-7; a sum of k rounded products drifts like sqrt(k) ulps in the
  // norm. 8 ulps·sqrt(k) leaves room for any summation order and still catches every indexing
  // error (which shows up as a relative error of order 1).
  return 8.0 * 1.2e-7 * std::sqrt(double(k) + 1.0) + 1e-6;
}

double gemm_tolerance(size_t k, bool tf32) { return gemm_tolerance(k) + (tf32 ? std::ldexp(1.0, -9) : 0.0); }

double gemm_tolerance(size_t k, DataType in, DataType out) {
  // The float32 rule with double's epsilon (2.2e-16) and a floor as far below it. Each element
  // of C stored in 16 bits is rounded once more, by at most one unit of that type, which bounds
  // the norm of the whole error by as much.
  const double computed = in == DataType::F64 ? 8.0 * 2.2e-16 * std::sqrt(double(k) + 1.0) + 1e-14 : gemm_tolerance(k);
  const double stored = out == DataType::F16 ? std::ldexp(1.0, -11) : out == DataType::BF16 ? std::ldexp(1.0, -8) : 0.0;
  return computed + stored;
}

void fill_random(std::vector<float>& v, uint64_t seed) {
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  for (auto& x : v) x = dist(gen);
}

}  // namespace clgemm::cpu
