// tma_probe.cpp — can an OpenCL kernel on an H100 use Hopper's tensor memory accelerator (TMA),
// mbarriers and thread-block clusters? Checks, each against the host's own copy of the data:
//   1. libcuda's cuTensorMapEncodeTiled (dlopen) builds a tensor map for an OpenCL buffer whose
//      device address a kernel reports;
//   2. cp.async.bulk.tensor into 64-byte-swizzled local memory, completing on an mbarrier, with
//      zeros past the tensor's edge;
//   3. a map encoded with a placeholder address and given the buffer's address on the device by
//      tensormap.replace (sm_90a, patched PTX);
//   4. a cluster of two work-groups (.reqnctapercluster patched in) and a multicast copy that
//      lands in both;
// and prints the device memory in use before and after the CUDA primary context is retained. On
// an H100 with driver 580, 1-3 pass, a context costs 524 MiB, and NVIDIA's OpenCL launches no
// clusters: with .reqnctapercluster every work-group is rank 0 of a cluster of its own (the
// multicast then waits for bytes that never come, and the launch fails), and with
// .explicitcluster the launch fails. $CLUSTER_DIRECTIVES replaces the directives tried.
//   g++ -O2 -std=c++17 -DCL_TARGET_OPENCL_VERSION=300 scripts/gpu/tma_probe.cpp -Iinclude -lOpenCL -ldl -o tma_probe
#include "probe_device.hpp"

#include <dlfcn.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

struct alignas(64) TensorMap {
  uint64_t words[16];
};
using EncodeTiled = int (*)(TensorMap*, int, uint32_t, void*, const uint64_t*, const uint64_t*, const uint32_t*,
                            const uint32_t*, int, int, int, int);

const char* kSource = R"CLC(
#define WAIT(bar, parity) { uint done = 0; while (!done) __asm__ volatile( \
  "{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }" \
  : "=r"(done) : "r"(bar), "r"(parity) : "memory"); }

__kernel void address_of(__global const ushort* p, __global ulong* out) { out[0] = (ulong)p; }

// One box of ROWS x 32 ushort at (x0, y0) of the map into swizzled local memory, then out.
__kernel __attribute__((reqd_work_group_size(128, 1, 1)))
void tma_box(__global const ulong* map, int x0, int y0, __global ushort* out, int acquire) {
  __local ushort tile[64 * 32] __attribute__((aligned(1024)));
  __local ulong bar;
  const uint t = get_local_id(0);
  const uint s = (uint)(size_t)tile, b = (uint)(size_t)&bar;
  if (t == 0) {
    __asm__ volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(b) : "memory");
    __asm__ volatile("fence.proxy.async.shared::cta;" ::: "memory");
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (t == 0) {
    if (acquire) __asm__ volatile("fence.proxy.tensormap::generic.acquire.gpu [%0], 128;" :: "l"(map) : "memory");
    __asm__ volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(b), "r"(64 * 32 * 2) : "memory");
    __asm__ volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
                     :: "r"(s), "l"(map), "r"(x0), "r"(y0), "r"(b) : "memory");
  }
  WAIT(b, 0);
  for (uint i = t; i < 64 * 32; i += 128) out[i] = tile[i];
}

// Writes the buffer's address into a copy of a map (sm_90a: the marker is patched).
__kernel void tma_fix(__global ulong* map, __global const ushort* p) {
  __asm__ volatile("// PATCH:replace %0 %1" :: "l"(map), "l"((ulong)p) : "memory");
  __asm__ volatile("fence.proxy.tensormap::generic.release.gpu;" ::: "memory");
}

// Where a work-group sits in its cluster, and nothing else.
__kernel __attribute__((reqd_work_group_size(128, 1, 1)))
void cluster_ids(__global uint* ids) {
  uint rank, cid, ncl;
  __asm__ volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
  __asm__ volatile("mov.u32 %0, %%clusterid.x;" : "=r"(cid));
  __asm__ volatile("mov.u32 %0, %%nclusterid.x;" : "=r"(ncl));
  __asm__ volatile("barrier.cluster.arrive.release.aligned; barrier.cluster.wait.acquire.aligned;" ::: "memory");
  const uint g = get_group_id(0);
  if (get_local_id(0) == 0) { ids[3 * g] = rank; ids[3 * g + 1] = cid; ids[3 * g + 2] = ncl; }
}

// Two work-groups per cluster: rank 0 multicasts one box to both.
__kernel __attribute__((reqd_work_group_size(128, 1, 1)))
void tma_cluster(__global const ulong* map, __global ushort* out, __global uint* ids) {
  __local ushort tile[64 * 32] __attribute__((aligned(1024)));
  __local ulong bar;
  const uint t = get_local_id(0);
  const uint s = (uint)(size_t)tile, b = (uint)(size_t)&bar;
  uint rank, cid, ncl;
  __asm__ volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
  __asm__ volatile("mov.u32 %0, %%clusterid.x;" : "=r"(cid));
  __asm__ volatile("mov.u32 %0, %%nclusterid.x;" : "=r"(ncl));
  if (t == 0) {
    __asm__ volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(b) : "memory");
    __asm__ volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __asm__ volatile("barrier.cluster.arrive.release.aligned; barrier.cluster.wait.acquire.aligned;" ::: "memory");
  if (t == 0) {
    __asm__ volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(b), "r"(64 * 32 * 2) : "memory");
    if (rank == 0)
      __asm__ volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster"
                       " [%0], [%1, {%2, %3}], [%4], %5;"
                       :: "r"(s), "l"(map), "r"(0), "r"((int)(cid * 64)), "r"(b), "h"((ushort)3) : "memory");
  }
  WAIT(b, 0);
  const uint g = get_group_id(0);
  for (uint i = t; i < 64 * 32; i += 128) out[g * 64 * 32 + i] = tile[i];
  if (t == 0) { ids[3 * g] = rank; ids[3 * g + 1] = cid; ids[3 * g + 2] = ncl; }
  __asm__ volatile("barrier.cluster.arrive.release.aligned; barrier.cluster.wait.acquire.aligned;" ::: "memory");
}
)CLC";

std::string replace_all(std::string s, const std::string& a, const std::string& b) {
  for (size_t p = 0; (p = s.find(a, p)) != std::string::npos; p += b.size()) s.replace(p, a.size(), b);
  return s;
}

// The PTX with `.target sm_90a`, the replace marker made an instruction, and tma_cluster given a
// required cluster of two.
std::string patch(std::string ptx) {
  const size_t t = ptx.find(".target sm_90");
  ptx.replace(t, ptx.find('\n', t) - t, ".target sm_90a");
  for (size_t at; (at = ptx.find("// PATCH:replace ")) != std::string::npos;) {
    const size_t end = ptx.find('\n', at);
    char a[64], b[64];
    std::sscanf(ptx.c_str() + at, "// PATCH:replace %63s %63s", a, b);
    ptx.replace(at, end - at, std::string("tensormap.replace.tile.global_address.global.b1024.b64 [") + a + "], " + b + ";");
  }
  const char* env = std::getenv("CLUSTER_DIRECTIVES");
  const std::string directives = env ? env : ".explicitcluster\n.reqnctapercluster 2, 1, 1\n";
  for (const char* entry_name : {".entry tma_cluster(", ".entry cluster_ids("}) {
    const size_t entry = ptx.find(entry_name);
    const size_t body = ptx.find('{', ptx.find(')', entry));
    ptx.insert(body, directives);
  }
  return ptx;
}

// Where element (r, c) of a box of 64-byte rows lies under the 64-byte swizzle, in ushorts.
size_t swizzled(size_t r, size_t c) { return r * 32 + (((c / 8) ^ ((r / 2) % 4)) * 8) + c % 8; }

int check(const char* what, const std::vector<uint16_t>& got, const std::vector<uint16_t>& src, long width, long height,
          long x0, long y0) {
  int bad = 0;
  for (long r = 0; r < 64; ++r)
    for (long c = 0; c < 32; ++c) {
      const long y = y0 + r, x = x0 + c;
      const uint16_t want = (y < height && x < width && y >= 0 && x >= 0) ? src[size_t(y * width + x)] : 0;
      if (got[swizzled(size_t(r), size_t(c))] != want && bad++ < 3)
        std::printf("  %s: (%ld,%ld) got %u want %u\n", what, r, c, got[swizzled(size_t(r), size_t(c))], want);
    }
  std::printf("%s: %s (%d wrong of 2048)\n", what, bad ? "FAIL" : "ok", bad);
  return bad ? 1 : 0;
}

}  // namespace

int main() {
  void* cuda = dlopen("libcuda.so.1", RTLD_NOW);
  if (!cuda) { std::printf("no libcuda: %s\n", dlerror()); return 1; }
  // What the CUDA primary context costs in device memory next to OpenCL's own context: the
  // memory in use with OpenCL's context alone, then with the CUDA context retained as well.
  cl_device_id first = probe::pick_device();
  cl_int status = 0;
  cl_context early = clCreateContext(nullptr, 1, &first, nullptr, nullptr, &status);
  cl_mem touch = clCreateBuffer(early, 0, 1 << 20, nullptr, &status);
  std::fflush(stdout);
  std::system("nvidia-smi --query-gpu=memory.used --format=csv,noheader | sed 's/^/memory in use, OpenCL context: /'");
  auto cu_init = reinterpret_cast<int (*)(unsigned)>(dlsym(cuda, "cuInit"));
  auto encode = reinterpret_cast<EncodeTiled>(dlsym(cuda, "cuTensorMapEncodeTiled"));
  std::printf("cuInit %p encode %p\n", (void*)cu_init, (void*)encode);
  if (!cu_init || !encode) return 1;
  std::printf("cuInit(0) = %d\n", cu_init(0));
  // The encoder wants a current CUDA context: device 0's primary one.
  auto device_get = reinterpret_cast<int (*)(int*, int)>(dlsym(cuda, "cuDeviceGet"));
  auto retain = reinterpret_cast<int (*)(void**, int)>(dlsym(cuda, "cuDevicePrimaryCtxRetain"));
  auto set_current = reinterpret_cast<int (*)(void*)>(dlsym(cuda, "cuCtxSetCurrent"));
  int cu_dev = -1;
  void* cu_ctx = nullptr;
  std::printf("cuDeviceGet %d", device_get(&cu_dev, 0));
  std::printf(", retain %d", retain(&cu_ctx, cu_dev));
  std::printf(", set current %d\n", set_current(cu_ctx));
  std::fflush(stdout);
  std::system("nvidia-smi --query-gpu=memory.used --format=csv,noheader | sed 's/^/memory in use, with the CUDA primary context: /'");
  clReleaseMemObject(touch);
  clReleaseContext(early);

  cl_device_id dev = probe::pick_device();
  char name[256] = {};
  clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof name, name, nullptr);
  std::printf("device: %s\n", name);
  cl_int err = 0;
  cl_context ctx = clCreateContext(nullptr, 1, &dev, nullptr, nullptr, &err);
  cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &err);
  cl_program prog = clCreateProgramWithSource(ctx, 1, &kSource, nullptr, &err);
  err = clBuildProgram(prog, 1, &dev, "", nullptr, nullptr);
  std::vector<char> log(1 << 16);
  clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, log.size(), log.data(), nullptr);
  std::printf("source build %d %.2000s\n", err, log.data());
  if (err) return 1;
  size_t size = 0;
  clGetProgramInfo(prog, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr);
  std::vector<char> bin(size + 1);
  char* bp = bin.data();
  clGetProgramInfo(prog, CL_PROGRAM_BINARIES, sizeof bp, &bp, nullptr);
  const std::string ptx = patch(std::string(bin.data()));
  const unsigned char* pp = reinterpret_cast<const unsigned char*>(ptx.c_str());
  const size_t plen = ptx.size() + 1;
  cl_int st = 0;
  cl_program patched = clCreateProgramWithBinary(ctx, 1, &dev, &plen, &pp, &st, &err);
  err = clBuildProgram(patched, 1, &dev, "", nullptr, nullptr);
  clGetProgramBuildInfo(patched, dev, CL_PROGRAM_BUILD_LOG, log.size(), log.data(), nullptr);
  std::printf("patched build %d %.2000s\n", err, log.data());
  if (err) {
    std::printf("%s\n", ptx.c_str());
    return 1;
  }

  // A 200 x 100 ushort tensor (rows of 100, a 200-byte stride padded to 208 for 16-byte rows).
  const long width = 100, height = 200, ld = 104;
  std::vector<uint16_t> host(size_t(height * ld)), dense(size_t(height * width));
  for (long y = 0; y < height; ++y)
    for (long x = 0; x < ld; ++x) host[size_t(y * ld + x)] = uint16_t(1 + (y * 131 + x * 7) % 60000);
  for (long y = 0; y < height; ++y)
    for (long x = 0; x < width; ++x) dense[size_t(y * width + x)] = host[size_t(y * ld + x)];
  cl_mem src = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, host.size() * 2, host.data(), &err);
  cl_mem addr = clCreateBuffer(ctx, 0, 8, nullptr, &err);
  cl_kernel ka = clCreateKernel(prog, "address_of", &err);
  clSetKernelArg(ka, 0, sizeof src, &src);
  clSetKernelArg(ka, 1, sizeof addr, &addr);
  size_t one = 1;
  clEnqueueNDRangeKernel(q, ka, 1, nullptr, &one, &one, 0, nullptr, nullptr);
  uint64_t va = 0;
  clEnqueueReadBuffer(q, addr, CL_TRUE, 0, 8, &va, 0, nullptr, nullptr);
  std::printf("device address %#llx\n", (unsigned long long)va);

  auto make = [&](uint64_t address, TensorMap* map) {
    const uint64_t dims[2] = {uint64_t(width), uint64_t(height)}, strides[1] = {uint64_t(ld * 2)};
    const uint32_t box[2] = {32, 64}, estr[2] = {1, 1};
    // UINT16, no interleave, 64-byte swizzle, 128-byte L2 promotion, zeros past the edge.
    return encode(map, 1, 2, reinterpret_cast<void*>(address), dims, strides, box, estr, 0, 2, 2, 0);
  };
  TensorMap real{}, fake{}, fake2{};
  std::printf("encode real %d, placeholder %d, second placeholder %d\n", make(va, &real), make(0x100000, &fake),
              make(0x200000, &fake2));
  for (int w = 0; w < 16; ++w)
    if (fake.words[w] != fake2.words[w] || real.words[w] != fake.words[w])
      std::printf("  word %d differs: real %#llx placeholder %#llx second %#llx\n", w, (unsigned long long)real.words[w],
                  (unsigned long long)fake.words[w], (unsigned long long)fake2.words[w]);

  int failures = 0;
  cl_mem maps = clCreateBuffer(ctx, 0, 128, nullptr, &err), fixed = clCreateBuffer(ctx, 0, 128, nullptr, &err);
  clEnqueueWriteBuffer(q, maps, CL_TRUE, 0, 128, &real, 0, nullptr, nullptr);
  clEnqueueWriteBuffer(q, fixed, CL_TRUE, 0, 128, &fake, 0, nullptr, nullptr);
  cl_mem out = clCreateBuffer(ctx, 0, 2 * 64 * 32 * 2, nullptr, &err);
  std::vector<uint16_t> got(2 * 64 * 32);
  cl_kernel kb = clCreateKernel(patched, "tma_box", &err);
  struct Case { const char* what; long x0, y0; size_t map_offset; int acquire; };
  cl_kernel kf = clCreateKernel(patched, "tma_fix", &err);
  clSetKernelArg(kf, 0, sizeof fixed, &fixed);
  clSetKernelArg(kf, 1, sizeof src, &src);
  for (const Case& c : {Case{"box inside", 32, 64, 0, 0}, Case{"box over the edge", 96, 160, 0, 0},
                        Case{"box at negative coordinates", -16, -8, 0, 0}, Case{"map fixed on the device", 64, 150, 1, 1}}) {
    cl_mem m = c.map_offset ? fixed : maps;
    if (c.map_offset) {
      err = clEnqueueNDRangeKernel(q, kf, 1, nullptr, &one, &one, 0, nullptr, nullptr);
      std::printf("fix launch %d\n", err);
    }
    int x0 = int(c.x0), y0 = int(c.y0);
    clSetKernelArg(kb, 0, sizeof m, &m);
    clSetKernelArg(kb, 1, sizeof x0, &x0);
    clSetKernelArg(kb, 2, sizeof y0, &y0);
    clSetKernelArg(kb, 3, sizeof out, &out);
    clSetKernelArg(kb, 4, sizeof c.acquire, &c.acquire);
    size_t g = 128;
    err = clEnqueueNDRangeKernel(q, kb, 1, nullptr, &g, &g, 0, nullptr, nullptr);
    cl_int fin = clFinish(q);
    std::printf("%s: launch %d finish %d\n", c.what, err, fin);
    clEnqueueReadBuffer(q, out, CL_TRUE, 0, 64 * 32 * 2, got.data(), 0, nullptr, nullptr);
    failures += check(c.what, got, dense, width, height, c.x0, c.y0);
  }

  if (failures) {
    // A failed kernel leaves the context unusable: the cluster test gets its own.
    ctx = clCreateContext(nullptr, 1, &dev, nullptr, nullptr, &err);
    q = clCreateCommandQueue(ctx, dev, 0, &err);
    patched = clCreateProgramWithBinary(ctx, 1, &dev, &plen, &pp, &st, &err);
    clBuildProgram(patched, 1, &dev, "", nullptr, nullptr);
    maps = clCreateBuffer(ctx, 0, 128, nullptr, &err);
    cl_mem src2 = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, host.size() * 2, host.data(), &err);
    cl_program prog2 = clCreateProgramWithSource(ctx, 1, &kSource, nullptr, &err);
    clBuildProgram(prog2, 1, &dev, "", nullptr, nullptr);
    cl_kernel ka2 = clCreateKernel(prog2, "address_of", &err);
    cl_mem addr2 = clCreateBuffer(ctx, 0, 8, nullptr, &err);
    clSetKernelArg(ka2, 0, sizeof src2, &src2);
    clSetKernelArg(ka2, 1, sizeof addr2, &addr2);
    clEnqueueNDRangeKernel(q, ka2, 1, nullptr, &one, &one, 0, nullptr, nullptr);
    clEnqueueReadBuffer(q, addr2, CL_TRUE, 0, 8, &va, 0, nullptr, nullptr);
    std::printf("second context: address %#llx, encode %d\n", (unsigned long long)va, make(va, &real));
    clEnqueueWriteBuffer(q, maps, CL_TRUE, 0, 128, &real, 0, nullptr, nullptr);
    out = clCreateBuffer(ctx, 0, 2 * 64 * 32 * 2, nullptr, &err);
  }
  cl_mem ids = clCreateBuffer(ctx, 0, 64, nullptr, &err);
  {
    cl_kernel ki = clCreateKernel(patched, "cluster_ids", &err);
    clSetKernelArg(ki, 0, sizeof ids, &ids);
    size_t g4 = 512, l4 = 128;
    err = clEnqueueNDRangeKernel(q, ki, 1, nullptr, &g4, &l4, 0, nullptr, nullptr);
    cl_int f = clFinish(q);
    uint32_t v[12] = {};
    clEnqueueReadBuffer(q, ids, CL_TRUE, 0, 48, v, 0, nullptr, nullptr);
    std::printf("cluster ids launch %d finish %d:", err, f);
    for (int i = 0; i < 4; ++i) std::printf(" [rank %u cluster %u of %u]", v[3 * i], v[3 * i + 1], v[3 * i + 2]);
    std::printf("\n");
    if (f) return 1;
  }
  cl_kernel kc = clCreateKernel(patched, "tma_cluster", &err);
  clSetKernelArg(kc, 0, sizeof maps, &maps);
  clSetKernelArg(kc, 1, sizeof out, &out);
  clSetKernelArg(kc, 2, sizeof ids, &ids);
  size_t g2 = 256, l2 = 128;
  err = clEnqueueNDRangeKernel(q, kc, 1, nullptr, &g2, &l2, 0, nullptr, nullptr);
  cl_int fin = clFinish(q);
  std::printf("cluster launch %d finish %d\n", err, fin);
  uint32_t idv[6] = {};
  clEnqueueReadBuffer(q, ids, CL_TRUE, 0, 24, idv, 0, nullptr, nullptr);
  clEnqueueReadBuffer(q, out, CL_TRUE, 0, got.size() * 2, got.data(), 0, nullptr, nullptr);
  std::printf("groups 0, 1: rank %u, %u; cluster id %u, %u; clusters %u, %u\n", idv[0], idv[3], idv[1], idv[4], idv[2], idv[5]);
  failures += idv[0] == 0 && idv[3] == 1 && idv[2] == 1 ? 0 : 1;
  for (int grp = 0; grp < 2; ++grp) {
    std::vector<uint16_t> part(got.begin() + grp * 2048, got.begin() + grp * 2048 + 2048);
    failures += check(grp ? "multicast, group 1" : "multicast, group 0", part, dense, width, height, 0, 0);
  }
  std::printf("%s\n", failures ? "FAILURES" : "all ok");
  return failures ? 1 : 0;
}
