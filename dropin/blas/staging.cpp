// staging.cpp — pinned chunks and the threads that fill and empty them.
#include "dropin/blas/staging.hpp"

#include <algorithm>
#include <array>
#include <cstring>

namespace clgemm::blas {

CopyThreads::CopyThreads(size_t count) {
  for (size_t i = 1; i < std::max<size_t>(count, 1); ++i) workers_.emplace_back([this, i] { work(i); });
}

CopyThreads::~CopyThreads() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  start_.notify_all();
  for (std::thread& t : workers_) t.join();
}

void CopyThreads::run(const std::function<void(size_t)>& job) {
  if (workers_.empty()) {
    job(0);
    return;
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    job_ = &job;
    remaining_ = workers_.size();
    ++generation_;
  }
  start_.notify_all();
  job(0);
  std::unique_lock<std::mutex> lock(mutex_);
  done_.wait(lock, [this] { return remaining_ == 0; });
  job_ = nullptr;
}

void CopyThreads::work(size_t index) {
  size_t seen = 0;
  for (;;) {
    const std::function<void(size_t)>* job;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      start_.wait(lock, [&] { return stop_ || generation_ != seen; });
      if (stop_) return;
      seen = generation_;
      job = job_;
    }
    (*job)(index);
    std::lock_guard<std::mutex> lock(mutex_);
    if (--remaining_ == 0) done_.notify_one();
  }
}

Staging::Staging(const cl::Context& context, const cl::CommandQueue& queue, size_t chunk_bytes, size_t threads)
    : context_(context), queue_(queue), chunk_bytes_(0), threads_(threads) {
  if (chunk_bytes == 0) return;
  try {
    ensure(chunk_bytes);
  } catch (const cl::Error&) {
    chunks_.clear();  // no pinned memory: straight from the caller's
  }
}

Staging::~Staging() {
  for (Chunk& c : chunks_)
    if (c.host) queue_.enqueueUnmapMemObject(c.buffer, c.host);
}

void Staging::ensure(size_t column_bytes) {
  if (chunk_bytes_ >= column_bytes && !chunks_.empty()) return;
  for (Chunk& c : chunks_) {
    if (c.in_flight()) c.in_flight.wait();
    if (c.host) queue_.enqueueUnmapMemObject(c.buffer, c.host);
  }
  chunks_.clear();
  const size_t bytes = std::max(chunk_bytes_, column_bytes);
  std::vector<Chunk> made(2);
  for (Chunk& c : made) {
    c.buffer = cl::Buffer(context_, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes);
    c.host = static_cast<unsigned char*>(
        queue_.enqueueMapBuffer(c.buffer, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes));
  }
  chunks_ = std::move(made);
  chunk_bytes_ = bytes;
}

// Each thread takes an equal run of the packed bytes, whichever columns it spans.
void Staging::copy_columns(unsigned char* packed, unsigned char* strided, size_t column_bytes, size_t cols,
                           size_t ld_bytes, bool to_packed) {
  const size_t total = column_bytes * cols, parts = threads_.count();
  // Small copies are not worth waking the threads for.
  const size_t used = total < (size_t(1) << 20) ? 1 : parts;
  const auto job = [&](size_t t) {
    if (t >= used) return;
    size_t at = total * t / used;
    const size_t end = total * (t + 1) / used;
    while (at < end) {
      const size_t col = at / column_bytes, in = at % column_bytes, len = std::min(column_bytes - in, end - at);
      unsigned char* s = strided + col * ld_bytes + in;
      if (to_packed) std::memcpy(packed + at, s, len);
      else std::memcpy(s, packed + at, len);
      at += len;
    }
  };
  if (used == 1) job(0);
  else threads_.run(job);
}

void Staging::upload(const cl::Buffer& dst, const void* src, size_t rows, size_t cols, size_t ld, size_t e) {
  const size_t column = rows * e;
  if (column == 0 || cols == 0) return;
  if (!pinned()) {
    if (ld == rows) {
      queue_.enqueueWriteBuffer(dst, CL_TRUE, 0, column * cols, src);
      return;
    }
    const std::array<size_t, 3> zero{0, 0, 0}, region{column, cols, 1};
    queue_.enqueueWriteBufferRect(dst, CL_TRUE, zero, zero, region, column, 0, ld * e, 0, src);
    return;
  }
  ensure(column);
  const size_t per_chunk = chunk_bytes_ / column;
  auto* from = static_cast<unsigned char*>(const_cast<void*>(src));
  size_t index = 0;
  for (size_t j = 0; j < cols; j += per_chunk, ++index) {
    Chunk& c = chunks_[index % 2];
    if (c.in_flight()) c.in_flight.wait();
    const size_t n = std::min(per_chunk, cols - j);
    copy_columns(c.host, from + j * ld * e, column, n, ld * e, true);
    cl::Event ev;
    queue_.enqueueWriteBuffer(dst, CL_FALSE, j * column, n * column, c.host, nullptr, &ev);
    c.in_flight = ev;
  }
  // The caller's memory is free once it is copied; the chunks' last writes finish before any
  // later use of the chunk (each use waits for them).
}

void Staging::download(const cl::Buffer& src, void* dst, size_t rows, size_t cols, size_t ld, size_t e) {
  const size_t column = rows * e;
  if (column == 0 || cols == 0) return;
  auto* to = static_cast<unsigned char*>(dst);
  if (!pinned()) {
    std::vector<unsigned char> out(column * cols);
    queue_.enqueueReadBuffer(src, CL_TRUE, 0, out.size(), out.data());
    for (size_t j = 0; j < cols; ++j) std::memcpy(to + j * ld * e, out.data() + j * column, column);
    return;
  }
  ensure(column);
  queue_.finish();  // the GEMM's failure shows here, before any of the caller's C is written
  const size_t per_chunk = chunk_bytes_ / column;
  const size_t count = (cols + per_chunk - 1) / per_chunk;
  const auto read = [&](size_t index) {
    Chunk& c = chunks_[index % 2];
    const size_t j = index * per_chunk, n = std::min(per_chunk, cols - j);
    cl::Event ev;
    queue_.enqueueReadBuffer(src, CL_FALSE, j * column, n * column, c.host, nullptr, &ev);
    c.in_flight = ev;
  };
  size_t written = 0;
  try {
    for (size_t i = 0; i < std::min<size_t>(2, count); ++i) read(i);
    for (size_t index = 0; index < count; ++index) {
      Chunk& c = chunks_[index % 2];
      c.in_flight.wait();
      if (c.in_flight.getInfo<CL_EVENT_COMMAND_EXECUTION_STATUS>() < 0)
        throw cl::Error(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, "clEnqueueReadBuffer");
      const size_t j = index * per_chunk, n = std::min(per_chunk, cols - j);
      copy_columns(c.host, to + j * ld * e, column, n, ld * e, false);
      written = j + n;
      if (index + 2 < count) read(index + 2);
    }
  } catch (const std::exception& err) {
    if (written == 0) throw;
    throw PartialDownload(err.what(), written);
  }
}

}  // namespace clgemm::blas
