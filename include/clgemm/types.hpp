// clgemm/types.hpp — the small types every part of the API shares: a GEMM's shape and a kernel's
// tunable parameters.
#pragma once

#include <cstddef>
#include <map>
#include <string>

namespace clgemm {

// op(A) is m×k, op(B) is k×n, C is m×n.
struct GemmShape {
  size_t m = 0, n = 0, k = 0;
};

inline double gemm_flops(const GemmShape& s) { return 2.0 * double(s.m) * double(s.n) * double(s.k); }

// "1024x512x256" (M x N x K): how clgemm's messages, tables and files write a shape.
inline std::string shape_text(const GemmShape& s) {
  return std::to_string(s.m) + "x" + std::to_string(s.n) + "x" + std::to_string(s.k);
}

// Tunable values of a kernel (tile sizes, work per thread, vector widths), passed as -D NAME=value.
using KernelParams = std::map<std::string, long>;

}  // namespace clgemm
