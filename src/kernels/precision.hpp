// precision.hpp — the build option that picks the kernels' element type (common/vectors.cl).
#pragma once

#include <clgemm/types.hpp>

#include <string>

namespace clgemm::detail {

// " -DPRECISION=32" for float32. The other types have no kernels yet: InternalError, since calls
// in them are refused before they are planned (api/gemm_checks.cpp).
std::string precision_option(DataType type);

// The type a kernel computes in for operands stored as `storage`: alpha, beta, the accumulators
// and split-K's partial sums. float32 for the 16-bit types, whose products are summed in float32.
DataType compute_type(DataType storage);

}  // namespace clgemm::detail
