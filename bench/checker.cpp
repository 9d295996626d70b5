// bench/checker.cpp — relative error and per-precision tolerance.
#include "bench/checker.hpp"

#include <clgemm/cpu.hpp>

#include <cmath>
#include <sstream>

namespace clgemm::bench {

const char* precision_name(Precision p) { return p == Precision::TF32 ? "tf32" : "fp32"; }

double tolerance(Precision p, size_t k) {
  const double fp32 = cpu::gemm_tolerance(k);
  return p == Precision::TF32 ? fp32 + 8.0 * std::ldexp(1.0, -10) : fp32;
}

Check check_result(const std::vector<float>& c, const std::vector<double>& ref, Precision p, size_t k) {
  Check r;
  r.tolerance = tolerance(p, k);
  if (c.size() != ref.size()) {
    r.error = INFINITY;
    r.problem = "result has " + std::to_string(c.size()) + " elements, expected " + std::to_string(ref.size());
    return r;
  }
  r.error = cpu::relative_error(c.data(), ref.data(), c.size());
  r.ok = r.error <= r.tolerance;
  if (!r.ok) {
    std::ostringstream os;
    if (std::isinf(r.error)) os << "result holds NaN or Inf";
    else os << "relative error " << r.error << " exceeds " << r.tolerance;
    r.problem = os.str();
  }
  return r;
}

}  // namespace clgemm::bench
