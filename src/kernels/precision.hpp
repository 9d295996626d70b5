// precision.hpp — element types as the kernels' build options (common/vectors.cl): the compute
// type (PRECISION) and how A, B and C are stored (IN_STORAGE, OUT_STORAGE).
#pragma once

#include <clgemm/types.hpp>

#include <string>

namespace clgemm::detail {

// The type a kernel computes in for operands stored as `storage`: alpha, beta, the accumulators,
// packed operands and split-K's partial sums. float32 for the 16-bit types.
DataType compute_type(DataType storage);

// 32 or 64: PRECISION for operands stored as `in`.
long precision_bits(DataType in);

// Whether `t` is stored as the compute type it is computed in (f32, f64): kernels may then load
// and store it in vectors of `real`; f16 and bf16 go through vectors.cl's helpers.
bool stored_as_computed(DataType t);

// " -DPRECISION=32" or " -DPRECISION=64", for the kernels without a descriptor (packs, scaling);
// the descriptors' kernels carry PRECISION among their parameters (the planner sets it).
std::string precision_option(DataType in);

// " -DIN_STORAGE=STORAGE_F16" and the like, for A and B stored as `in` and C as `out` where they
// are not stored as the compute type; "" for f32 and f64 calls.
std::string storage_options(DataType in, DataType out);

}  // namespace clgemm::detail
