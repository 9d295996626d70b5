// host_copy_probe.cpp — what bounds the distributed GEMM's host side on a GPU machine: the rate of
// threaded host copies (memcpy against non-temporal stores) with one or two processes copying at
// once, and the rate of uploads from pinned, pageable and shared (CL_MEM_USE_HOST_PTR) memory.
//   host_copy_probe [MiB]      (CLGEMM_DEVICE picks the device, as in the other probes)
#define CL_TARGET_OPENCL_VERSION 300
#include "probe_device.hpp"

#include <immintrin.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <thread>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

__attribute__((target("avx2"))) void stream_copy(const char* src, char* dst, size_t bytes) {
  size_t i = 0;
  for (; i + 128 <= bytes; i += 128) {
    const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + i));
    const __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + i + 32));
    const __m256i c = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + i + 64));
    const __m256i d = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + i + 96));
    _mm256_stream_si256(reinterpret_cast<__m256i*>(dst + i), a);
    _mm256_stream_si256(reinterpret_cast<__m256i*>(dst + i + 32), b);
    _mm256_stream_si256(reinterpret_cast<__m256i*>(dst + i + 64), c);
    _mm256_stream_si256(reinterpret_cast<__m256i*>(dst + i + 96), d);
  }
  _mm_sfence();
  if (i < bytes) std::memcpy(dst + i, src + i, bytes - i);
}

// GB/s of one copy of `bytes` over `threads` threads, best of 5.
double copy_rate(const char* src, char* dst, size_t bytes, unsigned threads, bool stream) {
  double best = 1e30;
  for (int r = 0; r < 5; ++r) {
    const auto t = Clock::now();
    std::vector<std::thread> pool;
    const size_t per = (bytes / threads + 4095) / 4096 * 4096;
    for (unsigned i = 0; i < threads; ++i) {
      const size_t b0 = std::min(bytes, i * per), b1 = std::min(bytes, b0 + per);
      pool.emplace_back([=] { stream ? stream_copy(src + b0, dst + b0, b1 - b0) : (void)std::memcpy(dst + b0, src + b0, b1 - b0); });
    }
    for (auto& th : pool) th.join();
    best = std::min(best, since(t));
  }
  return double(bytes) / best / 1e9;
}

void copies(size_t bytes, int procs) {
  char* src = static_cast<char*>(std::aligned_alloc(4096, bytes));
  char* dst = static_cast<char*>(std::aligned_alloc(4096, bytes));
  std::memset(src, 1, bytes);
  std::memset(dst, 2, bytes);
  for (unsigned threads : {1u, 4u, 8u, 16u, 32u})
    for (bool stream : {false, true})
      std::printf("copy procs=%d threads=%2u %-7s %6.1f GB/s per process\n", procs, threads, stream ? "stream" : "memcpy",
                  copy_rate(src, dst, bytes, threads, stream));
  std::fflush(stdout);
  std::free(src);
  std::free(dst);
}

double upload_rate(cl_command_queue q, cl_mem dev, const void* host, size_t bytes, double* host_seconds) {
  double best = 1e30, host_best = 1e30;
  for (int r = 0; r < 5; ++r) {
    const auto t = Clock::now();
    clEnqueueWriteBuffer(q, dev, CL_FALSE, 0, bytes, host, 0, nullptr, nullptr);
    const double h = since(t);
    clFinish(q);
    best = std::min(best, since(t));
    host_best = std::min(host_best, h);
  }
  *host_seconds = host_best;
  return double(bytes) / best / 1e9;
}

double copy_buffer_rate(cl_command_queue q, cl_mem src, cl_mem dev, size_t bytes) {
  double best = 1e30;
  for (int r = 0; r < 5; ++r) {
    const auto t = Clock::now();
    clEnqueueCopyBuffer(q, src, dev, 0, 0, bytes, 0, nullptr, nullptr);
    clFinish(q);
    best = std::min(best, since(t));
  }
  return double(bytes) / best / 1e9;
}

void uploads(size_t bytes) {
  cl_device_id device = probe::pick_device();
  char name[256] = {};
  clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof name, name, nullptr);
  cl_int err = 0;
  cl_context ctx = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
  cl_command_queue q = clCreateCommandQueueWithProperties(ctx, device, nullptr, &err);
  cl_mem dev = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, nullptr, &err);
  std::printf("uploads of %zu MiB to %s\n", bytes >> 20, name);
  double host_s = 0;

  cl_mem pinned = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes, nullptr, &err);
  void* p = clEnqueueMapBuffer(q, pinned, CL_TRUE, CL_MAP_WRITE, 0, bytes, 0, nullptr, nullptr, &err);
  std::memset(p, 1, bytes);
  double gbs = upload_rate(q, dev, p, bytes, &host_s);
  std::printf("write from pinned (ALLOC_HOST_PTR, mapped): %6.1f GB/s, enqueue %.2f ms\n", gbs, host_s * 1e3);

  char* pageable = static_cast<char*>(std::aligned_alloc(4096, bytes));
  std::memset(pageable, 1, bytes);
  gbs = upload_rate(q, dev, pageable, bytes, &host_s);
  std::printf("write from pageable (malloc):              %6.1f GB/s, enqueue %.2f ms\n", gbs, host_s * 1e3);

  char* shared = static_cast<char*>(mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0));
  std::memset(shared, 1, bytes);
  gbs = upload_rate(q, dev, shared, bytes, &host_s);
  std::printf("write from shared mmap:                    %6.1f GB/s, enqueue %.2f ms\n", gbs, host_s * 1e3);
  auto t = Clock::now();
  cl_mem wrapped = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR, bytes, shared, &err);
  std::printf("USE_HOST_PTR on shared mmap: create %s in %.1f ms\n", err == CL_SUCCESS ? "ok" : "failed", since(t) * 1e3);
  if (err == CL_SUCCESS) {
    t = Clock::now();
    gbs = copy_buffer_rate(q, wrapped, dev, bytes);
    std::printf("copy from USE_HOST_PTR buffer:             %6.1f GB/s (first call included in best of 5)\n", gbs);
    gbs = upload_rate(q, dev, shared, bytes, &host_s);
    std::printf("write from shared mmap, wrapped:           %6.1f GB/s, enqueue %.2f ms\n", gbs, host_s * 1e3);
    clReleaseMemObject(wrapped);
  }
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  const size_t bytes = size_t(argc > 1 ? std::atoi(argv[1]) : 512) << 20;
  copies(bytes, 1);
  pid_t child = fork();
  if (child == 0) {
    copies(bytes, 2);
    std::_Exit(0);
  }
  copies(bytes, 2);
  waitpid(child, nullptr, 0);
  uploads(bytes / 2);
  return 0;
}
