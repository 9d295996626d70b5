// clgemm/error.hpp — the one exception type of the library and the status codes it carries.
#pragma once

#include <stdexcept>
#include <string>

namespace clgemm {

// Failure classes. The C API maps these one-to-one onto its negative status codes, so keep the
// numbers stable.
enum class Status : int {
  Success = 0,
  InvalidArgument = -1,    // a size, enum, pointer or option the caller passed is not valid
  DeviceNotFound = -2,     // no OpenCL device, or none matching the requested one
  BuildFailure = -3,       // the OpenCL compiler rejected a kernel (message holds the log)
  OpenCLError = -4,        // an OpenCL call failed at run time
  OutOfResources = -5,     // a configuration needs more local memory / work-items than the device has
  Unsupported = -6,        // the device lacks a feature the request needs
  InternalError = -7,      // a bug in clgemm: please report it
  InvalidQueue = -8,       // the command queue is null or not a valid queue
  InvalidBuffer = -9,      // a matrix buffer is null or not a valid memory object
  InvalidLayout = -10,     // layout is neither row-major nor column-major
  InvalidTranspose = -11,  // a transpose flag is neither "no" nor "yes"
  InvalidLeadingDimension = -12,  // a leading dimension is smaller than the matrix needs
  BufferTooSmall = -13,    // offset, leading dimension and shape reach past the end of a buffer
  SizeOverflow = -14,      // the sizes given overflow the arithmetic of element counts
  InvalidBatchCount = -15, // a batch count of 0 or above 2^31 - 1, or arrays of the wrong length
  BufferContextMismatch = -16,  // a buffer belongs to another OpenCL context than the queue
  NotABuffer = -17,        // a memory object is an image or a pipe, not a buffer
  BufferAccess = -18,      // a buffer's flags forbid the access: C read-only, A or B write-only
  OverlappingOperands = -19,  // C overlaps A, B or another batch item of C (BLAS forbids aliasing)
  InvalidDataType = -20,   // a_type, b_type, c_type or compute is not one of its enum's values
  UnsupportedTypes = -21,  // a combination of types and compute type that clgemm does not compute
  NoFp64 = -22,            // f64 on a device without double precision (cl_khr_fp64)
  InvalidQuantFormat = -23,  // a quantized weight format that is not one of QuantFormat's values
  QuantBlockMismatch = -24,  // k is not a multiple of the quantized format's block
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
