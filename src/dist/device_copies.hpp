// device_copies.hpp — column blocks of a rank's device arrays: read into packed host memory, or
// copied into a panel on the device. One rectangle copy takes the leading columns; the columns it
// cannot take go one by one (rect_columns says which).
#pragma once

#include <CL/cl.h>

#include <cstddef>
#include <vector>

namespace clgemm::dist {

// Throws Error(OpenCLError) naming `what` unless rc is CL_SUCCESS.
void check_cl(cl_int rc, const char* what);

size_t buffer_bytes(cl_mem buffer);

// How many of `cols` columns of `rows` elements at element `origin` of a buffer of `bytes` (leading
// dimension ld) one rectangle copy may take: none where the columns straddle pitches, and only
// those whose origin plus whole pitches stays inside the buffer, which NVIDIA's rectangle copies
// demand even of the last column (which a local array need not fill).
size_t rect_columns(size_t origin, size_t ld, size_t rows, size_t cols, size_t bytes, size_t elem);

// rows x cols elements at element `origin` of src (leading dimension ld) into dst, packed
// column-major, on `queue`. Blocking: it finishes the queue.
void read_columns(cl_command_queue queue, cl_mem src, size_t origin, size_t ld, size_t rows, size_t cols, size_t elem,
                  char* dst);

// rows x cols elements from src (element `from`, leading dimension src_ld) to dst (element `to`,
// leading dimension dst_ld) on `queue` after `wait` (may be null); the events of the copies are
// appended to `done`.
void copy_columns_on_device(cl_command_queue queue, cl_mem src, size_t from, size_t src_ld, cl_mem dst, size_t to,
                            size_t dst_ld, size_t rows, size_t cols, size_t elem, cl_event wait,
                            std::vector<cl_event>& done);

}  // namespace clgemm::dist
