// bench/cuda/cublas_plugin.cpp — libclgemm_cublas.so: cuBLAS SGEMM behind the plain C interface
// of cublas_plugin.h. Built only when CMake finds the CUDA toolkit; linked to cuBLAS and the
// static CUDA runtime, so on the GPU machine it needs libcublas(.Lt) and the driver, nothing more.
// Host-only C++ (no device code), compiled by the ordinary C++ compiler.
#include "bench/cuda/cublas_plugin.h"

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>

struct clgemm_cublas_session {
  bool tf32 = false;
  cublasHandle_t handle = nullptr;
  cudaStream_t stream = nullptr;
  cudaEvent_t start = nullptr, stop = nullptr;
  std::string device_name, version;
  // The prepared problem, in cuBLAS's column-major terms (see clgemm_cublas_prepare).
  float *a = nullptr, *b = nullptr, *c = nullptr, *c0 = nullptr;
  size_t c_count = 0;
  cublasOperation_t op_first = CUBLAS_OP_N, op_second = CUBLAS_OP_N;
  int rows = 0, cols = 0, inner = 0, ld_first = 0, ld_second = 0, ldc = 0;
  const float *first = nullptr, *second = nullptr;
  float alpha = 1, beta = 0;
};

namespace {

void say(char* err, size_t size, const std::string& text) {
  if (err && size) std::snprintf(err, size, "%s", text.c_str());
}

bool cuda_ok(cudaError_t e, const char* what, char* err, size_t size) {
  if (e == cudaSuccess) return true;
  say(err, size, std::string(what) + ": " + cudaGetErrorName(e) + " (" + cudaGetErrorString(e) + ")");
  return false;
}

bool cublas_ok(cublasStatus_t st, const char* what, char* err, size_t size) {
  if (st == CUBLAS_STATUS_SUCCESS) return true;
  say(err, size, std::string(what) + ": " + cublasGetStatusName(st) + " (" + cublasGetStatusString(st) + ")");
  return false;
}

void free_problem(clgemm_cublas_session* s) {
  for (float** p : {&s->a, &s->b, &s->c, &s->c0}) {
    if (*p) cudaFree(*p);
    *p = nullptr;
  }
  s->c_count = 0;
}

bool upload(float** dst, const float* src, size_t count, cudaStream_t stream, char* err, size_t size) {
  const size_t bytes = (count ? count : 1) * sizeof(float);
  if (!cuda_ok(cudaMalloc(reinterpret_cast<void**>(dst), bytes), "cudaMalloc", err, size)) return false;
  if (count && !cuda_ok(cudaMemcpyAsync(*dst, src, bytes, cudaMemcpyHostToDevice, stream), "cudaMemcpy", err, size))
    return false;
  return true;
}

}  // namespace

extern "C" {

int clgemm_cublas_abi(void) { return CLGEMM_CUBLAS_PLUGIN_ABI; }

clgemm_cublas_session* clgemm_cublas_open(int tf32, char* err, size_t err_size) {
  int count = 0;
  if (!cuda_ok(cudaGetDeviceCount(&count), "no usable CUDA device: cudaGetDeviceCount", err, err_size)) return nullptr;
  if (count == 0) {
    say(err, err_size, "no CUDA device");
    return nullptr;
  }
  if (!tf32) {
    // This variable makes cuBLAS use TF32 for FP32 calls behind the caller's back.
    const char* override_tf32 = std::getenv("NVIDIA_TF32_OVERRIDE");
    if (override_tf32 && std::strcmp(override_tf32, "0") != 0) {
      say(err, err_size, "NVIDIA_TF32_OVERRIDE is set: cuBLAS FP32 would not be FP32");
      return nullptr;
    }
  }
  auto* s = new (std::nothrow) clgemm_cublas_session;
  if (!s) {
    say(err, err_size, "out of host memory");
    return nullptr;
  }
  s->tf32 = tf32 != 0;
  cudaDeviceProp prop{};
  int rt = 0, drv = 0, cublas_ver = 0;
  bool ok = cuda_ok(cudaSetDevice(0), "cudaSetDevice", err, err_size) &&
            cuda_ok(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties", err, err_size) &&
            cuda_ok(cudaStreamCreate(&s->stream), "cudaStreamCreate", err, err_size) &&
            cuda_ok(cudaEventCreate(&s->start), "cudaEventCreate", err, err_size) &&
            cuda_ok(cudaEventCreate(&s->stop), "cudaEventCreate", err, err_size) &&
            cublas_ok(cublasCreate(&s->handle), "cublasCreate", err, err_size) &&
            cublas_ok(cublasSetStream(s->handle, s->stream), "cublasSetStream", err, err_size) &&
            cublas_ok(cublasSetMathMode(s->handle, s->tf32 ? CUBLAS_TF32_TENSOR_OP_MATH : CUBLAS_DEFAULT_MATH),
                      "cublasSetMathMode", err, err_size) &&
            cublas_ok(cublasGetVersion(s->handle, &cublas_ver), "cublasGetVersion", err, err_size);
  if (!ok) {
    clgemm_cublas_close(s);
    return nullptr;
  }
  cudaRuntimeGetVersion(&rt);
  cudaDriverGetVersion(&drv);
  s->device_name = prop.name;
  // cublasGetVersion encodes major·10000 + minor·100 + patch (CUDA 12 and later).
  s->version = "cuBLAS " + std::to_string(cublas_ver / 10000) + "." + std::to_string(cublas_ver / 100 % 100) + "." +
               std::to_string(cublas_ver % 100) + ", CUDA runtime " + std::to_string(rt) + ", driver " +
               std::to_string(drv);
  return s;
}

const char* clgemm_cublas_device_name(const clgemm_cublas_session* s) { return s->device_name.c_str(); }
const char* clgemm_cublas_version(const clgemm_cublas_session* s) { return s->version.c_str(); }

int clgemm_cublas_prepare(clgemm_cublas_session* s, int col_major, int trans_a, int trans_b, size_t m, size_t n,
                          size_t k, float alpha, const float* a, size_t a_count, size_t lda, const float* b,
                          size_t b_count, size_t ldb, float beta, const float* c0, size_t c_count, size_t ldc,
                          char* err, size_t err_size) {
  free_problem(s);
  if (m > size_t(1) << 30 || n > size_t(1) << 30 || k > size_t(1) << 30 || lda > size_t(1) << 30 ||
      ldb > size_t(1) << 30 || ldc > size_t(1) << 30) {
    say(err, err_size, "sizes beyond cuBLAS's 32-bit arguments");
    return 1;
  }
  if (!upload(&s->a, a, a_count, s->stream, err, err_size) || !upload(&s->b, b, b_count, s->stream, err, err_size) ||
      !upload(&s->c0, c0, c_count, s->stream, err, err_size) ||
      !upload(&s->c, c0, c_count, s->stream, err, err_size) ||
      !cuda_ok(cudaStreamSynchronize(s->stream), "upload", err, err_size)) {
    free_problem(s);
    return 1;
  }
  s->c_count = c_count;
  s->alpha = alpha, s->beta = beta;
  s->ldc = int(ldc);
  const cublasOperation_t op_a = trans_a ? CUBLAS_OP_T : CUBLAS_OP_N, op_b = trans_b ? CUBLAS_OP_T : CUBLAS_OP_N;
  if (col_major) {
    s->rows = int(m), s->cols = int(n), s->inner = int(k);
    s->op_first = op_a, s->op_second = op_b;
    s->first = s->a, s->second = s->b;
    s->ld_first = int(lda), s->ld_second = int(ldb);
  } else {
    // A row-major C is the column-major Cᵀ = op(B)ᵀ·op(A)ᵀ: the same memory, read by cuBLAS with
    // the operands swapped and m, n exchanged. No data moves.
    s->rows = int(n), s->cols = int(m), s->inner = int(k);
    s->op_first = op_b, s->op_second = op_a;
    s->first = s->b, s->second = s->a;
    s->ld_first = int(ldb), s->ld_second = int(lda);
  }
  return 0;
}

int clgemm_cublas_reset_c(clgemm_cublas_session* s, char* err, size_t err_size) {
  if (s->c_count &&
      !cuda_ok(cudaMemcpyAsync(s->c, s->c0, s->c_count * sizeof(float), cudaMemcpyDeviceToDevice, s->stream),
               "reset C", err, err_size))
    return 1;
  return cuda_ok(cudaStreamSynchronize(s->stream), "reset C", err, err_size) ? 0 : 1;
}

int clgemm_cublas_run(clgemm_cublas_session* s, double* seconds, char* err, size_t err_size) {
  if (!cuda_ok(cudaEventRecord(s->start, s->stream), "cudaEventRecord", err, err_size)) return 1;
  const cublasStatus_t st = cublasSgemm(s->handle, s->op_first, s->op_second, s->rows, s->cols, s->inner, &s->alpha,
                                        s->first, s->ld_first, s->second, s->ld_second, &s->beta, s->c, s->ldc);
  if (!cublas_ok(st, "cublasSgemm", err, err_size)) return 1;
  float ms = 0;
  if (!cuda_ok(cudaEventRecord(s->stop, s->stream), "cudaEventRecord", err, err_size) ||
      !cuda_ok(cudaEventSynchronize(s->stop), "cudaEventSynchronize", err, err_size) ||
      !cuda_ok(cudaEventElapsedTime(&ms, s->start, s->stop), "cudaEventElapsedTime", err, err_size))
    return 1;
  *seconds = double(ms) * 1e-3;
  return 0;
}

int clgemm_cublas_read_c(clgemm_cublas_session* s, float* c, char* err, size_t err_size) {
  if (!s->c_count) return 0;
  return cuda_ok(cudaMemcpy(c, s->c, s->c_count * sizeof(float), cudaMemcpyDeviceToHost), "read C", err, err_size)
             ? 0
             : 1;
}

void clgemm_cublas_release(clgemm_cublas_session* s) {
  cudaStreamSynchronize(s->stream);
  free_problem(s);
}

void clgemm_cublas_close(clgemm_cublas_session* s) {
  if (!s) return;
  if (s->stream) cudaStreamSynchronize(s->stream);
  free_problem(s);
  if (s->handle) cublasDestroy(s->handle);
  if (s->start) cudaEventDestroy(s->start);
  if (s->stop) cudaEventDestroy(s->stop);
  if (s->stream) cudaStreamDestroy(s->stream);
  delete s;
}

}  // extern "C"
