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
// scripts/gpu/profile.sh does both for the build of a `clgemm bench` call, beside cuBLAS. With
// PTX_DMMA="BM BN WM WN" it runs a dmma entry instead (f64, the FP64 tensor cores; PTX_A_MK=1 and
// PTX_B_NK=1 for builds that read A as M×K or B as N×K). PTX_OPT_LEVEL (0-4) sets the JIT's
// optimisation level and PTX_CARVEOUT the local memory's share of L1 in percent, for comparing
// with the OpenCL driver's build and launch of the same PTX (scripts/gpu/jit_compare.sh).
#include <cuda.h>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdint>
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

// The largest error, relative to the sum of |products|, of 64 sampled elements of the row-major
// M×N C against float64 dot products of a(i, p) and b(p, j).
template <typename T, typename A, typename B>
static double worst_error(int M, int N, int K, const std::vector<T>& c, A a, B b) {
  double worst = 0;
  for (int s = 0; s < 64; ++s) {
    const int i = int((s * 977L) % M), j = int((s * 1531L + 7) % N);
    double ref = 0, mag = 0;
    for (int p = 0; p < K; ++p) {
      const double prod = double(a(i, p)) * double(b(p, j));
      ref += prod;
      mag += std::fabs(prod);
    }
    worst = std::max(worst, std::fabs(c[size_t(i) * N + j] - ref) / mag);
  }
  return worst;
}

// Three launches to warm up, then `reps` timed with CUDA events (float milliseconds), sorted.
template <typename Launch>
static std::vector<float> sorted_times(Launch launch, int reps) {
  for (int w = 0; w < 3; ++w) launch();
  CUevent e0, e1;
  CK(cuEventCreate(&e0, 0));
  CK(cuEventCreate(&e1, 0));
  std::vector<float> ms;
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
  return ms;
}

// One line of results; the exit status (1 where the error passes `tolerance`).
static int report(const char* path, const char* kernel, int M, int N, int K, int regs, const std::vector<float>& ms,
                  double worst, double tolerance) {
  const double med = ms[ms.size() / 2];
  std::printf("%s%s %dx%dx%d: %d registers, median %.4f ms, fastest %.4f (%.1f TFLOP/s), max error %.2e %s\n", path,
              kernel, M, N, K, regs, med, ms[0], 2.0 * M * N * K / med / 1e9, worst, worst < tolerance ? "ok" : "WRONG");
  return worst < tolerance ? 0 : 1;
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
  const double worst = worst_error(
      M, N, K, c, [&](int i, int p) { return at[size_t(p) * M + i]; }, [&](int p, int j) { return b[size_t(p) * N + j]; });
  return report(path, "", M, N, K, regs, sorted_times(launch, reps), worst, sizeof(T) == 8 ? 1e-12 : 1e-5);
}

// Runs a dmma kernel (gemm/dmma/dmma.cl, unbatched, ungrouped) on doubles: BM×BN tiles of
// (BM/WM)·(BN/WN) warps, in a row of tiles (tiles_n per row of C). A is M×K with A_MK, else K×M
// (At); B is N×K with B_NK, else K×N; both in units of two doubles. Checks 64 elements of C
// against a float64 dot product and prints the median time of the repeats.
static int run_dmma(CUfunction fn, int regs, const char* path, int M, int N, int K, int reps, int bm, int bn, int wm,
                    int wn, bool a_mk, bool b_nk) {
  std::vector<double> a(size_t(K) * M), b(size_t(K) * N), c(size_t(M) * N);
  std::mt19937 gen(1);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (double& x : a) x = u(gen);
  for (double& x : b) x = u(gen);
  CUdeviceptr d_a, d_b, d_c;
  CK(cuMemAlloc(&d_a, a.size() * 8));
  CK(cuMemAlloc(&d_b, b.size() * 8));
  CK(cuMemAlloc(&d_c, c.size() * 8));
  CK(cuMemcpyHtoD(d_a, a.data(), a.size() * 8));
  CK(cuMemcpyHtoD(d_b, b.data(), b.size() * 8));
  // dmma's arguments (dmma_command): M, N, K, padded K, alpha, beta; A, offset, row length and
  // item stride in units of two doubles; B likewise; C, offset, ldc, stride in doubles; tiles per
  // row of C; a batch's scalars and offsets (unread: one item).
  int m = M, n = N, k = K, kp = K, lda = (a_mk ? K : M) / 2, ldb = (b_nk ? K : N) / 2, ldc = N, tiles_n = N / bn;
  double alpha = 1, beta = 0;
  unsigned long long zero = 0;
  CUdeviceptr none = 0;
  void* args[] = {&m,   &n,    &k,   &kp,   &alpha, &beta, &d_a,  &zero, &lda,     &zero, &d_b,
                  &zero, &ldb, &zero, &d_c,  &zero,  &ldc,  &zero, &tiles_n, &none, &none};
  const unsigned threads = unsigned((bm / wm) * (bn / wn) * 32), groups = unsigned((M / bm) * (N / bn));
  auto launch = [&] { CK(cuLaunchKernel(fn, groups, 1, 1, threads, 1, 1, 0, nullptr, args, nullptr)); };
  launch();
  CK(cuCtxSynchronize());
  CK(cuMemcpyDtoH(c.data(), d_c, c.size() * 8));
  const double worst = worst_error(
      M, N, K, c, [&](int i, int p) { return a_mk ? a[size_t(i) * K + p] : a[size_t(p) * M + i]; },
      [&](int p, int j) { return b_nk ? b[size_t(j) * K + p] : b[size_t(p) * N + j]; });
  return report(path, " dmma", M, N, K, regs, sorted_times(launch, reps), worst, 1e-12);
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
  // PTX_OPT_LEVEL (0-4) sets the JIT's optimisation level (the CUDA default is 4), to compare
  // with the OpenCL driver's build of the same PTX.
  if (const char* level = std::getenv("PTX_OPT_LEVEL")) {
    CUjit_option opt = CU_JIT_OPTIMIZATION_LEVEL;
    void* value = reinterpret_cast<void*>(static_cast<uintptr_t>(std::atoi(level)));
    CK(cuModuleLoadDataEx(&mod, ptx.c_str(), 1, &opt, &value));
  } else {
    CK(cuModuleLoadData(&mod, ptx.c_str()));
  }
  CUfunction fn;
  // PTX_DMMA="BM BN WM WN" (and PTX_A_MK=1, PTX_B_NK=1 for those builds) runs a dmma entry.
  const char* dmma = std::getenv("PTX_DMMA");
  CK(cuModuleGetFunction(&fn, mod, dmma ? "dmma" : "xgemm"));
  int regs = 0;
  CK(cuFuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, fn));
  // PTX_CARVEOUT (percent of the unified L1 that local memory prefers).
  if (const char* carveout = std::getenv("PTX_CARVEOUT"))
    CK(cuFuncSetAttribute(fn, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, std::atoi(carveout)));
  if (dmma) {
    int bm = 0, bn = 0, wm = 0, wn = 0;
    if (std::sscanf(dmma, "%d %d %d %d", &bm, &bn, &wm, &wn) != 4 || bm <= 0 || bn <= 0 || wm <= 0 || wn <= 0 ||
        M % bm || N % bn || K % 16) {
      std::fprintf(stderr, "PTX_DMMA: \"BM BN WM WN\", tiles that divide M and N, and K a multiple of 16\n");
      return 2;
    }
    auto flag = [](const char* name) { const char* v = std::getenv(name); return v && std::string(v) == "1"; };
    return run_dmma(fn, regs, argv[1], M, N, K, reps, bm, bn, wm, wn, flag("PTX_A_MK"), flag("PTX_B_NK"));
  }
  const char* vm = std::getenv("PTX_VWM");
  const char* vn = std::getenv("PTX_VWN");
  const int vwm = vm ? std::atoi(vm) : 4, vwn = vn ? std::atoi(vn) : 4;
  const char* precision = std::getenv("PTX_PRECISION");
  if (precision && std::string(precision) == "f64")
    return run<double>(fn, regs, argv[1], M, N, K, reps, mwg, nwg, ndimc, mdimc, vwm, vwn);
  return run<float>(fn, regs, argv[1], M, N, K, reps, mwg, nwg, ndimc, mdimc, vwm, vwn);
}

