// batched_probe.cpp — times strided-batched SGEMM through clgemm's C API and CLBlast's, on the same
// queue, inputs and shapes, and checks both against a float64 loop on a few items. It uses the C
// API alone, so one source measures any build of libclgemm (LD_LIBRARY_PATH picks which): the
// way to compare batched calls before and after a change. Built here with
//   g++ -O2 -std=c++17 scripts/gpu/batched_probe.cpp -Iinclude -Lbuild -lclgemm -lclblast -lOpenCL -o batched_probe
// and run as
//   batched_probe COUNTxMxNxK [COUNTxMxNxK ...]     (e.g. 4096x32x32x32 1024x128x128x128)
// with $CLGEMM_DEVICE naming the device (index or part of its name; default: the first GPU).
// Per shape and library: the median over 20 calls of the device time from a marker enqueued just
// before the call to the end of the event the call returns (every command of the call in between),
// and of the host time of call + clFinish.
#include <clgemm/clgemm.h>

#include <clblast_c.h>

#include "probe_device.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

struct Shape {
  size_t count, m, n, k;
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: batched_probe COUNTxMxNxK [COUNTxMxNxK ...]\n");
    return 2;
  }
  cl_device_id device = probe::pick_device();
  char name[256] = {};
  clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof name, name, nullptr);
  cl_int err = 0;
  cl_context ctx = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
  const cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
  cl_command_queue q = clCreateCommandQueueWithProperties(ctx, device, props, &err);
  std::printf("device: %s\n%-22s %-8s %12s %12s %10s  %s\n", name, "shape", "library", "device ms", "host ms",
              "GFLOP/s", "check");
  int status = 0;
  for (int s = 1; s < argc; ++s) {
    Shape sh{};
    if (std::sscanf(argv[s], "%zux%zux%zux%zu", &sh.count, &sh.m, &sh.n, &sh.k) != 4) {
      std::fprintf(stderr, "not COUNTxMxNxK: %s\n", argv[s]);
      return 2;
    }
    const size_t sa = sh.m * sh.k, sb = sh.k * sh.n, sc = sh.m * sh.n;
    std::vector<float> a(sa * sh.count), b(sb * sh.count), c(sc * sh.count);
    unsigned x = 7;
    for (std::vector<float>* v : {&a, &b})
      for (float& e : *v) {
        x = x * 1664525u + 1013904223u;
        e = float(x >> 8) / 8388608.0f - 1.0f;
      }
    cl_mem da = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, a.size() * 4, a.data(), &err);
    cl_mem db = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, b.size() * 4, b.data(), &err);
    cl_mem dc = clCreateBuffer(ctx, CL_MEM_READ_WRITE, c.size() * 4, nullptr, &err);
    const double flops = 2.0 * double(sh.count) * double(sh.m) * double(sh.n) * double(sh.k);
    for (const char* lib : {"clgemm", "clblast"}) {
      const bool mine = std::strcmp(lib, "clgemm") == 0;
      auto call = [&](cl_event* ev) -> int {
        return mine ? int(clgemmSgemmStridedBatched(clgemmLayoutRowMajor, clgemmTransposeNo, clgemmTransposeNo, sh.m,
                                                     sh.n, sh.k, 1.0f, da, 0, sh.k, sa, db, 0, sh.n, sb, 0.0f, dc, 0,
                                                     sh.n, sc, sh.count, &q, ev))
                    : int(CLBlastSgemmStridedBatched(CLBlastLayoutRowMajor, CLBlastTransposeNo, CLBlastTransposeNo,
                                                     sh.m, sh.n, sh.k, 1.0f, da, 0, sh.k, sa, db, 0, sh.n, sb, 0.0f,
                                                     dc, 0, sh.n, sc, sh.count, &q, ev));
      };
      std::vector<double> device_ms, host_ms;
      bool failed = false;
      for (int r = 0; r < 23 && !failed; ++r) {
        cl_event marker = nullptr, done = nullptr;
        clEnqueueMarkerWithWaitList(q, 0, nullptr, &marker);
        const auto t0 = std::chrono::steady_clock::now();
        const int rc = call(&done);
        clFinish(q);
        const double host = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        if (rc != 0) {
          std::printf("%-22s %-8s failed with status %d%s%s\n", argv[s], lib, rc, mine ? ": " : "",
                      mine ? clgemmLastErrorMessage() : "");
          failed = true;
        } else if (r >= 3) {  // three warm-up calls
          device_ms.push_back(double(probe::profile(done, CL_PROFILING_COMMAND_END) - probe::profile(marker, CL_PROFILING_COMMAND_START)) * 1e-6);
          host_ms.push_back(host);
        }
        if (marker) clReleaseEvent(marker);
        if (done) clReleaseEvent(done);
      }
      if (failed) {
        status = 1;
        continue;
      }
      // Items 0, count/2 and count-1 against a float64 loop.
      clEnqueueReadBuffer(q, dc, CL_TRUE, 0, c.size() * 4, c.data(), 0, nullptr, nullptr);
      double worst = 0;
      for (size_t item : {size_t(0), sh.count / 2, sh.count - 1})
        for (size_t i = 0; i < sh.m; ++i)
          for (size_t j = 0; j < sh.n; ++j) {
            double want = 0, mag = 0;
            for (size_t p = 0; p < sh.k; ++p) {
              const double t = double(a[item * sa + i * sh.k + p]) * double(b[item * sb + p * sh.n + j]);
              want += t, mag += std::fabs(t);
            }
            worst = std::max(worst, std::fabs(double(c[item * sc + i * sh.n + j]) - want) / (mag + 1e-30));
          }
      const bool ok = worst < 1e-5;
      status |= ok ? 0 : 1;
      const double dm = median(device_ms), hm = median(host_ms);
      std::printf("%-22s %-8s %12.4f %12.4f %10.1f  %s (%.1e)\n", argv[s], lib, dm, hm, flops / (dm * 1e6), ok ? "ok" : "WRONG",
                  worst);
    }
    clReleaseMemObject(da);
    clReleaseMemObject(db);
    clReleaseMemObject(dc);
  }
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
  return status;
}
