// host_staging.cpp — pinned host buffers and threaded block copies.
#include "dist/host_staging.hpp"

#include "dist/launcher_env.hpp"

#include <clgemm/error.hpp>

#include <algorithm>
#include <map>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

namespace clgemm::dist {
namespace {

// Chunks of C moved at a time: large enough for full-speed copies, small enough that two of them
// cost little pinned memory.
constexpr size_t kChunkBytes = size_t(64) << 20;

}  // namespace

PinnedBuffer::PinnedBuffer(const cl::Context& context, const cl::CommandQueue& queue, size_t bytes)
    : buffer_(context, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, std::max<size_t>(bytes, 1)),
      queue_(queue),
      bytes_(bytes) {
  host_ = static_cast<char*>(queue_.enqueueMapBuffer(buffer_, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, std::max<size_t>(bytes, 1)));
}

PinnedBuffer::~PinnedBuffer() { release(); }

PinnedBuffer::PinnedBuffer(PinnedBuffer&& other) noexcept { *this = std::move(other); }

PinnedBuffer& PinnedBuffer::operator=(PinnedBuffer&& other) noexcept {
  if (this != &other) {
    release();
    buffer_ = std::move(other.buffer_);
    queue_ = std::move(other.queue_);
    host_ = other.host_;
    bytes_ = other.bytes_;
    other.host_ = nullptr;
    other.bytes_ = 0;
  }
  return *this;
}

void PinnedBuffer::release() {
  if (host_) {
    cl::Event done;
    if (queue_.enqueueUnmapMemObject(buffer_, host_, nullptr, &done) == CL_SUCCESS) done.wait();
    host_ = nullptr;
  }
}

unsigned copy_threads() {
  if (const char* v = std::getenv("CLGEMM_DIST_THREADS")) {
    const long n = std::strtol(v, nullptr, 10);
    if (n > 0) return unsigned(std::min<long>(n, 64));
  }
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  const unsigned ranks = unsigned(std::max(launcher_local_size(), 1));
  return std::clamp(cores / ranks, 1u, 16u);
}

void copy_bytes(const char* src, char* dst, size_t bytes) {
  // As columns of 64 KiB, which copy_columns spreads over its threads.
  constexpr size_t kPiece = size_t(64) << 10;
  const size_t whole = bytes / kPiece;
  copy_columns(src, kPiece, dst, kPiece, kPiece, whole, 1);
  if (bytes > whole * kPiece) std::memcpy(dst + whole * kPiece, src + whole * kPiece, bytes - whole * kPiece);
}

void copy_columns(const char* src, size_t src_ld, char* dst, size_t dst_ld, size_t rows, size_t cols, size_t elem) {
  if (rows == 0 || cols == 0) return;
  const size_t row_bytes = rows * elem;
  auto copy_range = [&](size_t c0, size_t c1) {
    if (src_ld == rows && dst_ld == rows) {
      std::memcpy(dst + c0 * row_bytes, src + c0 * row_bytes, (c1 - c0) * row_bytes);
      return;
    }
    for (size_t c = c0; c < c1; ++c) std::memcpy(dst + c * dst_ld * elem, src + c * src_ld * elem, row_bytes);
  };
  // Threads pay off only for megabytes.
  const size_t total = row_bytes * cols;
  const unsigned threads = unsigned(std::min<size_t>({copy_threads(), cols, total / (size_t(1) << 20) + 1}));
  if (threads <= 1) return copy_range(0, cols);
  std::vector<std::thread> pool;
  const size_t per = (cols + threads - 1) / threads;
  for (unsigned t = 1; t < threads; ++t) {
    const size_t c0 = std::min(cols, t * per), c1 = std::min(cols, c0 + per);
    if (c0 < c1) pool.emplace_back(copy_range, c0, c1);
  }
  copy_range(0, std::min(cols, per));
  for (auto& t : pool) t.join();
}

Workspace::Workspace(const cl::Context& context, const cl::Device& device)
    : context_(context), copy_queue_(context, device), read_queue_(context, device) {}

Workspace& Workspace::of(cl_command_queue queue) {
  static std::map<std::pair<cl_context, cl_device_id>, Workspace*>& all = *new std::map<std::pair<cl_context, cl_device_id>, Workspace*>;
  cl_context context = nullptr;
  cl_device_id device = nullptr;
  if (clGetCommandQueueInfo(queue, CL_QUEUE_CONTEXT, sizeof context, &context, nullptr) != CL_SUCCESS ||
      clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE, sizeof device, &device, nullptr) != CL_SUCCESS)
    throw Error(Status::InvalidQueue, "the command queue is not valid");
  Workspace*& ws = all[{context, device}];
  if (!ws) ws = new Workspace(cl::Context(context, true), cl::Device(device, true));
  return *ws;
}

PinnedBuffer& Workspace::pinned(size_t role, size_t bytes) {
  if (pinned_.size() <= role) pinned_.resize(role + 1);
  if (!pinned_[role]) pinned_[role] = std::make_unique<PinnedBuffer>();
  PinnedBuffer& b = *pinned_[role];
  if (b.bytes() < bytes || !b.data()) {
    b = PinnedBuffer();  // the old one goes first: both at once might not fit
    b = PinnedBuffer(context_, copy_queue_, bytes);
  }
  return b;
}

const cl::Buffer& Workspace::device(size_t role, size_t bytes) {
  bytes = std::max<size_t>(bytes, 1);
  if (device_.size() <= role) {
    device_.resize(role + 1);
    device_bytes_.resize(role + 1, 0);
  }
  if (device_bytes_[role] < bytes) {
    device_[role] = cl::Buffer();
    device_[role] = cl::Buffer(context_, CL_MEM_READ_WRITE, bytes);
    device_bytes_[role] = bytes;
  }
  return device_[role];
}

std::unique_lock<std::mutex> workspace_lock() {
  static std::mutex& mutex = *new std::mutex;
  return std::unique_lock<std::mutex>(mutex);
}

namespace {

// Roles of the two chunks of C's transfers in the workspace (SUMMA's buffers take 0 to 19).
constexpr size_t kChunkRole = 20;

// Columns per chunk, and the two pinned chunks.
struct Chunks {
  size_t cols_per = 1;
  PinnedBuffer* staging[2];
  Chunks(Workspace& ws, size_t rows, size_t cols, size_t elem) {
    cols_per = std::clamp<size_t>(kChunkBytes / std::max<size_t>(rows * elem, 1), 1, cols);
    for (size_t i = 0; i < 2; ++i) staging[i] = &ws.pinned(kChunkRole + i, rows * cols_per * elem);
  }
};

}  // namespace

void block_to_device(Workspace& ws, const cl::CommandQueue& queue, const char* host, size_t host_ld,
                     const cl::Buffer& device, size_t offset, size_t dev_ld, size_t rows, size_t cols, size_t elem) {
  if (rows == 0 || cols == 0) return;
  Chunks chunks(ws, rows, cols, elem);
  cl::Event pending[2];
  for (size_t c0 = 0, i = 0; c0 < cols; c0 += chunks.cols_per, ++i) {
    const size_t n = std::min(chunks.cols_per, cols - c0);
    PinnedBuffer& stage = *chunks.staging[i % 2];
    if (pending[i % 2]()) pending[i % 2].wait();  // the copy out of this chunk has finished
    copy_columns(host + c0 * host_ld * elem, host_ld, stage.data(), rows, rows, n, elem);
    const BufferRect r(offset, dev_ld, c0, rows, n, elem);
    queue.enqueueWriteBufferRect(device, CL_FALSE, r.buffer_origin, r.host_origin, r.region, r.buffer_pitch, 0,
                                 r.host_pitch, 0, stage.data(), nullptr, &pending[i % 2]);
    queue.flush();
  }
  queue.finish();
}

void block_to_host(Workspace& ws, const cl::CommandQueue& queue, const cl::Buffer& device, size_t offset,
                   size_t dev_ld, char* host, size_t host_ld, size_t rows, size_t cols, size_t elem) {
  if (rows == 0 || cols == 0) return;
  Chunks chunks(ws, rows, cols, elem);
  cl::Event pending[2];
  auto start = [&](size_t i) {
    const size_t c0 = i * chunks.cols_per;
    const BufferRect r(offset, dev_ld, c0, rows, std::min(chunks.cols_per, cols - c0), elem);
    queue.enqueueReadBufferRect(device, CL_FALSE, r.buffer_origin, r.host_origin, r.region, r.buffer_pitch, 0,
                                r.host_pitch, 0, chunks.staging[i % 2]->data(), nullptr, &pending[i % 2]);
    queue.flush();
  };
  const size_t count = (cols + chunks.cols_per - 1) / chunks.cols_per;
  start(0);
  for (size_t i = 0; i < count; ++i) {
    if (i + 1 < count) start(i + 1);
    pending[i % 2].wait();
    const size_t c0 = i * chunks.cols_per;
    copy_columns(chunks.staging[i % 2]->data(), rows, host + c0 * host_ld * elem, host_ld, rows,
                 std::min(chunks.cols_per, cols - c0), elem);
  }
}

}  // namespace clgemm::dist
