// error.cpp — names of status codes.
#include <clgemm/error.hpp>

namespace clgemm {

const char* status_name(Status s) {
  switch (s) {
    case Status::Success: return "success";
    case Status::InvalidArgument: return "invalid argument";
    case Status::DeviceNotFound: return "device not found";
    case Status::BuildFailure: return "kernel build failure";
    case Status::OpenCLError: return "OpenCL error";
    case Status::OutOfResources: return "out of resources";
    case Status::Unsupported: return "unsupported";
    case Status::InternalError: return "internal error";
    case Status::InvalidQueue: return "invalid command queue";
    case Status::InvalidBuffer: return "invalid buffer";
    case Status::InvalidLayout: return "invalid layout";
    case Status::InvalidTranspose: return "invalid transpose";
    case Status::InvalidLeadingDimension: return "invalid leading dimension";
    case Status::BufferTooSmall: return "buffer too small";
    case Status::SizeOverflow: return "size overflow";
    case Status::InvalidBatchCount: return "invalid batch count";
    case Status::BufferContextMismatch: return "buffer from another context";
    case Status::NotABuffer: return "not a buffer";
    case Status::BufferAccess: return "buffer access not allowed";
    case Status::OverlappingOperands: return "overlapping operands";
    case Status::InvalidDataType: return "invalid data type";
    case Status::UnsupportedTypes: return "unsupported combination of types";
    case Status::NoFp64: return "no double precision on the device";
    case Status::InvalidQuantFormat: return "invalid quantized format";
    case Status::QuantBlockMismatch: return "k is not a multiple of the quantized block";
  }
  return "unknown status";
}

}  // namespace clgemm
