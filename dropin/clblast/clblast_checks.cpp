// clblast_checks.cpp — CLBlast's argument checks for GEMM.
#include "dropin/clblast/clblast_checks.hpp"

#include <algorithm>
#include <string>

namespace clgemm::dropin {

namespace {

using clblast::Layout;
using clblast::StatusCode;
using clblast::Transpose;

bool known(Transpose t) { return t == Transpose::kNo || t == Transpose::kYes || t == Transpose::kConjugate; }

// A matrix stored as `two` runs of `one` elements, `ld` apart (CLBlast's TestMatrixA/B/C).
StatusCode check_matrix(size_t one, size_t two, cl_mem buffer, size_t last_offset, size_t ld, size_t element,
                        bool check_ld, StatusCode bad_ld, StatusCode bad_buffer, StatusCode too_small) {
  if (check_ld && ld < one) return bad_ld;
  size_t bytes = 0;
  if (!buffer || clGetMemObjectInfo(buffer, CL_MEM_SIZE, sizeof bytes, &bytes, nullptr) != CL_SUCCESS) return bad_buffer;
  const size_t required = (ld * (two - 1) + one + last_offset) * element;
  return bytes < required ? too_small : StatusCode::kSuccess;
}

}  // namespace

StatusCode check_gemm(const ClblastGemmArgs& g) {
  if ((g.layout != Layout::kRowMajor && g.layout != Layout::kColMajor) || !known(g.a_transpose) ||
      !known(g.b_transpose))
    return StatusCode::kInvalidValue;
  if (g.m == 0 || g.n == 0 || g.k == 0) return StatusCode::kInvalidDimension;
  // "Rotated": stored with the other index contiguous (CLBlast's a_rotated, b_rotated, c_rotated).
  const bool col = g.layout == Layout::kColMajor;
  const bool a_rotated = col ? g.a_transpose != Transpose::kNo : g.a_transpose == Transpose::kNo;
  const bool b_rotated = col ? g.b_transpose != Transpose::kNo : g.b_transpose == Transpose::kNo;
  const bool c_rotated = !col;
  StatusCode s = check_matrix(a_rotated ? g.k : g.m, a_rotated ? g.m : g.k, g.a, g.a_last, g.a_ld, g.element_bytes,
                              g.check_ab_ld, StatusCode::kInvalidLeadDimA, StatusCode::kInvalidMatrixA,
                              StatusCode::kInsufficientMemoryA);
  if (s != StatusCode::kSuccess) return s;
  s = check_matrix(b_rotated ? g.n : g.k, b_rotated ? g.k : g.n, g.b, g.b_last, g.b_ld, g.element_bytes, g.check_ab_ld,
                   StatusCode::kInvalidLeadDimB, StatusCode::kInvalidMatrixB, StatusCode::kInsufficientMemoryB);
  if (s != StatusCode::kSuccess) return s;
  return check_matrix(c_rotated ? g.n : g.m, c_rotated ? g.m : g.n, g.c, g.c_last, g.c_ld, g.element_bytes, true,
                      StatusCode::kInvalidLeadDimC, StatusCode::kInvalidMatrixC, StatusCode::kInsufficientMemoryC);
}

StatusCode check_queue(cl_command_queue* queue, size_t element_bytes) {
  if (!queue || !*queue) return StatusCode::kInvalidCommandQueue;
  cl_device_id device = nullptr;
  if (clGetCommandQueueInfo(*queue, CL_QUEUE_DEVICE, sizeof device, &device, nullptr) != CL_SUCCESS)
    return StatusCode::kInvalidCommandQueue;
  if (element_bytes == 8) {
    size_t size = 0;
    if (clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, 0, nullptr, &size) != CL_SUCCESS) return StatusCode::kInvalidCommandQueue;
    std::string extensions(size, '\0');
    clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, size, extensions.data(), nullptr);
    if (extensions.find("cl_khr_fp64") == std::string::npos) return StatusCode::kNoDoublePrecision;
  }
  return StatusCode::kSuccess;
}

size_t largest(const size_t* offsets, size_t count) {
  return count && offsets ? *std::max_element(offsets, offsets + count) : 0;
}

}  // namespace clgemm::dropin
