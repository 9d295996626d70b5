// bench/checker.hpp — is an implementation's result right? Relative error against the float64
// reference, with a tolerance that fits the arithmetic the implementation claims to do and the
// type C is stored in.
#pragma once

#include <clgemm/types.hpp>

#include "bench/host_matrix.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace clgemm::bench {

// The arithmetic an implementation multiplies and adds in.
enum class Precision {
  FP32,  // float32 products and sums
  TF32,  // operands rounded to TF32 (10-bit mantissa) on tensor cores, float32 accumulation
  FP64,  // float64 products and sums
  FP16,  // f16 products and sums (CLBlastHgemm, cublasHgemm: CUBLAS_COMPUTE_16F)
};

const char* precision_name(Precision p);  // "fp32", "tf32", "fp64", "fp16"

// The tolerance for a GEMM with inner dimension k in this arithmetic, C stored in its float32
// or float64 result. FP32 is clgemm's own cpu::gemm_tolerance, 8·ε·sqrt(k+1) + 1e-6 with
// ε = 1.2e-7: a few ulps growing like sqrt(k), as a sum of k rounded products drifts in the norm.
// FP64 and FP16 are the same bound with their own ε (2^-52, 2^-10), 8·ε·sqrt(k+1) + 8·ε. TF32 adds
// the error of rounding both operands to 11 significant bits: each product is off by up to
// 2·2^-11 relative, and in the Frobenius norm over random inputs that stays of order 2^-11
// whatever k is; 8·2^-10 ≈ 7.8e-3 leaves the same margin as the FP32 bound and still catches any
// indexing error (order 1).
double tolerance(Precision p, size_t k);

// The same with C stored in `c_type`: rounding the result to a 16-bit C adds its unit roundoff,
// 2^-11 for f16 and 2^-8 for bf16 (every element within that relative distance, so the
// Frobenius norm too). float32 and float64 C add nothing beyond the arithmetic's own bound.
double tolerance(Precision p, DataType c_type, size_t k);

struct Check {
  double error = 0;      // ||C - C_ref||_F / ||C_ref||_F over the finite elements; +Inf on a mismatch below
  double tolerance = 0;
  bool ok = false;
  std::string problem;   // empty when ok, else what was wrong, in words
};

// Compares a result, stored in its type, with the reference (same storage order, same length).
// Where the reference is NaN or infinite (NaN or Inf alpha, beta or inputs) or beyond the range of
// C's type (where rounding to it overflows), the result must be NaN or infinite too: the
// arithmetic gives one or the other there, by the order it sums and scales in. Everywhere else
// the result must be finite, and those elements are held to the relative error bound of
// tolerance(p, c.type(), k).
Check check_result(const HostMatrix& c, const std::vector<double>& ref, Precision p, size_t k);
// A float32 result.
Check check_result(const std::vector<float>& c, const std::vector<double>& ref, Precision p, size_t k);

}  // namespace clgemm::bench
