// bench/checker.hpp — is an implementation's result right? Relative error against the float64
// reference, with a tolerance that fits the arithmetic the implementation claims to do.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace clgemm::bench {

enum class Precision {
  FP32,  // float32 products and sums (every implementation but one)
  TF32,  // operands rounded to TF32 (10-bit mantissa) on tensor cores, float32 accumulation
};

const char* precision_name(Precision p);  // "fp32", "tf32"

// The tolerance for a GEMM with inner dimension k at this precision. FP32 is clgemm's own
// cpu::gemm_tolerance (a few float32 ulps growing like sqrt(k)). TF32 adds the error of rounding
// both operands to 11 significant bits: each product is off by up to 2·2^-11 relative, and in the
// Frobenius norm over random inputs that stays of order 2^-11 whatever k is; 8·2^-10 ≈ 7.8e-3
// leaves the same margin as the FP32 bound and still catches any indexing error (order 1).
double tolerance(Precision p, size_t k);

struct Check {
  double error = 0;      // ||C - C_ref||_F / ||C_ref||_F over the finite elements; +Inf on a mismatch below
  double tolerance = 0;
  bool ok = false;
  std::string problem;   // empty when ok, else what was wrong, in words
};

// Compares a result with the reference (same storage order, same length). Where the reference
// is NaN or infinite (NaN or Inf alpha, beta or inputs) or beyond float32's range, the result must
// be NaN or infinite too: float32 arithmetic gives one or the other there, by the order it sums
// and scales in. Everywhere else the result must be finite, and those elements are held to the
// relative error bound.
Check check_result(const std::vector<float>& c, const std::vector<double>& ref, Precision p, size_t k);

}  // namespace clgemm::bench
