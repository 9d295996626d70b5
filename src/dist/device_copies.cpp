// device_copies.cpp — the rectangle-then-columns copies of device_copies.hpp.
#include "dist/device_copies.hpp"

#include "dist/host_staging.hpp"

#include <clgemm/error.hpp>

#include <algorithm>
#include <string>

namespace clgemm::dist {

void check_cl(cl_int rc, const char* what) {
  if (rc != CL_SUCCESS) throw Error(Status::OpenCLError, std::string(what) + " failed (OpenCL error " + std::to_string(rc) + ")");
}

size_t buffer_bytes(cl_mem buffer) {
  size_t bytes = 0;
  clGetMemObjectInfo(buffer, CL_MEM_SIZE, sizeof bytes, &bytes, nullptr);
  return bytes;
}

size_t rect_columns(size_t origin, size_t ld, size_t rows, size_t cols, size_t bytes, size_t elem) {
  if (origin % ld + rows > ld) return 0;
  const size_t fit = bytes / elem >= origin ? (bytes / elem - origin) / ld : 0;
  return std::min(cols, fit);
}

void read_columns(cl_command_queue queue, cl_mem src, size_t origin, size_t ld, size_t rows, size_t cols, size_t elem,
                  char* dst) {
  const char* what = "reading this process's piece from its device array";
  const size_t rect = rect_columns(origin, ld, rows, cols, buffer_bytes(src), elem);
  if (rect > 0) {
    const BufferRect r(origin, ld, 0, rows, rect, elem);
    check_cl(clEnqueueReadBufferRect(queue, src, CL_FALSE, r.buffer_origin.data(), r.host_origin.data(), r.region.data(),
                                     r.buffer_pitch, 0, r.host_pitch, 0, dst, 0, nullptr, nullptr),
             what);
  }
  for (size_t c = rect; c < cols; ++c)
    check_cl(clEnqueueReadBuffer(queue, src, CL_FALSE, (origin + c * ld) * elem, rows * elem, dst + c * rows * elem, 0,
                                 nullptr, nullptr),
             what);
  check_cl(clFinish(queue), what);
}

void copy_columns_on_device(cl_command_queue queue, cl_mem src, size_t from, size_t src_ld, cl_mem dst, size_t to,
                            size_t dst_ld, size_t rows, size_t cols, size_t elem, cl_event wait,
                            std::vector<cl_event>& done) {
  const char* what = "copying this process's piece into a panel";
  const size_t rect = std::min(rect_columns(from, src_ld, rows, cols, buffer_bytes(src), elem),
                               rect_columns(to, dst_ld, rows, cols, buffer_bytes(dst), elem));
  const cl_uint waits = wait ? 1 : 0;
  if (rect > 0) {
    const BufferRect s(from, src_ld, 0, rows, rect, elem), d(to, dst_ld, 0, rows, rect, elem);
    cl_event e = nullptr;
    check_cl(clEnqueueCopyBufferRect(queue, src, dst, s.buffer_origin.data(), d.buffer_origin.data(), s.region.data(),
                                     s.buffer_pitch, 0, d.buffer_pitch, 0, waits, wait ? &wait : nullptr, &e),
             what);
    done.push_back(e);
  }
  for (size_t c = rect; c < cols; ++c) {
    cl_event e = nullptr;
    check_cl(clEnqueueCopyBuffer(queue, src, dst, (from + c * src_ld) * elem, (to + c * dst_ld) * elem, rows * elem, waits,
                                 wait ? &wait : nullptr, &e),
             what);
    done.push_back(e);
  }
}

}  // namespace clgemm::dist
