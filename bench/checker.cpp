// bench/checker.cpp — relative error and the tolerance per arithmetic and storage type.
#include "bench/checker.hpp"

#include <clgemm/cpu.hpp>

#include <cmath>
#include <sstream>

namespace clgemm::bench {

const char* precision_name(Precision p) {
  switch (p) {
    case Precision::FP32: return "fp32";
    case Precision::TF32: return "tf32";
    case Precision::FP64: return "fp64";
    case Precision::FP16: return "fp16";
  }
  return "?";
}

namespace {

// cpu::gemm_tolerance's bound for an arithmetic of machine epsilon `eps`.
double sum_bound(double eps, size_t k) { return 8.0 * eps * std::sqrt(double(k) + 1.0) + 8.0 * eps; }

// The magnitude from which rounding to `t` (to nearest even) gives an infinity: the largest finite
// value plus half its ulp. float64 results are not rounded further, so only a non-finite
// reference is out of their range.
double overflow_threshold(DataType t) {
  switch (t) {
    case DataType::F64: return INFINITY;
    case DataType::F16: return std::ldexp(2.0 - std::ldexp(1.0, -11), 15);
    case DataType::BF16: return std::ldexp(2.0 - std::ldexp(1.0, -8), 127);
    case DataType::F32: break;
  }
  return std::ldexp(2.0 - std::ldexp(1.0, -24), 127);
}

}  // namespace

double tolerance(Precision p, size_t k) {
  switch (p) {
    case Precision::FP32: return cpu::gemm_tolerance(k);
    case Precision::TF32: return cpu::gemm_tolerance(k) + 8.0 * std::ldexp(1.0, -10);
    case Precision::FP64: return sum_bound(std::ldexp(1.0, -52), k);
    case Precision::FP16: return sum_bound(std::ldexp(1.0, -10), k);
  }
  return 0;
}

double tolerance(Precision p, DataType c_type, size_t k) {
  const double storage = c_type == DataType::F16    ? std::ldexp(1.0, -11)
                         : c_type == DataType::BF16 ? std::ldexp(1.0, -8)
                                                    : 0.0;
  return tolerance(p, k) + storage;
}

Check check_result(const HostMatrix& c, const std::vector<double>& ref, Precision p, size_t k) {
  Check r;
  r.tolerance = tolerance(p, c.type(), k);
  if (c.size() != ref.size()) {
    r.error = INFINITY;
    r.problem = "result has " + std::to_string(c.size()) + " elements, expected " + std::to_string(ref.size());
    return r;
  }
  // Where the reference is NaN or infinite, or beyond C's range, the arithmetic gives NaN or an
  // infinity; which one depends on the order the products are added and scaled in (alpha = Inf
  // times partial sums of either sign gives Inf - Inf = NaN in one implementation and Inf in
  // another), so any of them is right there.
  const double limit = overflow_threshold(c.type());
  const auto special = [limit](double reference) { return !(std::fabs(reference) < limit); };
  double diff2 = 0, ref2 = 0;
  size_t mismatches = 0, first = 0;
  for (size_t i = 0; i < c.size(); ++i) {
    const double v = c.get(i), want = ref[i];
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
         << " is " << c.get(first) << ", the reference " << ref[first] << ")";
    else os << "relative error " << r.error << " exceeds " << r.tolerance;
    r.problem = os.str();
  }
  return r;
}

Check check_result(const std::vector<float>& c, const std::vector<double>& ref, Precision p, size_t k) {
  return check_result(HostMatrix(c), ref, p, k);
}

}  // namespace clgemm::bench
