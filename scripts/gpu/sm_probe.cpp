// sm_probe.cpp — on how many SMs, and how many at once, does NVIDIA's OpenCL run a kernel's
// work-groups? Each work-group of 256 items records its SM (%smid), the SM count the hardware
// reports (%nsmid) and its start and end on the global timer, holding a static __local array of
// LOCAL_KIB KiB (default 195, so that one work-group fits an SM, as the dmma kernel's 128×128
// tiles in six stages) and spinning SPIN_US microseconds. Prints the distinct SMs used, the most
// work-groups running at one time, and the launch's device time, for 1..4 rounds of the SMs that
// CL_DEVICE_MAX_COMPUTE_UNITS reports.
//   g++ -O2 -std=c++17 -DCL_TARGET_OPENCL_VERSION=300 scripts/gpu/sm_probe.cpp -Iinclude -lOpenCL -o sm_probe
//   sm_probe [LOCAL_KIB [SPIN_US]]
#include "probe_device.hpp"

#include <algorithm>
#include <cstdio>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace {

const char* kSource = R"CLC(
__kernel __attribute__((reqd_work_group_size(256, 1, 1)))
void where(__global uint* sm, __global ulong* start, __global ulong* end, const ulong spin_ns) {
  __local double pad[LOCAL_DOUBLES];
  uint s, n;
  ulong a, b;
  __asm__ volatile("mov.u32 %0, %%smid;" : "=r"(s));
  __asm__ volatile("mov.u32 %0, %%nsmid;" : "=r"(n));
  __asm__ volatile("mov.u64 %0, %%globaltimer;" : "=l"(a));
  for (int i = get_local_id(0); i < LOCAL_DOUBLES; i += 256) pad[i] = (double)i;
  b = a;
  while (b - a < spin_ns) __asm__ volatile("mov.u64 %0, %%globaltimer;" : "=l"(b));
  barrier(CLK_LOCAL_MEM_FENCE);
  const size_t g = get_group_id(0);
  if (get_local_id(0) == 0) {
    sm[2 * g] = s;
    sm[2 * g + 1] = n + (pad[LOCAL_DOUBLES - 1] < 0.0 ? 1u : 0u);  // keeps the array
    start[g] = a;
    end[g] = b;
  }
}
)CLC";

#define CK(x)                                                        \
  do {                                                               \
    cl_int e_ = (x);                                                 \
    if (e_ != CL_SUCCESS) {                                          \
      std::fprintf(stderr, "%s: OpenCL error %d\n", #x, int(e_));    \
      std::exit(1);                                                  \
    }                                                                \
  } while (0)

}  // namespace

int main(int argc, char** argv) {
  const int local_kib = argc > 1 ? std::atoi(argv[1]) : 195;
  const int spin_us = argc > 2 ? std::atoi(argv[2]) : 50;
  cl_device_id dev = probe::pick_device();
  char name[256] = {};
  clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof name, name, nullptr);
  cl_uint units = 0;
  clGetDeviceInfo(dev, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units, nullptr);
  cl_int err = 0;
  cl_context ctx = clCreateContext(nullptr, 1, &dev, nullptr, nullptr, &err);
  CK(err);
  const cl_queue_properties kProps[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
  cl_command_queue q = clCreateCommandQueueWithProperties(ctx, dev, kProps, &err);
  CK(err);
  cl_program prog = clCreateProgramWithSource(ctx, 1, &kSource, nullptr, &err);
  CK(err);
  const std::string opts = "-DLOCAL_DOUBLES=" + std::to_string(local_kib * 1024 / 8);
  if (clBuildProgram(prog, 1, &dev, opts.c_str(), nullptr, nullptr) != CL_SUCCESS) {
    char log[8192] = {};
    clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, nullptr);
    std::fprintf(stderr, "build failed:\n%s\n", log);
    return 1;
  }
  cl_kernel k = clCreateKernel(prog, "where", &err);
  CK(err);
  std::printf("%s: %u compute units; %d KiB of static local memory per work-group, %d us each\n", name, units,
              local_kib, spin_us);
  for (int rounds = 1; rounds <= 4; ++rounds) {
    const size_t groups = size_t(units) * rounds;
    cl_mem sm = clCreateBuffer(ctx, CL_MEM_READ_WRITE, groups * 8, nullptr, &err);
    cl_mem t0 = clCreateBuffer(ctx, CL_MEM_READ_WRITE, groups * 8, nullptr, &err);
    cl_mem t1 = clCreateBuffer(ctx, CL_MEM_READ_WRITE, groups * 8, nullptr, &err);
    const cl_ulong spin = cl_ulong(spin_us) * 1000;
    CK(clSetKernelArg(k, 0, sizeof sm, &sm));
    CK(clSetKernelArg(k, 1, sizeof t0, &t0));
    CK(clSetKernelArg(k, 2, sizeof t1, &t1));
    CK(clSetKernelArg(k, 3, sizeof spin, &spin));
    const size_t global = groups * 256, local = 256;
    cl_event e;
    for (int warm = 0; warm < 2; ++warm) {
      CK(clEnqueueNDRangeKernel(q, k, 1, nullptr, &global, &local, 0, nullptr, &e));
      CK(clFinish(q));
    }
    std::vector<cl_uint> s(groups * 2);
    std::vector<cl_ulong> a(groups), b(groups);
    CK(clEnqueueReadBuffer(q, sm, CL_TRUE, 0, groups * 8, s.data(), 0, nullptr, nullptr));
    CK(clEnqueueReadBuffer(q, t0, CL_TRUE, 0, groups * 8, a.data(), 0, nullptr, nullptr));
    CK(clEnqueueReadBuffer(q, t1, CL_TRUE, 0, groups * 8, b.data(), 0, nullptr, nullptr));
    std::set<cl_uint> distinct;
    for (size_t g = 0; g < groups; ++g) distinct.insert(s[2 * g]);
    // The most work-groups between their start and end at one time.
    std::vector<std::pair<cl_ulong, int>> edges;
    for (size_t g = 0; g < groups; ++g) edges.push_back({a[g], 1}), edges.push_back({b[g], -1});
    std::sort(edges.begin(), edges.end());
    int now = 0, most = 0;
    for (const auto& x : edges) most = std::max(most, now += x.second);
    const double ms = (probe::profile(e, CL_PROFILING_COMMAND_END) - probe::profile(e, CL_PROFILING_COMMAND_START)) / 1e6;
    std::printf("%zu work-groups: %zu distinct SMs (%%nsmid %u, highest %%smid %u), at most %d at once, %.3f ms\n",
                groups, distinct.size(), s[1], *distinct.rbegin(), most, ms);
    clReleaseMemObject(sm), clReleaseMemObject(t0), clReleaseMemObject(t1);
  }
  return 0;
}
