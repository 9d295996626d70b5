// clgemm/error.hpp — the one exception type of the library and the status codes it carries.
#pragma once

#include <stdexcept>
#include <string>

namespace clgemm {

// Failure classes. The C API (issue 3) maps these one-to-one onto its negative status codes,
// so keep the numbers stable.
enum class Status : int {
  Success = 0,
  InvalidArgument = -1,    // a size, enum, pointer or option the caller passed is not valid
  DeviceNotFound = -2,     // no OpenCL device, or none matching the requested one
  BuildFailure = -3,       // the OpenCL compiler rejected a kernel (message holds the log)
  OpenCLError = -4,        // an OpenCL call failed at run time
  OutOfResources = -5,     // a configuration needs more local memory / work-items than the device has
  Unsupported = -6,        // the device lacks a feature the request needs
  InternalError = -7,      // a bug in clgemm: please report it
};

const char* status_name(Status s);

class Error : public std::runtime_error {
 public:
  Error(Status status, const std::string& message) : std::runtime_error(message), status_(status) {}
  Status status() const { return status_; }

 private:
  Status status_;
};

}  // namespace clgemm
