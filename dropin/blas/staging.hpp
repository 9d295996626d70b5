// staging.hpp — moving the caller's column-major matrices to and from the device through pinned
// host memory, copied in by several threads while the previous chunk crosses the link. Uploads
// from pageable memory go through the driver's own staging at 9.3 GB/s on the H200 machine, from
// pinned memory at 55 GB/s (`host_copy_probe 256`), and 16 threads copy 35–45 GB/s there.
#pragma once

#include <CL/opencl.hpp>

#include <condition_variable>
#include <cstddef>
#include <functional>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

namespace clgemm::blas {

// A few threads kept for the copies, each running its share of one job at a time.
class CopyThreads {
 public:
  explicit CopyThreads(size_t count);
  ~CopyThreads();
  CopyThreads(const CopyThreads&) = delete;
  CopyThreads& operator=(const CopyThreads&) = delete;
  size_t count() const { return workers_.size() + 1; }
  // Runs job(i) for i in [0, count()), the caller taking i = 0, and returns when all are done.
  void run(const std::function<void(size_t)>& job);

 private:
  void work(size_t index);
  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable start_, done_;
  const std::function<void(size_t)>* job_ = nullptr;
  size_t generation_ = 0, remaining_ = 0;
  bool stop_ = false;
};

// Thrown by Staging::download once some columns of the caller's matrix hold the result and a
// later read failed: the host computes the columns from `columns_done` on.
struct PartialDownload : std::runtime_error {
  PartialDownload(const std::string& what, size_t done) : std::runtime_error(what), columns_done(done) {}
  size_t columns_done;
};

// Two pinned chunks, mapped once and kept (each grown to one column where a column is larger).
// With `chunk_bytes` 0, or where the device gives no pinned memory, the transfers go straight
// from the caller's memory, as the driver takes them.
class Staging {
 public:
  Staging(const cl::Context& context, const cl::CommandQueue& queue, size_t chunk_bytes, size_t threads);
  ~Staging();
  Staging(const Staging&) = delete;
  Staging& operator=(const Staging&) = delete;
  bool pinned() const { return !chunks_.empty(); }

  // `rows` × `cols` elements of `e` bytes, `ld` apart on the host, packed (ld = rows) into `dst`.
  // Queued on the in-order queue; returns once the host memory may change again.
  void upload(const cl::Buffer& dst, const void* src, size_t rows, size_t cols, size_t ld, size_t e);
  // The packed `rows` × `cols` of `src`, once the commands queued before are done, into the host's
  // columns `ld` apart. The gaps past `rows` are not written. A read that fails after some columns
  // were written throws PartialDownload.
  void download(const cl::Buffer& src, void* dst, size_t rows, size_t cols, size_t ld, size_t e);

 private:
  struct Chunk {
    cl::Buffer buffer;
    unsigned char* host = nullptr;
    cl::Event in_flight;
  };
  // The chunks' size for columns of `column_bytes`: one column at least.
  void ensure(size_t column_bytes);
  void copy_columns(unsigned char* packed, unsigned char* strided, size_t column_bytes, size_t cols, size_t ld_bytes,
                    bool to_packed);
  cl::Context context_;
  cl::CommandQueue queue_;
  size_t chunk_bytes_;
  std::vector<Chunk> chunks_;
  CopyThreads threads_;
};

}  // namespace clgemm::blas
