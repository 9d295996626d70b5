// precision.cpp — element types as the kernels' build options.
#include "kernels/precision.hpp"

namespace clgemm::detail {

namespace {

const char* storage_macro(DataType t) {
  switch (t) {
    case DataType::F64: return "STORAGE_F64";
    case DataType::F16: return "STORAGE_F16";
    case DataType::BF16: return "STORAGE_BF16";
    default: return "STORAGE_F32";
  }
}

}  // namespace

DataType compute_type(DataType storage) { return storage == DataType::F64 ? DataType::F64 : DataType::F32; }

long precision_bits(DataType in) { return compute_type(in) == DataType::F64 ? 64 : 32; }

bool stored_as_computed(DataType t) { return t == DataType::F32 || t == DataType::F64; }

std::string precision_option(DataType in) { return " -DPRECISION=" + std::to_string(precision_bits(in)); }

std::string storage_options(DataType in, DataType out) {
  std::string s;
  if (!stored_as_computed(in)) s += std::string(" -DIN_STORAGE=") + storage_macro(in);
  if (!stored_as_computed(out)) s += std::string(" -DOUT_STORAGE=") + storage_macro(out);
  return s;
}

}  // namespace clgemm::detail
