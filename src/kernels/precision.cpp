// precision.cpp — element types as the kernels' PRECISION values.
#include "kernels/precision.hpp"

#include <clgemm/error.hpp>

namespace clgemm::detail {

std::string precision_option(DataType type) {
  if (type != DataType::F32)
    throw Error(Status::InternalError, std::string("no kernels for ") + data_type_name(type) + " yet");
  return " -DPRECISION=32";
}

DataType compute_type(DataType storage) { return storage == DataType::F64 ? DataType::F64 : DataType::F32; }

}  // namespace clgemm::detail
