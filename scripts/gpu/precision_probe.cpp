// precision_probe.cpp — times GEMM in each precision through clgemm's C API (Sgemm, Dgemm, Hgemm,
// GemmEx for bf16 and the mixed types) and CLBlast's (Sgemm, Dgemm, Hgemm) on one queue and the
// same inputs, and checks sampled elements of each result against float64. It uses the C APIs
// (and clgemm::cpu's 16-bit roundings), so one source measures any build of libclgemm that has
// them. Built with
//   g++ -O2 -std=c++17 scripts/gpu/precision_probe.cpp -Iinclude -Lbuild -lclgemm -lclblast -lOpenCL -o precision_probe
// and run as
//   precision_probe MxNxK [MxNxK ...]
// with $CLGEMM_DEVICE naming the device (index or part of its name; default: the first GPU) and
// $PROBE_ONLY a comma-separated list of variants to run (default: all). Per shape and variant: the
// median over 10 calls (after 3 warm-up calls) of the device time from a marker enqueued just
// before the call to the end of the event it returns.
#include <clgemm/clgemm.h>
#include <clgemm/cpu.hpp>

#include <clblast_c.h>

#include "probe_device.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

namespace {

enum Type { F32, F64, F16, BF16 };
size_t bytes_of(Type t) { return t == F64 ? 8 : t == F32 ? 4 : 2; }

// A host matrix in a storage type, with its values as doubles for the reference.
struct Host {
  Type type;
  std::vector<unsigned char> bytes;
  std::vector<double> values;
  Host(Type t, size_t count, unsigned seed) : type(t), bytes(count * bytes_of(t)), values(count) {
    unsigned x = seed;
    for (size_t i = 0; i < count; ++i) {
      x = x * 1664525u + 1013904223u;
      const float v = float(x >> 8) / 8388608.0f - 1.0f;
      switch (t) {
        case F64: { const double d = v; std::memcpy(&bytes[8 * i], &d, 8); values[i] = d; break; }
        case F32: std::memcpy(&bytes[4 * i], &v, 4); values[i] = v; break;
        case F16: {
          const uint16_t h = clgemm::cpu::float_to_half(v);
          std::memcpy(&bytes[2 * i], &h, 2);
          values[i] = clgemm::cpu::half_to_float(h);
          break;
        }
        case BF16: {
          const uint16_t b = clgemm::cpu::float_to_bf16(v);
          std::memcpy(&bytes[2 * i], &b, 2);
          values[i] = clgemm::cpu::bf16_to_float(b);
          break;
        }
      }
    }
  }
};

double read_value(Type t, const unsigned char* p) {
  switch (t) {
    case F64: { double d; std::memcpy(&d, p, 8); return d; }
    case F32: { float f; std::memcpy(&f, p, 4); return f; }
    case F16: { uint16_t h; std::memcpy(&h, p, 2); return clgemm::cpu::half_to_float(h); }
    default: { uint16_t b; std::memcpy(&b, p, 2); return clgemm::cpu::bf16_to_float(b); }
  }
}

struct Variant {
  const char* name;
  Type in, out;
  bool clblast;
};

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: precision_probe MxNxK [MxNxK ...]\n");
    return 2;
  }
  const Variant variants[] = {{"clgemm-f32", F32, F32, false},     {"clgemm-f64", F64, F64, false},
                              {"clgemm-f16", F16, F16, false},     {"clgemm-f16-f32", F16, F32, false},
                              {"clgemm-bf16", BF16, BF16, false},  {"clgemm-bf16-f32", BF16, F32, false},
                              {"clblast-f32", F32, F32, true},     {"clblast-f64", F64, F64, true},
                              {"clblast-f16", F16, F16, true}};
  const std::string only = std::getenv("PROBE_ONLY") ? std::getenv("PROBE_ONLY") : "";
  cl_device_id device = probe::pick_device();
  char name[256] = {};
  clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof name, name, nullptr);
  cl_int err = 0;
  cl_context ctx = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
  const cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
  cl_command_queue q = clCreateCommandQueueWithProperties(ctx, device, props, &err);
  std::printf("device: %s\n%-18s %-16s %12s %10s  %s\n", name, "shape", "variant", "device ms", "GFLOP/s", "check");
  int status = 0;
  for (int s = 1; s < argc; ++s) {
    size_t m = 0, n = 0, k = 0;
    if (std::sscanf(argv[s], "%zux%zux%zu", &m, &n, &k) != 3) {
      std::fprintf(stderr, "not MxNxK: %s\n", argv[s]);
      return 2;
    }
    for (const Variant& v : variants) {
      if (!only.empty() && ("," + only + ",").find(std::string(",") + v.name + ",") == std::string::npos) continue;
      const Host a(v.in, m * k, 7), b(v.in, k * n, 11);
      cl_mem da = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, a.bytes.size(), (void*)a.bytes.data(), &err);
      cl_mem db = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, b.bytes.size(), (void*)b.bytes.data(), &err);
      cl_mem dc = clCreateBuffer(ctx, CL_MEM_READ_WRITE, m * n * bytes_of(v.out), nullptr, &err);
      const clgemmDataType types[] = {clgemmTypeF32, clgemmTypeF64, clgemmTypeF16, clgemmTypeBF16};
      std::function<int(cl_event*)> call = [&](cl_event* ev) -> int {
        const auto L = clgemmLayoutRowMajor;
        const auto N = clgemmTransposeNo;
        if (v.clblast) {
          if (v.in == F32)
            return CLBlastSgemm(CLBlastLayoutRowMajor, CLBlastTransposeNo, CLBlastTransposeNo, m, n, k, 1.0f, da, 0, k,
                                db, 0, n, 0.0f, dc, 0, n, &q, ev);
          if (v.in == F64)
            return CLBlastDgemm(CLBlastLayoutRowMajor, CLBlastTransposeNo, CLBlastTransposeNo, m, n, k, 1.0, da, 0, k,
                                db, 0, n, 0.0, dc, 0, n, &q, ev);
          return CLBlastHgemm(CLBlastLayoutRowMajor, CLBlastTransposeNo, CLBlastTransposeNo, m, n, k, 0x3c00, da, 0, k,
                              db, 0, n, 0, dc, 0, n, &q, ev);
        }
        if (v.in == F32 && v.out == F32) return clgemmSgemm(L, N, N, m, n, k, 1.0f, da, 0, k, db, 0, n, 0.0f, dc, 0, n, &q, ev);
        if (v.in == F64) return clgemmDgemm(L, N, N, m, n, k, 1.0, da, 0, k, db, 0, n, 0.0, dc, 0, n, &q, ev);
        if (v.in == F16 && v.out == F16)
          return clgemmHgemm(L, N, N, m, n, k, 0x3c00, da, 0, k, db, 0, n, 0, dc, 0, n, &q, ev);
        return clgemmGemmEx(L, N, N, m, n, k, 1.0, da, types[v.in], 0, k, db, types[v.in], 0, n, 0.0, dc, types[v.out],
                            0, n, clgemmComputeAuto, &q, ev);
      };
      std::vector<double> device_ms;
      bool failed = false;
      for (int r = 0; r < 13 && !failed; ++r) {
        cl_event marker = nullptr, done = nullptr;
        clEnqueueMarkerWithWaitList(q, 0, nullptr, &marker);
        const int rc = call(&done);
        clFinish(q);
        if (rc != 0) {
          std::printf("%-18s %-16s failed with status %d %s\n", argv[s], v.name, rc,
                      v.clblast ? "" : clgemmLastErrorMessage());
          failed = true;
        } else if (r >= 3) {
          device_ms.push_back(double(probe::profile(done, CL_PROFILING_COMMAND_END) - probe::profile(marker, CL_PROFILING_COMMAND_START)) * 1e-6);
        }
        if (marker) clReleaseEvent(marker);
        if (done) clReleaseEvent(done);
      }
      if (!failed) {
        std::vector<unsigned char> c(m * n * bytes_of(v.out));
        clEnqueueReadBuffer(q, dc, CL_TRUE, 0, c.size(), c.data(), 0, nullptr, nullptr);
        // 256 sampled elements against float64, relative to the sum of |products|.
        const double u = (v.in == F64 ? 0x1p-53 : 0x1p-24) * double(k) + (v.out == F16 ? 0x1p-11 : v.out == BF16 ? 0x1p-8 : 0);
        double worst = 0;
        unsigned x = 3;
        for (int t = 0; t < 256; ++t) {
          x = x * 1664525u + 1013904223u;
          const size_t i = (x >> 4) % m, j = (x >> 12) % n;
          double want = 0, mag = 0;
          for (size_t p = 0; p < k; ++p) {
            const double prod = a.values[i * k + p] * b.values[p * n + j];
            want += prod, mag += std::fabs(prod);
          }
          worst = std::max(worst, std::fabs(read_value(v.out, &c[(i * n + j) * bytes_of(v.out)]) - want) / (mag + 1e-300));
        }
        const bool ok = worst <= 4 * u;
        status |= ok ? 0 : 1;
        std::sort(device_ms.begin(), device_ms.end());
        const double ms = device_ms[device_ms.size() / 2];
        std::printf("%-18s %-16s %12.4f %10.1f  %s (%.1e)\n", argv[s], v.name, ms, 2.0 * m * n * k / (ms * 1e6),
                    ok ? "ok" : "WRONG", worst);
      } else {
        status = 1;
      }
      std::fflush(stdout);
      clReleaseMemObject(da);
      clReleaseMemObject(db);
      clReleaseMemObject(dc);
    }
  }
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
  return status;
}
