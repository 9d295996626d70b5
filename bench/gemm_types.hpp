// bench/gemm_types.hpp — the element types of a bench run (`clgemm bench --precision`): what A,
// B and C are stored in, and the arithmetic clgemm computes them in.
#pragma once

#include <clgemm/types.hpp>

#include "bench/checker.hpp"

#include <string>
#include <utility>
#include <vector>

namespace clgemm::bench {

struct GemmTypes {
  DataType in = DataType::F32;   // A and B
  DataType out = DataType::F32;  // C

  // The --precision value: "f32", "f64", "f16", "bf16", "f16-f32", "bf16-f32".
  std::string name() const;
  // For headers and titles: "float32", "float64", "f16 (A, B and C; computed in float32)", ...
  std::string describe() const;
  bool is_f32() const { return in == DataType::F32 && out == DataType::F32; }
  bool operator==(const GemmTypes& o) const { return in == o.in && out == o.out; }
  bool operator!=(const GemmTypes& o) const { return !(*this == o); }
};

// Every --precision value with what it means, in the order help texts list them.
std::vector<std::pair<std::string, std::string>> precision_names();

// The types of a --precision value; Error(InvalidArgument) naming --precision and listing the
// values otherwise.
GemmTypes parse_precision(const std::string& name);

// The arithmetic clgemm computes these types in (ComputeType::Auto): FP64 for f64 operands,
// FP32 for the others (16-bit operands are widened to float32).
Precision compute_arithmetic(const GemmTypes& types);

}  // namespace clgemm::bench
