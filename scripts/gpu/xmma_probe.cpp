// xmma_probe.cpp — times gemm/xmma/xmma.cl alone on packed square operands (At K×M, B K×N, sizes
// multiples of the tiles) for -D configurations given on the command line, and checks 300
// elements against a float64 dot product and a float32 loop. Built here with
// `g++ -O2 -std=c++17 scripts/gpu/xmma_probe.cpp -o xmma_probe -lOpenCL`, run there as
// `xmma_probe src/kernels/gemm/xmma/xmma.cl 1024,4096 "-DBM=128 -DBN=128 -DWM=64 -DWN=64 -DSTAGES=2"`
// (POS=1: inputs in [0, 1)). Pass every tile parameter: the work-group size is read from them.
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>
#define CK(x) do { cl_int e_ = (x); if (e_) { printf("CL error %d at %s:%d\n", e_, __FILE__, __LINE__); exit(1);} } while (0)
int main(int argc, char** argv) {
  if (argc < 3) { printf("usage: probe kernel.cl sizes 'opts'...\n"); return 1; }
  // The kernel after the cp.async macros it uses, from common/ beside its folder.
  const std::string kernel = argv[1], dir = kernel.substr(0, kernel.find_last_of('/') + 1);
  std::ifstream macros(dir + "../common/cp_async.cl"), f(kernel);
  std::stringstream ss; ss << macros.rdbuf() << f.rdbuf(); std::string src = ss.str();
  std::vector<int> sizes; { std::stringstream s(argv[2]); std::string x; while (std::getline(s, x, ',')) sizes.push_back(atoi(x.c_str())); }
  cl_uint np; clGetPlatformIDs(0, nullptr, &np); std::vector<cl_platform_id> ps(np); clGetPlatformIDs(np, ps.data(), nullptr);
  cl_platform_id plat = nullptr;
  for (auto p : ps) { char n[256]; clGetPlatformInfo(p, CL_PLATFORM_NAME, 256, n, nullptr); if (strstr(n, "NVIDIA")) plat = p; }
  if (!plat) { printf("no NVIDIA\n"); return 1; }
  cl_device_id dev; CK(clGetDeviceIDs(plat, CL_DEVICE_TYPE_GPU, 1, &dev, nullptr));
  cl_int err; cl_context ctx = clCreateContext(nullptr, 1, &dev, nullptr, nullptr, &err); CK(err);
  cl_command_queue q = clCreateCommandQueue(ctx, dev, CL_QUEUE_PROFILING_ENABLE, &err); CK(err);
  for (int ai = 3; ai < argc; ++ai) {
    std::string opts = argv[ai];
    auto getd = [&](const char* k, int d) { std::string key = std::string("-D") + k + "="; auto p = opts.find(key); return p == std::string::npos ? d : atoi(opts.c_str() + p + key.size()); };
    int BM = getd("BM", 128), BN = getd("BN", 128), BK = getd("BK", 16), WM = getd("WM", 64), WN = getd("WN", 32);
    int threads = (BM / WM) * (BN / WN) * 32;
    const char* s = src.c_str();
    cl_program p = clCreateProgramWithSource(ctx, 1, &s, nullptr, &err);
    std::string o = opts + " -cl-nv-verbose";
    err = clBuildProgram(p, 1, &dev, o.c_str(), nullptr, nullptr);
    std::vector<char> log(200000); clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, log.size(), log.data(), nullptr);
    std::string lg(log.data()); std::string regs;
    { auto r = lg.find("Used "); if (r != std::string::npos) regs = lg.substr(r, lg.find('\n', r) - r); }
    printf("== %s  [%s]\n", opts.c_str(), regs.c_str());
    if (err) { printf("build failed %d: %.3000s\n", err, log.data()); continue; }
    if (ai == 3) { // dump ptx once
      size_t sz; clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof sz, &sz, nullptr); std::vector<char> bin(sz + 1); char* bp = bin.data();
      clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof bp, &bp, nullptr); bin[sz] = 0;
      if (getenv("PTX_OUT")) { std::ofstream(getenv("PTX_OUT")) << bin.data(); }
    }
    cl_kernel k = clCreateKernel(p, "xmma", &err); CK(err);
    for (int S : sizes) {
      int M = S, N = S, K = S;
      int Mp = (M + BM - 1) / BM * BM, Np = (N + BN - 1) / BN * BN, Kp = (K + BK - 1) / BK * BK;
      std::mt19937 rng(S); std::uniform_real_distribution<float> u(getenv("POS") ? 0.f : -1.f, 1);
      std::vector<float> At((size_t)Kp * Mp, 0.f), B((size_t)Kp * Np, 0.f);
      for (int kk = 0; kk < K; ++kk) { for (int m = 0; m < M; ++m) At[(size_t)kk * Mp + m] = u(rng); for (int n = 0; n < N; ++n) B[(size_t)kk * Np + n] = u(rng); }
      cl_mem dA = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, At.size() * 4, At.data(), &err); CK(err);
      cl_mem dB = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, B.size() * 4, B.data(), &err); CK(err);
      cl_mem dC = clCreateBuffer(ctx, 0, (size_t)M * N * 4, nullptr, &err); CK(err);
      int tiles_n = Np / BN, tiles = (Mp / BM) * tiles_n; float alpha = 1, beta = 0; cl_ulong z = 0; int lda_v = Mp / 4, ldb_v = Np / 4;
      int a = 0;
      CK(clSetKernelArg(k, a++, 4, &M)); CK(clSetKernelArg(k, a++, 4, &N)); CK(clSetKernelArg(k, a++, 4, &K)); CK(clSetKernelArg(k, a++, 4, &Kp));
      CK(clSetKernelArg(k, a++, 4, &alpha)); CK(clSetKernelArg(k, a++, 4, &beta));
      CK(clSetKernelArg(k, a++, sizeof dA, &dA)); CK(clSetKernelArg(k, a++, 8, &z)); CK(clSetKernelArg(k, a++, 4, &lda_v));
      CK(clSetKernelArg(k, a++, sizeof dB, &dB)); CK(clSetKernelArg(k, a++, 8, &z)); CK(clSetKernelArg(k, a++, 4, &ldb_v));
      CK(clSetKernelArg(k, a++, sizeof dC, &dC)); CK(clSetKernelArg(k, a++, 8, &z)); CK(clSetKernelArg(k, a++, 4, &N)); CK(clSetKernelArg(k, a++, 4, &tiles_n));
      size_t gs = (size_t)tiles * threads, ls = threads;
      std::vector<double> ts;
      int reps = S >= 4096 ? 10 : 30;
      for (int r = 0; r < reps + 3; ++r) {
        cl_event ev; CK(clEnqueueNDRangeKernel(q, k, 1, nullptr, &gs, &ls, 0, nullptr, &ev)); CK(clWaitForEvents(1, &ev));
        cl_ulong t0, t1; clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, 8, &t0, nullptr); clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, 8, &t1, nullptr);
        if (r >= 3) ts.push_back((t1 - t0) * 1e-9); clReleaseEvent(ev);
      }
      std::sort(ts.begin(), ts.end()); double med = ts[ts.size() / 2];
      std::vector<float> C((size_t)M * N); CK(clEnqueueReadBuffer(q, dC, CL_TRUE, 0, C.size() * 4, C.data(), 0, nullptr, nullptr));
      double maxrel = 0, maxf32 = 0; std::mt19937 r2(7);
      for (int smp = 0; smp < 300; ++smp) {
        int m = r2() % M, n = r2() % N; double ref = 0, mag = 0; float f32 = 0;
        for (int kk = 0; kk < K; ++kk) { double pr = (double)At[(size_t)kk * Mp + m] * B[(size_t)kk * Np + n]; ref += pr; mag += fabs(pr); f32 = fmaf(At[(size_t)kk * Mp + m], B[(size_t)kk * Np + n], f32); }
        maxrel = std::max(maxrel, fabs(C[(size_t)m * N + n] - ref) / mag); maxf32 = std::max(maxf32, fabs(f32 - ref) / mag);
      }
      printf("  %5d: %8.3f ms  %7.1f TFLOP/s   err/sum|ab| %.2e  (sequential fp32 %.2e)\n", S, med * 1e3, 2.0 * M * N * K / med * 1e-12, maxrel, maxf32);
      fflush(stdout);
      clReleaseMemObject(dA); clReleaseMemObject(dB); clReleaseMemObject(dC);
    }
    clReleaseKernel(k); clReleaseProgram(p);
  }
  return 0;
}
