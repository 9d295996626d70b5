// dmma_probe.cpp — times configurations of the FP64 tensor-core kernel (gemm/dmma.cl) through the
// public API (GemmOptions::force_path = Tensor with force_params) on square f64 shapes; results are
// checked by clgemm bench and the precision sweep, not here. Built with
//   g++ -O2 -std=c++17 -DCL_TARGET_OPENCL_VERSION=300 -DCL_HPP_TARGET_OPENCL_VERSION=300 \
//     -DCL_HPP_MINIMUM_OPENCL_VERSION=110 -DCL_HPP_ENABLE_EXCEPTIONS scripts/gpu/dmma_probe.cpp -Iinclude \
//     -Lbuild -lclgemm -lOpenCL -o dmma_probe
// and run as `dmma_probe SIZE...` with $DMMA_CONFIGS: BMxBNxBKxWMxWNxSTAGESxMMA_K,... (default: a list).
#include <clgemm/gemm.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

using namespace clgemm;

int main(int argc, char** argv) {
  std::vector<size_t> sizes;
  for (int i = 1; i < argc; ++i) sizes.push_back(std::strtoul(argv[i], nullptr, 10));
  const char* env = std::getenv("DMMA_CONFIGS");
  std::stringstream list(env && *env ? env : "64x64x8x32x32x2x4,64x64x8x32x32x2x8,64x64x16x32x32x2x8,128x128x8x64x32x2x8,"
                                                 "128x128x8x32x64x2x8,128x64x8x32x32x3x8,64x128x8x32x32x3x8,64x64x8x32x32x3x8");
  std::vector<KernelParams> configs;
  for (std::string item; std::getline(list, item, ',');) {
    long v[7];
    if (std::sscanf(item.c_str(), "%ldx%ldx%ldx%ldx%ldx%ldx%ld", v, v + 1, v + 2, v + 3, v + 4, v + 5, v + 6) == 7)
      configs.push_back({{"BM", v[0]}, {"BN", v[1]}, {"BK", v[2]}, {"WM", v[3]}, {"WN", v[4]}, {"STAGES", v[5]},
                         {"MMA_K", v[6]}});
  }
  const DeviceInfo info = choose_device("NVIDIA");
  Context ctx(info);
  std::printf("device: %s\n", info.name.c_str());
  for (const size_t n : sizes) {
    std::vector<double> host(n * n, 0.5);
    cl::Buffer a(ctx.context(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * n * 8, host.data());
    cl::Buffer b(ctx.context(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * n * 8, host.data());
    cl::Buffer c(ctx.context(), CL_MEM_READ_WRITE, n * n * 8);
    GemmCall call;
    call.m = call.n = call.k = n;
    call.a = {a(), 0, n}, call.b = {b(), 0, n}, call.c = {c(), 0, n};
    call.a_type = call.b_type = call.c_type = DataType::F64;
    for (const auto& ps : configs) {
      GemmOptions o;
      o.force_path = GemmPath::Tensor;
      o.force_params = ps;
      std::vector<double> ms;
      try {
        for (int rep = 0; rep < 12; ++rep) {
          std::vector<cl::Event> events;
          o.events = &events;
          gemm(call, ctx.queue()(), nullptr, o);
          ctx.queue().finish();
          if (rep < 2) continue;
          const auto start = events.front().getProfilingInfo<CL_PROFILING_COMMAND_START>();
          const auto end = events.back().getProfilingInfo<CL_PROFILING_COMMAND_END>();
          ms.push_back((end - start) * 1e-6);
        }
      } catch (const std::exception& e) {
        std::printf("%zu^3 %s: %s\n", n, std::to_string(ps.at("BM")).c_str(), e.what());
        continue;
      }
      std::sort(ms.begin(), ms.end());
      const double med = ms[ms.size() / 2];
      std::printf("%zu^3 BM %ld BN %ld BK %ld WM %ld WN %ld STAGES %ld MMA_K %ld: %.3f ms, %.1f TFLOP/s\n", n,
                  ps.at("BM"), ps.at("BN"), ps.at("BK"), ps.at("WM"), ps.at("WN"), ps.at("STAGES"), ps.at("MMA_K"), med,
                  2.0 * n * n * n / med / 1e9);
      std::fflush(stdout);
    }
  }
  return 0;
}
