// clgemm/types.hpp — the small types every part of the API shares: the element types, a GEMM's
// shape and a kernel's tunable parameters.
#pragma once

#include <cstddef>
#include <map>
#include <string>

namespace clgemm {

// The element types of matrices. A call, its plan, the tuning database's entries and the kernels
// (their PRECISION and storage options) carry them.
enum class DataType { F32, F64, F16, BF16 };

// The arithmetic of a call (cuBLAS's compute types). Auto: F64 for f64 operands, F32 otherwise.
// F32 computes f32, f16 and bf16 operands in float32 (16-bit ones widened on load); F64 computes
// f64 ones in double; Tf32 and Tf32x3 are the tensor-core arithmetics of f32 operands (see
// clgemm::Math), which fall back to F32 where the device has no tensor path.
enum class ComputeType { Auto, F32, F64, Tf32, Tf32x3 };

// "f32", "f64", "f16", "bf16": how messages, the CLI and the tuning database write a type.
inline const char* data_type_name(DataType t) {
  switch (t) {
    case DataType::F64: return "f64";
    case DataType::F16: return "f16";
    case DataType::BF16: return "bf16";
    default: return "f32";
  }
}

inline const char* compute_type_name(ComputeType t) {
  switch (t) {
    case ComputeType::F32: return "f32";
    case ComputeType::F64: return "f64";
    case ComputeType::Tf32: return "tf32";
    case ComputeType::Tf32x3: return "3xtf32";
    default: return "auto";
  }
}

// Bytes of one element.
inline size_t data_type_bytes(DataType t) { return t == DataType::F64 ? 8 : t == DataType::F32 ? 4 : 2; }

// op(A) is m×k, op(B) is k×n, C is m×n; `batch` items of that shape in one call (a strided batch,
// items stored one after another) where it is above 1.
struct GemmShape {
  size_t m = 0, n = 0, k = 0;
  size_t batch = 1;
};

inline double gemm_flops(const GemmShape& s) {
  return 2.0 * double(s.m) * double(s.n) * double(s.k) * double(s.batch);
}

// "1024x512x256" (M x N x K), and "4096x[32x32x32]" for a batch of 4096 items: how clgemm's
// messages, tables and files write a shape.
inline std::string shape_text(const GemmShape& s) {
  const std::string item = std::to_string(s.m) + "x" + std::to_string(s.n) + "x" + std::to_string(s.k);
  return s.batch > 1 ? std::to_string(s.batch) + "x[" + item + "]" : item;
}

// Tunable values of a kernel (tile sizes, work per thread, vector widths), passed as -D NAME=value.
using KernelParams = std::map<std::string, long>;

}  // namespace clgemm
