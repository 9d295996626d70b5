// ptx_profile.cpp — runs an xgemm kernel that NVIDIA's OpenCL compiler built, through the CUDA
// driver instead of OpenCL, so that Nsight Compute (which profiles CUDA launches only) can look
// inside it. It takes the PTX from a program-cache entry (CLGEMM_CACHE_DIR/<hash>.clbin holds the
// PTX after a short header) or a .ptx file, launches it as the packed path does for an unsplit
// call without guards (A packed K×M and B K×N, in vectors of VWM and VWN; C row-major), checks 64
// elements against a float64 dot product and prints the median time of the repeats.
// Built here with `nvcc -O2 scripts/gpu/ptx_profile.cpp -o ptx_profile -lcuda`, run there as
//   ptx_profile entry.clbin 4096 4096 4096 [repeats [MWG NWG NDIMC MDIMC]]
// (defaults: 20 repeats, the sm_90 large entry's 128×128 tiles of 16×16 work-items). A double
// build (PRECISION 64) runs with PTX_PRECISION=f64, and vector widths other than 4 with PTX_VWM
// and PTX_VWN (the build's VWM and VWN: the leading dimensions are in vectors). A split build
// (SPLIT, its groups in one row) runs with PTX_SPLIT=1 in the environment: every tile a whole one,
// none split, on a grid of tiles × 1 groups as gemm_exec.cpp launches it. Or under
//   ncu --section WarpStateStats --section SourceCounters --page source --print-source sass -s 2 -c 1 ptx_profile ...
// scripts/gpu/profile.sh does both for the build of a `clgemm bench` call, beside cuBLAS.
#include <cuda.h>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#define CK(x)                                                   \
  do {                                                          \
    CUresult r_ = (x);                                          \
    if (r_ != CUDA_SUCCESS) {                                   \
      const char* s_ = nullptr;                                 \
      cuGetErrorString(r_, &s_);                                \
      std::fprintf(stderr, "%s: %s\n", #x, s_ ? s_ : "?");      \
      std::exit(1);                                             \
    }                                                           \
  } while (0)

// The PTX text of a cache entry or a .ptx file: from its first comment line to its last brace.
// OpenCL kernels read their global work offset from %envreg0..2, which CUDA launches leave
// unset; the packed path launches without an offset, so they become 0.
static std::string load_ptx(const char* path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  const std::string raw = ss.str();
  const size_t begin = raw.find("//"), end = raw.rfind('}');
  if (begin == std::string::npos || end == std::string::npos || end < begin) {
    std::fprintf(stderr, "%s holds no PTX\n", path);
    std::exit(2);
  }
  return std::regex_replace(raw.substr(begin, end - begin + 1) + "\n", std::regex("%envreg[0-9]+"), "0");
}

// Runs the kernel on elements of type T (float or double) and returns the exit status.
template <typename T>
static int run(CUfunction fn, int regs, const char* path, int M, int N, int K, int reps, int mwg, int nwg, int ndimc,
               int mdimc, int vwm, int vwn) {
  std::vector<T> at(size_t(K) * M), b(size_t(K) * N), c(size_t(M) * N);
  std::mt19937 gen(1);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (T& x : at) x = T(u(gen));
  for (T& x : b) x = T(u(gen));
  CUdeviceptr d_at, d_b, d_c, d_ws, d_counts;
  CK(cuMemAlloc(&d_at, at.size() * sizeof(T)));
  CK(cuMemAlloc(&d_b, b.size() * sizeof(T)));
  CK(cuMemAlloc(&d_c, c.size() * sizeof(T)));
  CK(cuMemAlloc(&d_ws, 256));  // split-K workspace and counts: unused without a split
  CK(cuMemAlloc(&d_counts, 256));
  CK(cuMemcpyHtoD(d_at, at.data(), at.size() * sizeof(T)));
  CK(cuMemcpyHtoD(d_b, b.data(), b.size() * sizeof(T)));

  // xgemm's arguments (gemm_exec.cpp): M, N, K, padded K, alpha, beta; A, offset, lda, item
  // stride in vectors of VWM; B likewise in VWN; C, offset, ldc, stride in elements; tiles per row;
  // whole tiles, split tiles, stream-K groups; workspace and counts; a batch's scalars and offsets
  // (unread: one item).
  int m = M, n = N, k = K, kp = K, lda = M / vwm, ldb = N / vwn, ldc = N, tiles_n = N / nwg;
  int whole = (M / mwg) * (N / nwg), split = 0, sk_groups = 0;
  T alpha = 1, beta = 0;
  unsigned long long zero = 0;
  CUdeviceptr none = 0;
  void* args[] = {&m,     &n,    &k,    &kp,   &alpha, &beta,    &d_at,  &zero, &lda,      &zero,
                  &d_b,   &zero, &ldb,  &zero, &d_c,   &zero,    &ldc,   &zero, &tiles_n,  &whole,
                  &split, &sk_groups, &d_ws, &d_counts, &none, &none};
  const bool split_build = std::getenv("PTX_SPLIT") != nullptr;
  auto launch = [&] {
    if (split_build)
      CK(cuLaunchKernel(fn, whole, 1, 1, ndimc, mdimc, 1, 0, nullptr, args, nullptr));
    else
      CK(cuLaunchKernel(fn, N / nwg, M / mwg, 1, ndimc, mdimc, 1, 0, nullptr, args, nullptr));
  };
  launch();
  CK(cuCtxSynchronize());
  CK(cuMemcpyDtoH(c.data(), d_c, c.size() * sizeof(T)));
  double worst = 0;  // error relative to the sum of |products|
  for (int s = 0; s < 64; ++s) {
    const int i = int((s * 977L) % M), j = int((s * 1531L + 7) % N);
    double ref = 0, mag = 0;
    for (int p = 0; p < K; ++p) {
      const double prod = double(at[size_t(p) * M + i]) * b[size_t(p) * N + j];
      ref += prod;
      mag += std::fabs(prod);
    }
    worst = std::max(worst, std::fabs(c[size_t(i) * N + j] - ref) / mag);
  }
  for (int w = 0; w < 3; ++w) launch();
  CUevent e0, e1;
  CK(cuEventCreate(&e0, 0));
  CK(cuEventCreate(&e1, 0));
  std::vector<float> ms;  // CUDA events time in float milliseconds
  for (int r = 0; r < reps; ++r) {
    CK(cuEventRecord(e0, nullptr));
    launch();
    CK(cuEventRecord(e1, nullptr));
    CK(cuEventSynchronize(e1));
    float t = 0;
    CK(cuEventElapsedTime(&t, e0, e1));
    ms.push_back(t);
  }
  std::sort(ms.begin(), ms.end());
  const double med = ms[ms.size() / 2];
  const double tol = sizeof(T) == 8 ? 1e-12 : 1e-5;
  std::printf("%s %dx%dx%d: %d registers, median %.4f ms, fastest %.4f (%.1f TFLOP/s), max error %.2e %s\n", path,
              M, N, K, regs, med, ms[0], 2.0 * M * N * K / med / 1e9, worst, worst < tol ? "ok" : "WRONG");
  return worst < tol ? 0 : 1;
}

int main(int argc, char** argv) {
  if (argc != 5 && argc != 6 && argc != 10) {  // the tile comes whole or not at all
    std::fprintf(stderr, "usage: ptx_profile entry.clbin|kernel.ptx M N K [repeats [MWG NWG NDIMC MDIMC]]\n");
    return 2;
  }
  const int M = std::atoi(argv[2]), N = std::atoi(argv[3]), K = std::atoi(argv[4]);
  const int reps = argc > 5 ? std::atoi(argv[5]) : 20;
  const int mwg = argc > 9 ? std::atoi(argv[6]) : 128, nwg = argc > 9 ? std::atoi(argv[7]) : 128;
  const int ndimc = argc > 9 ? std::atoi(argv[8]) : 16, mdimc = argc > 9 ? std::atoi(argv[9]) : 16;
  if (M % mwg || N % nwg || M % 4 || N % 4 || reps < 1) {
    std::fprintf(stderr, "M and N must be multiples of the tile (no guards are built in), repeats >= 1\n");
    return 2;
  }
  const std::string ptx = load_ptx(argv[1]);
  CK(cuInit(0));
  CUdevice dev;
  CK(cuDeviceGet(&dev, 0));
  CUcontext ctx;
  CK(cuDevicePrimaryCtxRetain(&ctx, dev));
  CK(cuCtxSetCurrent(ctx));
  CUmodule mod;
  CK(cuModuleLoadData(&mod, ptx.c_str()));
  CUfunction fn;
  CK(cuModuleGetFunction(&fn, mod, "xgemm"));
  int regs = 0;
  CK(cuFuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, fn));
  const char* vm = std::getenv("PTX_VWM");
  const char* vn = std::getenv("PTX_VWN");
  const int vwm = vm ? std::atoi(vm) : 4, vwn = vn ? std::atoi(vn) : 4;
  const char* precision = std::getenv("PTX_PRECISION");
  if (precision && std::string(precision) == "f64")
    return run<double>(fn, regs, argv[1], M, N, K, reps, mwg, nwg, ndimc, mdimc, vwm, vwn);
  return run<float>(fn, regs, argv[1], M, N, K, reps, mwg, nwg, ndimc, mdimc, vwm, vwn);
}

