// host_staging.hpp — host memory that the device copies at full speed (pinned, through
// CL_MEM_ALLOC_HOST_PTR and a mapping kept for its lifetime), copies of matrix blocks spread over
// threads, and C's local block moved between the caller's memory and the device through it.
#pragma once

#include <CL/opencl.hpp>

#include <cstddef>
#include <memory>
#include <mutex>
#include <vector>

namespace clgemm::dist {

class PinnedBuffer {
 public:
  PinnedBuffer() = default;
  PinnedBuffer(const cl::Context& context, const cl::CommandQueue& queue, size_t bytes);
  ~PinnedBuffer();
  PinnedBuffer(PinnedBuffer&& other) noexcept;
  PinnedBuffer& operator=(PinnedBuffer&& other) noexcept;
  char* data() const { return host_; }
  size_t bytes() const { return bytes_; }

 private:
  void release();
  cl::Buffer buffer_;
  cl::CommandQueue queue_;
  char* host_ = nullptr;
  size_t bytes_ = 0;
};

// A block of rows x cols elements at element `offset` of a column-major buffer (leading dimension
// ld), from column col0 on, in the byte terms of clEnqueue{Read,Write,Copy}BufferRect; the host
// side is packed (leading dimension rows).
struct BufferRect {
  cl::array<cl::size_type, 3> buffer_origin, host_origin{0, 0, 0}, region;
  size_t buffer_pitch, host_pitch;
  BufferRect(size_t offset, size_t ld, size_t col0, size_t rows, size_t cols, size_t elem)
      : buffer_origin{offset % ld * elem, col0 + offset / ld, 0},
        region{rows * elem, cols, 1},
        buffer_pitch(ld * elem),
        host_pitch(rows * elem) {}
};

// Buffers kept from call to call for one device: pinned host memory costs tens of milliseconds per
// hundred megabytes to allocate (its pages are locked), more than a panel takes to compute. Each
// is known by a role number and grows when a call needs more. Made on first use and never freed
// (an OpenCL call at process exit may find the driver gone). Callers hold workspace_lock() while
// they use one.
class Workspace {
 public:
  static Workspace& of(cl_command_queue queue);
  const cl::Context& context() const { return context_; }
  // An in-order queue for copies, beside the caller's queue.
  const cl::CommandQueue& copy_queue() const { return copy_queue_; }
  // One more, for reads of this rank's pieces out of its device arrays: on the copy queue they
  // would wait behind uploads that wait for GEMMs.
  const cl::CommandQueue& read_queue() const { return read_queue_; }
  PinnedBuffer& pinned(size_t role, size_t bytes);
  const cl::Buffer& device(size_t role, size_t bytes);

 private:
  Workspace(const cl::Context& context, const cl::Device& device);
  cl::Context context_;
  cl::CommandQueue copy_queue_, read_queue_;
  std::vector<std::unique_ptr<PinnedBuffer>> pinned_;  // by pointer: references stay valid as it grows
  std::vector<cl::Buffer> device_;
  std::vector<size_t> device_bytes_;
};
std::unique_lock<std::mutex> workspace_lock();

// Threads for host copies on this rank: $CLGEMM_DIST_THREADS, else the host's cores shared among
// the ranks on it (at most 16).
unsigned copy_threads();

// Copies `bytes` from src to dst, shared among copy_threads() where it is megabytes.
void copy_bytes(const char* src, char* dst, size_t bytes);

// Copies `cols` columns of `rows` elements of `elem` bytes, column-major, from src (leading
// dimension src_ld elements) to dst (dst_ld), the columns shared among copy_threads().
void copy_columns(const char* src, size_t src_ld, char* dst, size_t dst_ld, size_t rows, size_t cols, size_t elem);

// The block of rows x cols at `host` (leading dimension host_ld, column-major) to the device
// buffer at element `offset` (leading dimension dev_ld), or back, through pinned chunks so that
// the device copies and the host copies overlap. Blocking.
// `ws` lends the pinned chunks; the copies run on `queue`.
void block_to_device(Workspace& ws, const cl::CommandQueue& queue, const char* host, size_t host_ld,
                     const cl::Buffer& device, size_t offset, size_t dev_ld, size_t rows, size_t cols, size_t elem);
void block_to_host(Workspace& ws, const cl::CommandQueue& queue, const cl::Buffer& device, size_t offset,
                   size_t dev_ld, char* host, size_t host_ld, size_t rows, size_t cols, size_t elem);

}  // namespace clgemm::dist
