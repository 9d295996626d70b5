// bench/checker.cpp — relative error and per-precision tolerance.
#include "bench/checker.hpp"

#include <clgemm/cpu.hpp>

#include <cfloat>
#include <cmath>
#include <sstream>

namespace clgemm::bench {

const char* precision_name(Precision p) { return p == Precision::TF32 ? "tf32" : "fp32"; }

double tolerance(Precision p, size_t k) {
  const double fp32 = cpu::gemm_tolerance(k);
  return p == Precision::TF32 ? fp32 + 8.0 * std::ldexp(1.0, -10) : fp32;
}

namespace {

// Where the float64 reference is NaN or infinite, or beyond float32's range, float32 arithmetic
// gives NaN or an infinity; which one depends on the order the products are added and scaled in
// (alpha = Inf times partial sums of either sign gives Inf - Inf = NaN in one implementation and
// Inf in another), so any of them is right there.
bool special(double reference) { return !(std::fabs(reference) <= double(FLT_MAX)); }

}  // namespace

Check check_result(const std::vector<float>& c, const std::vector<double>& ref, Precision p, size_t k) {
  Check r;
  r.tolerance = tolerance(p, k);
  if (c.size() != ref.size()) {
    r.error = INFINITY;
    r.problem = "result has " + std::to_string(c.size()) + " elements, expected " + std::to_string(ref.size());
    return r;
  }
  double diff2 = 0, ref2 = 0;
  size_t mismatches = 0, first = 0;
  for (size_t i = 0; i < c.size(); ++i) {
    const double v = c[i], want = ref[i];
    if (special(want) == std::isfinite(v)) {
      if (mismatches++ == 0) first = i;
    } else if (!special(want)) {
      diff2 += (v - want) * (v - want);
      ref2 += want * want;
    }
  }
  // A zero reference leaves the absolute error (as cpu::relative_error does).
  r.error = mismatches ? INFINITY : ref2 > 0 ? std::sqrt(diff2 / ref2) : std::sqrt(diff2);
  r.ok = r.error <= r.tolerance;
  if (!r.ok) {
    std::ostringstream os;
    if (mismatches)
      os << mismatches << " element" << (mismatches == 1 ? " is" : "s are")
         << " NaN or Inf where the float64 reference is finite, or the other way round (first: element " << first
         << " is " << c[first] << ", the reference " << ref[first] << ")";
    else os << "relative error " << r.error << " exceeds " << r.tolerance;
    r.problem = os.str();
  }
  return r;
}

}  // namespace clgemm::bench
