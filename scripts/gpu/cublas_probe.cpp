// cublas_probe.cpp — times cublasSgemm (FP32, CUBLAS_DEFAULT_MATH), or with CUBLAS_PRECISION=f64
// cublasDgemm, on row-major square-or-not M×N×K with random inputs, with CUDA events around each
// call; for Nsight Compute beside ptx_profile.cpp (scripts/gpu/profile.sh). Built here with
// `nvcc -O2 scripts/gpu/cublas_probe.cpp -o cublas_probe -lcublas`, run there as
//   cublas_probe M N K [repeats]
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

template <typename T>
static int run(int M, int N, int K, int reps) {
  std::vector<T> a(size_t(M) * K), b(size_t(K) * N);
  unsigned x = 1;  // a small LCG: inputs in [-1, 1), the same every run
  for (std::vector<T>* v : {&a, &b})
    for (T& e : *v) {
      x = x * 1664525u + 1013904223u;
      e = T(float(x >> 8) / 8388608.0f - 1.0f);
    }
  T *d_a, *d_b, *d_c;
  if (cudaMalloc(&d_a, a.size() * sizeof(T)) || cudaMalloc(&d_b, b.size() * sizeof(T)) ||
      cudaMalloc(&d_c, size_t(M) * N * sizeof(T))) {
    std::fprintf(stderr, "cudaMalloc failed\n");
    return 1;
  }
  cudaMemcpy(d_a, a.data(), a.size() * sizeof(T), cudaMemcpyHostToDevice);
  cudaMemcpy(d_b, b.data(), b.size() * sizeof(T), cudaMemcpyHostToDevice);
  cublasHandle_t h;
  if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) return 1;
  cublasSetMathMode(h, CUBLAS_DEFAULT_MATH);
  const T alpha = 1, beta = 0;
  // Row-major C = A·B is column-major Cᵀ = Bᵀ·Aᵀ: the operands swap places.
  auto run = [&] {
    if constexpr (sizeof(T) == 8)
      return cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &alpha, d_b, N, d_a, K, &beta, d_c, N);
    else
      return cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &alpha, d_b, N, d_a, K, &beta, d_c, N);
  };
  for (int w = 0; w < 3; ++w)
    if (run() != CUBLAS_STATUS_SUCCESS) return 1;
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  std::vector<float> ms;
  for (int r = 0; r < reps; ++r) {
    cudaEventRecord(e0);
    run();
    cudaEventRecord(e1);
    cudaEventSynchronize(e1);
    float t = 0;
    cudaEventElapsedTime(&t, e0, e1);
    ms.push_back(t);
  }
  std::sort(ms.begin(), ms.end());
  const double med = ms[ms.size() / 2];
  std::printf("cublas %s %dx%dx%d: median %.4f ms, fastest %.4f (%.1f TFLOP/s)\n", sizeof(T) == 8 ? "dgemm" : "sgemm",
              M, N, K, med, ms[0], 2.0 * M * N * K / med / 1e9);
  return 0;
}

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: cublas_probe M N K [repeats]\n");
    return 2;
  }
  const int M = std::atoi(argv[1]), N = std::atoi(argv[2]), K = std::atoi(argv[3]);
  const int reps = argc > 4 ? std::atoi(argv[4]) : 20;
  const char* precision = std::getenv("CUBLAS_PRECISION");
  if (precision && std::string(precision) == "f64") return run<double>(M, N, K, reps);
  return run<float>(M, N, K, reps);
}
