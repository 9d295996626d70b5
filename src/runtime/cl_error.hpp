// cl_error.hpp — turns a cl::Error from the C++ bindings into a clgemm::Error with context.
#pragma once

#include <clgemm/error.hpp>

#include <CL/opencl.hpp>

#include <string>

namespace clgemm::detail {

// Symbolic name of an OpenCL error code ("CL_OUT_OF_RESOURCES").
const char* cl_error_name(cl_int code);

// Rethrows a cl::Error as clgemm::Error, prefixed with what clgemm was doing.
[[noreturn]] void rethrow_cl(const cl::Error& e, const std::string& doing);

// Runs `f`, converting OpenCL binding exceptions to clgemm::Error.
template <class F>
auto guard_cl(const std::string& doing, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const cl::Error& e) {
    rethrow_cl(e, doing);
  }
}

}  // namespace clgemm::detail
