// bench/cuda/cublas_plugin.cpp — libclgemm_cublas.so: cuBLAS GEMMs (Sgemm, Dgemm, Hgemm and
// GemmEx for bf16 and mixed types) behind the plain C interface of cublas_plugin.h. Built only
// when CMake finds the CUDA toolkit; linked to cuBLAS and the static CUDA runtime, so on the GPU
// machine it needs libcublas(.Lt) and the driver, nothing more. Host-only C++ (no device code),
// compiled by the ordinary C++ compiler.
#include "bench/cuda/cublas_plugin.h"

#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>
#include <vector>

struct clgemm_cublas_session {
  bool tf32 = false;
  cublasHandle_t handle = nullptr;
  cudaStream_t stream = nullptr;
  cudaEvent_t start = nullptr, stop = nullptr;
  std::string device_name, version;
  // The prepared problem, in cuBLAS's column-major terms (see clgemm_cublas_prepare).
  int ab_type = CLGEMM_CUBLAS_F32, c_type = CLGEMM_CUBLAS_F32;
  void *a = nullptr, *b = nullptr, *c = nullptr, *c0 = nullptr;
  size_t c_count = 0;
  cublasOperation_t op_first = CUBLAS_OP_N, op_second = CUBLAS_OP_N;
  int rows = 0, cols = 0, inner = 0, ld_first = 0, ld_second = 0, ldc = 0;
  const void *first = nullptr, *second = nullptr;
  // A strided batch (clgemm_cublas_batch): its item count and the strides of first, second and C.
  int batch = 1;
  long long stride_first = 0, stride_second = 0, stride_c = 0;
  // alpha and beta in each scalar type a call may take.
  double alpha64 = 1, beta64 = 0;
  float alpha32 = 1, beta32 = 0;
  __half alpha16{}, beta16{};
  bool col_major = true;
  // A grouped problem (clgemm_cublas_grouped), in cuBLAS's column-major terms: per problem its
  // sizes, leading dimensions, scalars and transposes on the host, its matrices' addresses in
  // device arrays; one problem per group.
  std::vector<int> g_rows, g_cols, g_inner, g_ld_first, g_ld_second, g_ldc, g_size;
  std::vector<cublasOperation_t> g_op_first, g_op_second;
  std::vector<float> g_alpha32, g_beta32;
  std::vector<double> g_alpha64, g_beta64;
  void** g_first = nullptr;
  void** g_second = nullptr;
  void** g_c = nullptr;
  // One call per problem instead of the grouped form, from these host copies of the addresses.
  bool g_loop = false;
  std::vector<void*> h_first, h_second, h_c;
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

size_t element_bytes(int type) { return type == CLGEMM_CUBLAS_F64 ? 8 : type == CLGEMM_CUBLAS_F32 ? 4 : 2; }

cudaDataType_t cuda_type(int type) {
  switch (type) {
    case CLGEMM_CUBLAS_F64: return CUDA_R_64F;
    case CLGEMM_CUBLAS_F16: return CUDA_R_16F;
    case CLGEMM_CUBLAS_BF16: return CUDA_R_16BF;
    default: return CUDA_R_32F;
  }
}

const char* type_name(int type) {
  switch (type) {
    case CLGEMM_CUBLAS_F32: return "f32";
    case CLGEMM_CUBLAS_F64: return "f64";
    case CLGEMM_CUBLAS_F16: return "f16";
    case CLGEMM_CUBLAS_BF16: return "bf16";
    default: return "an unknown type";
  }
}

// The combinations the plugin runs (cublas_plugin.h lists the call for each).
bool supported_types(int ab, int c) {
  if (ab == c) return ab == CLGEMM_CUBLAS_F32 || ab == CLGEMM_CUBLAS_F64 || ab == CLGEMM_CUBLAS_F16 ||
                      ab == CLGEMM_CUBLAS_BF16;
  return c == CLGEMM_CUBLAS_F32 && (ab == CLGEMM_CUBLAS_F16 || ab == CLGEMM_CUBLAS_BF16);
}

void free_group(clgemm_cublas_session* s) {
  for (void*** p : {&s->g_first, &s->g_second, &s->g_c}) {
    if (*p) cudaFree(*p);
    *p = nullptr;
  }
  // Every per-problem list, so that a second grouped call does not append to the first's.
  for (std::vector<int>* v : {&s->g_rows, &s->g_cols, &s->g_inner, &s->g_ld_first, &s->g_ld_second, &s->g_ldc,
                              &s->g_size})
    v->clear();
  s->g_op_first.clear(), s->g_op_second.clear();
  s->h_first.clear(), s->h_second.clear(), s->h_c.clear();
  s->g_loop = false;
}

void free_problem(clgemm_cublas_session* s) {
  free_group(s);
  for (void** p : {&s->a, &s->b, &s->c, &s->c0}) {
    if (*p) cudaFree(*p);
    *p = nullptr;
  }
  s->c_count = 0;
}

bool upload(void** dst, const void* src, size_t count, size_t element, cudaStream_t stream, char* err, size_t size) {
  const size_t bytes = (count ? count : 1) * element;
  if (!cuda_ok(cudaMalloc(dst, bytes), "cudaMalloc", err, size)) return false;
  if (count && !cuda_ok(cudaMemcpyAsync(*dst, src, bytes, cudaMemcpyHostToDevice, stream), "cudaMemcpy", err, size))
    return false;
  return true;
}

// Enqueues the prepared strided batch on the session's stream; `name` is set to the call made.
cublasStatus_t enqueue_batch(clgemm_cublas_session* s, const char** name) {
  if (s->ab_type == CLGEMM_CUBLAS_F32 && s->c_type == CLGEMM_CUBLAS_F32) {
    *name = "cublasSgemmStridedBatched";
    return cublasSgemmStridedBatched(s->handle, s->op_first, s->op_second, s->rows, s->cols, s->inner, &s->alpha32,
                                     static_cast<const float*>(s->first), s->ld_first, s->stride_first,
                                     static_cast<const float*>(s->second), s->ld_second, s->stride_second, &s->beta32,
                                     static_cast<float*>(s->c), s->ldc, s->stride_c, s->batch);
  }
  if (s->ab_type == CLGEMM_CUBLAS_F64) {
    *name = "cublasDgemmStridedBatched";
    return cublasDgemmStridedBatched(s->handle, s->op_first, s->op_second, s->rows, s->cols, s->inner, &s->alpha64,
                                     static_cast<const double*>(s->first), s->ld_first, s->stride_first,
                                     static_cast<const double*>(s->second), s->ld_second, s->stride_second,
                                     &s->beta64, static_cast<double*>(s->c), s->ldc, s->stride_c, s->batch);
  }
  if (s->ab_type == CLGEMM_CUBLAS_F16 && s->c_type == CLGEMM_CUBLAS_F16) {
    *name = "cublasHgemmStridedBatched";
    return cublasHgemmStridedBatched(s->handle, s->op_first, s->op_second, s->rows, s->cols, s->inner, &s->alpha16,
                                     static_cast<const __half*>(s->first), s->ld_first, s->stride_first,
                                     static_cast<const __half*>(s->second), s->ld_second, s->stride_second,
                                     &s->beta16, static_cast<__half*>(s->c), s->ldc, s->stride_c, s->batch);
  }
  *name = "cublasGemmStridedBatchedEx";
  return cublasGemmStridedBatchedEx(s->handle, s->op_first, s->op_second, s->rows, s->cols, s->inner, &s->alpha32,
                                    s->first, cuda_type(s->ab_type), s->ld_first, s->stride_first, s->second,
                                    cuda_type(s->ab_type), s->ld_second, s->stride_second, &s->beta32, s->c,
                                    cuda_type(s->c_type), s->ldc, s->stride_c, s->batch, CUBLAS_COMPUTE_32F,
                                    CUBLAS_GEMM_DEFAULT);
}

// Enqueues one GEMM per problem of the prepared grouped call, in the grouped form's arithmetic;
// `name` is set to the call made.
cublasStatus_t enqueue_each(clgemm_cublas_session* s, const char** name) {
  const bool f32 = s->ab_type == CLGEMM_CUBLAS_F32 && s->c_type == CLGEMM_CUBLAS_F32;
  const bool f64 = s->ab_type == CLGEMM_CUBLAS_F64;
  *name = f32 ? "cublasSgemm per problem" : f64 ? "cublasDgemm per problem" : "cublasGemmEx per problem";
  for (size_t i = 0; i < s->g_rows.size(); ++i) {
    const int rows = s->g_rows[i], cols = s->g_cols[i], inner = s->g_inner[i];
    if (rows == 0 || cols == 0) continue;
    cublasStatus_t st;
    if (f32)
      st = cublasSgemm(s->handle, s->g_op_first[i], s->g_op_second[i], rows, cols, inner, &s->alpha32,
                       static_cast<const float*>(s->h_first[i]), s->g_ld_first[i],
                       static_cast<const float*>(s->h_second[i]), s->g_ld_second[i], &s->beta32,
                       static_cast<float*>(s->h_c[i]), s->g_ldc[i]);
    else if (f64)
      st = cublasDgemm(s->handle, s->g_op_first[i], s->g_op_second[i], rows, cols, inner, &s->alpha64,
                       static_cast<const double*>(s->h_first[i]), s->g_ld_first[i],
                       static_cast<const double*>(s->h_second[i]), s->g_ld_second[i], &s->beta64,
                       static_cast<double*>(s->h_c[i]), s->g_ldc[i]);
    else
      st = cublasGemmEx(s->handle, s->g_op_first[i], s->g_op_second[i], rows, cols, inner, &s->alpha32, s->h_first[i],
                        cuda_type(s->ab_type), s->g_ld_first[i], s->h_second[i], cuda_type(s->ab_type),
                        s->g_ld_second[i], &s->beta32, s->h_c[i], cuda_type(s->c_type), s->g_ldc[i],
                        CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
    if (st != CUBLAS_STATUS_SUCCESS) return st;
  }
  return CUBLAS_STATUS_SUCCESS;
}

// Enqueues the prepared grouped call on the session's stream; `name` is set to the call made.
cublasStatus_t enqueue_grouped(clgemm_cublas_session* s, const char** name) {
  if (s->g_loop) return enqueue_each(s, name);
  const int groups = int(s->g_rows.size());
  if (s->ab_type == CLGEMM_CUBLAS_F32 && s->c_type == CLGEMM_CUBLAS_F32) {
    *name = "cublasSgemmGroupedBatched";
    return cublasSgemmGroupedBatched(s->handle, s->g_op_first.data(), s->g_op_second.data(), s->g_rows.data(),
                                     s->g_cols.data(), s->g_inner.data(), s->g_alpha32.data(),
                                     reinterpret_cast<const float* const*>(s->g_first), s->g_ld_first.data(),
                                     reinterpret_cast<const float* const*>(s->g_second), s->g_ld_second.data(),
                                     s->g_beta32.data(), reinterpret_cast<float* const*>(s->g_c), s->g_ldc.data(),
                                     groups, s->g_size.data());
  }
  if (s->ab_type == CLGEMM_CUBLAS_F64) {
    *name = "cublasDgemmGroupedBatched";
    return cublasDgemmGroupedBatched(s->handle, s->g_op_first.data(), s->g_op_second.data(), s->g_rows.data(),
                                     s->g_cols.data(), s->g_inner.data(), s->g_alpha64.data(),
                                     reinterpret_cast<const double* const*>(s->g_first), s->g_ld_first.data(),
                                     reinterpret_cast<const double* const*>(s->g_second), s->g_ld_second.data(),
                                     s->g_beta64.data(), reinterpret_cast<double* const*>(s->g_c), s->g_ldc.data(),
                                     groups, s->g_size.data());
  }
  *name = "cublasGemmGroupedBatchedEx";
  return cublasGemmGroupedBatchedEx(s->handle, s->g_op_first.data(), s->g_op_second.data(), s->g_rows.data(),
                                    s->g_cols.data(), s->g_inner.data(), s->g_alpha32.data(), s->g_first,
                                    cuda_type(s->ab_type), s->g_ld_first.data(), s->g_second, cuda_type(s->ab_type),
                                    s->g_ld_second.data(), s->g_beta32.data(), s->g_c, cuda_type(s->c_type),
                                    s->g_ldc.data(), groups, s->g_size.data(), CUBLAS_COMPUTE_32F);
}

// Enqueues the prepared GEMM on the session's stream; `name` is set to the call made.
cublasStatus_t enqueue_gemm(clgemm_cublas_session* s, const char** name) {
  if (!s->g_rows.empty()) return enqueue_grouped(s, name);
  if (s->batch > 1) return enqueue_batch(s, name);
  if (s->ab_type == CLGEMM_CUBLAS_F32 && s->c_type == CLGEMM_CUBLAS_F32) {
    *name = "cublasSgemm";
    return cublasSgemm(s->handle, s->op_first, s->op_second, s->rows, s->cols, s->inner, &s->alpha32,
                       static_cast<const float*>(s->first), s->ld_first, static_cast<const float*>(s->second),
                       s->ld_second, &s->beta32, static_cast<float*>(s->c), s->ldc);
  }
  if (s->ab_type == CLGEMM_CUBLAS_F64) {
    *name = "cublasDgemm";
    return cublasDgemm(s->handle, s->op_first, s->op_second, s->rows, s->cols, s->inner, &s->alpha64,
                       static_cast<const double*>(s->first), s->ld_first, static_cast<const double*>(s->second),
                       s->ld_second, &s->beta64, static_cast<double*>(s->c), s->ldc);
  }
  if (s->ab_type == CLGEMM_CUBLAS_F16 && s->c_type == CLGEMM_CUBLAS_F16) {
    *name = "cublasHgemm";
    return cublasHgemm(s->handle, s->op_first, s->op_second, s->rows, s->cols, s->inner, &s->alpha16,
                       static_cast<const __half*>(s->first), s->ld_first, static_cast<const __half*>(s->second),
                       s->ld_second, &s->beta16, static_cast<__half*>(s->c), s->ldc);
  }
  // 16-bit A and B, C of their type or f32, computed in float32 (alpha and beta are floats then).
  *name = "cublasGemmEx";
  return cublasGemmEx(s->handle, s->op_first, s->op_second, s->rows, s->cols, s->inner, &s->alpha32, s->first,
                      cuda_type(s->ab_type), s->ld_first, s->second, cuda_type(s->ab_type), s->ld_second, &s->beta32,
                      s->c, cuda_type(s->c_type), s->ldc, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
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

int clgemm_cublas_prepare(clgemm_cublas_session* s, int ab_type, int c_type, int col_major, int trans_a, int trans_b,
                          size_t m, size_t n, size_t k, double alpha, const void* a, size_t a_count, size_t lda,
                          const void* b, size_t b_count, size_t ldb, double beta, const void* c0, size_t c_count,
                          size_t ldc, char* err, size_t err_size) {
  free_problem(s);
  if (!supported_types(ab_type, c_type)) {
    say(err, err_size, std::string("no cuBLAS GEMM here for ") + type_name(ab_type) + " A and B with " +
                           type_name(c_type) + " C");
    return 1;
  }
  if (s->tf32 && ab_type != CLGEMM_CUBLAS_F32) {
    say(err, err_size, "a TF32 session computes float32 operands only");
    return 1;
  }
  if (m > size_t(1) << 30 || n > size_t(1) << 30 || k > size_t(1) << 30 || lda > size_t(1) << 30 ||
      ldb > size_t(1) << 30 || ldc > size_t(1) << 30) {
    say(err, err_size, "sizes beyond cuBLAS's 32-bit arguments");
    return 1;
  }
  const size_t in = element_bytes(ab_type), out = element_bytes(c_type);
  if (!upload(&s->a, a, a_count, in, s->stream, err, err_size) ||
      !upload(&s->b, b, b_count, in, s->stream, err, err_size) ||
      !upload(&s->c0, c0, c_count, out, s->stream, err, err_size) ||
      !upload(&s->c, c0, c_count, out, s->stream, err, err_size) ||
      !cuda_ok(cudaStreamSynchronize(s->stream), "upload", err, err_size)) {
    free_problem(s);
    return 1;
  }
  s->ab_type = ab_type, s->c_type = c_type;
  s->c_count = c_count;
  s->batch = 1;
  s->stride_first = s->stride_second = s->stride_c = 0;
  s->col_major = col_major != 0;
  s->alpha64 = alpha, s->beta64 = beta;
  s->alpha32 = float(alpha), s->beta32 = float(beta);
  s->alpha16 = __float2half(float(alpha)), s->beta16 = __float2half(float(beta));
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

int clgemm_cublas_batch(clgemm_cublas_session* s, size_t count, size_t a_stride, size_t b_stride, size_t c_stride,
                        char* err, size_t err_size) {
  if (count == 0 || count > size_t(1) << 30) {
    say(err, err_size, "a batch count from 1 to 2^30");
    return 1;
  }
  s->batch = int(count);
  // A row-major problem runs with the operands swapped (clgemm_cublas_prepare), and so do the strides.
  s->stride_first = (long long)(s->col_major ? a_stride : b_stride);
  s->stride_second = (long long)(s->col_major ? b_stride : a_stride);
  s->stride_c = (long long)c_stride;
  return 0;
}

int clgemm_cublas_grouped(clgemm_cublas_session* s, size_t count, const size_t* ms, const size_t* ns,
                          const size_t* ks, const size_t* a_offsets, const size_t* ldas, const size_t* b_offsets,
                          const size_t* ldbs, const size_t* c_offsets, const size_t* ldcs, int one_call_each,
                          char* err, size_t err_size) {
  free_group(s);
  if (count == 0 || count > size_t(1) << 30) {
    say(err, err_size, "a grouped call of 1 to 2^30 problems");
    return 1;
  }
  const size_t in = element_bytes(s->ab_type), out = element_bytes(s->c_type);
  std::vector<void*> first(count), second(count), c(count);
  const cublasOperation_t op_a = s->col_major ? s->op_first : s->op_second;
  const cublasOperation_t op_b = s->col_major ? s->op_second : s->op_first;
  for (size_t i = 0; i < count; ++i) {
    void* a = static_cast<char*>(s->a) + a_offsets[i] * in;
    void* b = static_cast<char*>(s->b) + b_offsets[i] * in;
    c[i] = static_cast<char*>(s->c) + c_offsets[i] * out;
    // Row-major problems run as the column-major C^T = op(B)^T·op(A)^T, as in prepare.
    const bool col = s->col_major;
    s->g_rows.push_back(int(col ? ms[i] : ns[i]));
    s->g_cols.push_back(int(col ? ns[i] : ms[i]));
    s->g_inner.push_back(int(ks[i]));
    first[i] = col ? a : b, second[i] = col ? b : a;
    s->g_ld_first.push_back(int(col ? ldas[i] : ldbs[i]));
    s->g_ld_second.push_back(int(col ? ldbs[i] : ldas[i]));
    s->g_ldc.push_back(int(ldcs[i]));
    s->g_op_first.push_back(col ? op_a : op_b);
    s->g_op_second.push_back(col ? op_b : op_a);
    s->g_size.push_back(1);
  }
  s->g_loop = one_call_each != 0;
  s->h_first = first, s->h_second = second, s->h_c = c;
  s->g_alpha32.assign(count, s->alpha32), s->g_beta32.assign(count, s->beta32);
  s->g_alpha64.assign(count, s->alpha64), s->g_beta64.assign(count, s->beta64);
  const size_t bytes = count * sizeof(void*);
  const bool ok = cuda_ok(cudaMalloc(reinterpret_cast<void**>(&s->g_first), bytes), "cudaMalloc", err, err_size) &&
                  cuda_ok(cudaMalloc(reinterpret_cast<void**>(&s->g_second), bytes), "cudaMalloc", err, err_size) &&
                  cuda_ok(cudaMalloc(reinterpret_cast<void**>(&s->g_c), bytes), "cudaMalloc", err, err_size) &&
                  cuda_ok(cudaMemcpy(s->g_first, first.data(), bytes, cudaMemcpyHostToDevice), "cudaMemcpy", err,
                          err_size) &&
                  cuda_ok(cudaMemcpy(s->g_second, second.data(), bytes, cudaMemcpyHostToDevice), "cudaMemcpy", err,
                          err_size) &&
                  cuda_ok(cudaMemcpy(s->g_c, c.data(), bytes, cudaMemcpyHostToDevice), "cudaMemcpy", err, err_size);
  if (!ok) free_group(s);
  return ok ? 0 : 1;
}

int clgemm_cublas_reset_c(clgemm_cublas_session* s, char* err, size_t err_size) {
  if (s->c_count &&
      !cuda_ok(cudaMemcpyAsync(s->c, s->c0, s->c_count * element_bytes(s->c_type), cudaMemcpyDeviceToDevice,
                               s->stream),
               "reset C", err, err_size))
    return 1;
  return cuda_ok(cudaStreamSynchronize(s->stream), "reset C", err, err_size) ? 0 : 1;
}

int clgemm_cublas_run(clgemm_cublas_session* s, double* seconds, char* err, size_t err_size) {
  if (!cuda_ok(cudaEventRecord(s->start, s->stream), "cudaEventRecord", err, err_size)) return 1;
  const char* name = "";
  const cublasStatus_t st = enqueue_gemm(s, &name);
  if (!cublas_ok(st, name, err, err_size)) return 1;
  float ms = 0;
  if (!cuda_ok(cudaEventRecord(s->stop, s->stream), "cudaEventRecord", err, err_size) ||
      !cuda_ok(cudaEventSynchronize(s->stop), "cudaEventSynchronize", err, err_size) ||
      !cuda_ok(cudaEventElapsedTime(&ms, s->start, s->stop), "cudaEventElapsedTime", err, err_size))
    return 1;
  *seconds = double(ms) * 1e-3;
  return 0;
}

int clgemm_cublas_read_c(clgemm_cublas_session* s, void* c, char* err, size_t err_size) {
  if (!s->c_count) return 0;
  return cuda_ok(cudaMemcpy(c, s->c, s->c_count * element_bytes(s->c_type), cudaMemcpyDeviceToHost), "read C", err,
                 err_size)
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
