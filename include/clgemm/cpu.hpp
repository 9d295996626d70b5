// clgemm/cpu.hpp — host-side GEMMs: the plain triple loop (the "CPU" baseline a GPU speed-up is
// quoted against), OpenBLAS (the fast CPU reference) and a float64 reference for checking.
// All row-major, dense: A is m×k, B is k×n, C is m×n.
#pragma once

#include <clgemm/types.hpp>

#include <cstdint>
#include <vector>

namespace clgemm::cpu {

// C = A·B with the textbook i-j-k loop, float accumulation, one thread.
void gemm_triple_loop(const GemmShape& s, const float* a, const float* b, float* c);

// C = A·B through OpenBLAS (cblas_sgemm, all cores).
void gemm_openblas(const GemmShape& s, const float* a, const float* b, float* c);

// A·B in float64 (cblas_dgemm on the inputs widened to double); for a batch (s.batch items, each
// operand's items one after another), every item's product, one after another.
std::vector<double> gemm_reference_f64(const GemmShape& s, const float* a, const float* b);
std::vector<double> gemm_reference_f64(const GemmShape& s, const double* a, const double* b);

// ||c - ref||_F / ||ref||_F. Any NaN or Inf in c gives +Inf; a zero reference gives ||c||_F.
double relative_error(const float* c, const double* ref, size_t count);
double relative_error(const double* c, const double* ref, size_t count);

// The largest relative error a correct float32 GEMM with inner dimension k should show on
// inputs uniform in [-1, 1]: a few units of float32 rounding, growing like sqrt(k).
double gemm_tolerance(size_t k);
// The same for a result whose inputs were rounded to TF32 (11 significant bits) when `tf32` is
// set: 2^-9 of the products' magnitude on top. 3xTF32 is held to float32's tolerance.
double gemm_tolerance(size_t k, bool tf32);
// The same for A and B of type `in`, computed in its compute type (f64 for f64, float32
// otherwise), with C stored as `out`: a few units of the compute type's rounding growing like
// sqrt(k), plus one unit of `out`'s for the result's final rounding (f16, bf16). For inputs
// exactly representable in `in`, such as those to_storage gives.
double gemm_tolerance(size_t k, DataType in, DataType out);

// The 16-bit formats: IEEE half (f16) and bfloat16 (the upper half of a float). To them rounded to
// nearest even, as the kernels' stores round (vstore_half_rte; clgemm's bf16 store): overflow
// gives an infinity, a NaN stays a (quiet) NaN, f16 subnormals are kept. From them exactly.
uint16_t float_to_half(float f);
float half_to_float(uint16_t h);
uint16_t float_to_bf16(float f);
float bf16_to_float(uint16_t b);

// `values` as elements of `type`, as a device buffer holds them (native byte order; f16 and bf16
// rounded to nearest even, as the kernels' stores round).
std::vector<unsigned char> to_storage(DataType type, const std::vector<double>& values);
// `count` elements of `type` from `bytes`, widened to double (exactly).
std::vector<double> from_storage(DataType type, const void* bytes, size_t count);

// Fills `v` with uniform values in [-1, 1) from a 64-bit seed (reproducible, never all zeros).
void fill_random(std::vector<float>& v, uint64_t seed);

}  // namespace clgemm::cpu
