// bench/gemm_types.cpp — the --precision values and their element types.
#include "bench/gemm_types.hpp"

#include <clgemm/error.hpp>

namespace clgemm::bench {

namespace {

struct Named {
  const char* name;
  GemmTypes types;
  const char* meaning;
};

// The combinations clgemm computes (GemmCall: all f32, all f64, 16-bit A and B with C of their
// type or f32).
const Named kPrecisions[] = {
    {"f32", {DataType::F32, DataType::F32}, "float32 A, B and C (the default)"},
    {"f64", {DataType::F64, DataType::F64}, "float64 A, B and C, computed in float64 (needs cl_khr_fp64)"},
    {"f16", {DataType::F16, DataType::F16}, "f16 A, B and C, computed in float32"},
    {"bf16", {DataType::BF16, DataType::BF16}, "bf16 A, B and C, computed in float32"},
    {"f16-f32", {DataType::F16, DataType::F32}, "f16 A and B, float32 C, computed in float32"},
    {"bf16-f32", {DataType::BF16, DataType::F32}, "bf16 A and B, float32 C, computed in float32"},
};

}  // namespace

std::string GemmTypes::name() const {
  for (const auto& p : kPrecisions)
    if (p.types == *this) return p.name;
  return std::string(data_type_name(in)) + "-" + data_type_name(out);
}

std::string GemmTypes::describe() const {
  if (is_f32()) return "float32";
  if (in == DataType::F64 && out == DataType::F64) return "float64";
  if (in == out) return std::string(data_type_name(in)) + " (A, B and C; computed in float32)";
  return std::string(data_type_name(in)) + " A and B, " + (out == DataType::F32 ? "float32" : data_type_name(out)) +
         " C (computed in float32)";
}

std::vector<std::pair<std::string, std::string>> precision_names() {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& p : kPrecisions) out.emplace_back(p.name, p.meaning);
  return out;
}

GemmTypes parse_precision(const std::string& name) {
  for (const auto& p : kPrecisions)
    if (name == p.name) return p.types;
  std::string valid;
  for (const auto& p : kPrecisions) valid += std::string(valid.empty() ? "" : ", ") + p.name;
  throw Error(Status::InvalidArgument, "--precision: unknown precision '" + name + "' (known: " + valid + ")");
}

Precision compute_arithmetic(const GemmTypes& types) {
  return types.in == DataType::F64 ? Precision::FP64 : Precision::FP32;
}

}  // namespace clgemm::bench
