// force_probe.cpp — times configurations of one path's kernel through the public API
// (GemmOptions::force_path and force_params) on strided batches of any shape and precision, and
// checks 64 sampled elements of the first and last item against float64, reporting the largest
// error relative to the sum of the element's products' magnitudes. For choosing a path's
// defaults where `clgemm bench` runs only the planner's choice. Built with
//   g++ -O2 -std=c++17 -DCL_TARGET_OPENCL_VERSION=300 -DCL_HPP_TARGET_OPENCL_VERSION=300
//     -DCL_HPP_MINIMUM_OPENCL_VERSION=110 -DCL_HPP_ENABLE_EXCEPTIONS scripts/gpu/force_probe.cpp -Iinclude
//     -Lbuild -lclgemm -lOpenCL -o force_probe
// and run as
//   force_probe TYPE PATH SHAPE...    TYPE: f16 | bf16 | tf32 | 3xtf32 | f64 | f32
//                                     PATH: auto | wgmma | tensor | wide
//                                     SHAPE: SIZE (a square) or COUNTxMxNxK (a strided batch)
// with $FORCE_CONFIGS the configurations, `;`-separated, each `NAME=VALUE,...` ("" or "auto" for the
// planner's own; SPLITS=S and SPLIT_TILES=T set GemmOptions::force_splits and force_split_tiles):
//   FORCE_CONFIGS="BM=64,BN=128,STAGES=4;BM=128,BN=256;SPLITS=1" force_probe f16 wgmma 256x256x256x256
// $CLGEMM_DEVICE picks the device (default: the first NVIDIA one). One line per shape and
// configuration: the median of 10 timed calls (device time from the first command's start to the
// last one's end) and of their last commands alone, TFLOP/s, the error and "ok" or "WRONG"; exits 1 on any
// wrong result. With $FORCE_TRACE=1, also each command's median time and the idle time before it.
#include <clgemm/context.hpp>
#include <clgemm/cpu.hpp>
#include <clgemm/gemm.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <sstream>
#include <string>
#include <vector>

using namespace clgemm;

namespace {

struct Shape {
  size_t count = 1, m = 0, n = 0, k = 0;
};

Shape parse_shape(const std::string& s) {
  Shape out;
  if (std::sscanf(s.c_str(), "%zux%zux%zux%zu", &out.count, &out.m, &out.n, &out.k) == 4) return out;
  out.count = 1, out.m = out.n = out.k = std::strtoul(s.c_str(), nullptr, 10);
  return out;
}

std::vector<KernelParams> parse_configs(const char* env) {
  std::vector<KernelParams> out;
  std::stringstream list(env && *env ? env : "auto");
  for (std::string item; std::getline(list, item, ';');) {
    KernelParams ps;
    std::stringstream pairs(item);
    for (std::string kv; std::getline(pairs, kv, ',');) {
      const size_t eq = kv.find('=');
      if (eq != std::string::npos) ps[kv.substr(0, eq)] = std::atol(kv.c_str() + eq + 1);
    }
    out.push_back(ps);
  }
  return out;
}

std::string text_of(const KernelParams& ps) {
  if (ps.empty()) return "auto";
  std::string s;
  for (const auto& [name, value] : ps) s += (s.empty() ? "" : ",") + name + "=" + std::to_string(value);
  return s;
}

struct Arithmetic {
  DataType in = DataType::F32, out = DataType::F32;
  Math math = Math::Fp32;
};

Arithmetic arithmetic_of(const std::string& t) {
  if (t == "f16") return {DataType::F16, DataType::F32, Math::Fp32};
  if (t == "bf16") return {DataType::BF16, DataType::F32, Math::Fp32};
  if (t == "f64") return {DataType::F64, DataType::F64, Math::Fp32};
  if (t == "tf32") return {DataType::F32, DataType::F32, Math::Tf32};
  if (t == "3xtf32") return {DataType::F32, DataType::F32, Math::Tf32x3};
  if (t == "f32") return {DataType::F32, DataType::F32, Math::Fp32};
  throw std::runtime_error("TYPE is f16, bf16, tf32, 3xtf32, f64 or f32, not " + t);
}

GemmPath path_of(const std::string& p) {
  if (p == "auto") return GemmPath::Auto;
  if (p == "wgmma") return GemmPath::Wgmma;
  if (p == "tensor") return GemmPath::Tensor;
  if (p == "wide") return GemmPath::Wide;
  throw std::runtime_error("PATH is auto, wgmma, tensor or wide, not " + p);
}

}  // namespace

int main(int argc, char** argv) try {
  if (argc < 4) {
    std::fprintf(stderr, "usage: force_probe f16|bf16|tf32|3xtf32|f64|f32 auto|wgmma|tensor|wide SHAPE...\n");
    return 2;
  }
  const Arithmetic ar = arithmetic_of(argv[1]);
  const GemmPath path = path_of(argv[2]);
  const std::vector<KernelParams> configs = parse_configs(std::getenv("FORCE_CONFIGS"));
  const char* want = std::getenv("CLGEMM_DEVICE");
  const DeviceInfo info = choose_device(want && *want ? want : "NVIDIA");
  Context ctx(info);
  std::printf("device: %s\n", info.name.c_str());
  int status = 0;
  for (int i = 3; i < argc; ++i) {
    const Shape s = parse_shape(argv[i]);
    const size_t as = s.m * s.k, bs = s.k * s.n, cs = s.m * s.n;
    std::mt19937_64 rng(1234 + i);
    std::uniform_real_distribution<double> dist(-1, 1);
    std::vector<double> a(as * s.count), b(bs * s.count);
    for (auto& x : a) x = dist(rng);
    for (auto& x : b) x = dist(rng);
    const auto a_bytes = cpu::to_storage(ar.in, a), b_bytes = cpu::to_storage(ar.in, b);
    // The reference reads the inputs as the device holds them (rounded to 16 bits where they are).
    a = cpu::from_storage(ar.in, a_bytes.data(), a.size()), b = cpu::from_storage(ar.in, b_bytes.data(), b.size());
    const size_t out_bytes = data_type_bytes(ar.out);
    cl::Buffer da(ctx.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, a_bytes.size(), (void*)a_bytes.data());
    cl::Buffer db(ctx.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, b_bytes.size(), (void*)b_bytes.data());
    cl::Buffer dc(ctx.context(), CL_MEM_READ_WRITE, cs * s.count * out_bytes);
    GemmCall call;
    call.m = s.m, call.n = s.n, call.k = s.k;
    call.a = {da(), 0, s.k}, call.b = {db(), 0, s.n}, call.c = {dc(), 0, s.n};
    call.a_type = call.b_type = ar.in, call.c_type = ar.out;
    for (const auto& ps : configs) {
      GemmOptions o;
      o.force_path = path;
      o.force_params = ps;
      // SPLITS and SPLIT_TILES are the split-K options, not kernel parameters.
      for (const auto& [name, field] : {std::pair<const char*, size_t*>{"SPLITS", &o.force_splits},
                                        std::pair<const char*, size_t*>{"SPLIT_TILES", &o.force_split_tiles}})
        if (o.force_params.count(name)) *field = size_t(o.force_params.at(name)), o.force_params.erase(name);
      o.math = ar.math;
      std::vector<double> ms;  // the call
      // Per command: its own time (the last is the GEMM kernel, after any packing), and the idle
      // time before it since the previous one ended.
      std::vector<std::vector<double>> own_ms, idle_ms;
      std::vector<unsigned char> c_bytes(cs * s.count * out_bytes);
      try {
        for (int rep = 0; rep < 12; ++rep) {
          std::vector<cl::Event> events;
          o.events = &events;
          gemm_strided_batched(call, as, bs, cs, s.count, ctx.queue()(), nullptr, o);
          ctx.queue().finish();
          if (rep == 0) ctx.queue().enqueueReadBuffer(dc, CL_TRUE, 0, c_bytes.size(), c_bytes.data());
          if (rep < 2) continue;
          const auto start = events.front().getProfilingInfo<CL_PROFILING_COMMAND_START>();
          const auto end = events.back().getProfilingInfo<CL_PROFILING_COMMAND_END>();
          ms.push_back((end - start) * 1e-6);
          own_ms.resize(events.size()), idle_ms.resize(events.size());
          for (size_t e = 0; e < events.size(); ++e) {
            const auto s0 = events[e].getProfilingInfo<CL_PROFILING_COMMAND_START>();
            own_ms[e].push_back((events[e].getProfilingInfo<CL_PROFILING_COMMAND_END>() - s0) * 1e-6);
            idle_ms[e].push_back(e ? (double(s0) - double(events[e - 1].getProfilingInfo<CL_PROFILING_COMMAND_END>())) * 1e-6 : 0);
          }
        }
      } catch (const std::exception& e) {
        std::printf("%s %s: %s\n", argv[i], text_of(ps).c_str(), e.what());
        continue;
      }
      // 64 sampled elements of the first and the last item against float64, each within the
      // tolerance of the sum of its products' magnitudes.
      const std::vector<double> c = cpu::from_storage(ar.out, c_bytes.data(), cs * s.count);
      const double tol = ar.math == Math::Tf32 ? cpu::gemm_tolerance(s.k, true) : cpu::gemm_tolerance(s.k, ar.in, ar.out);
      bool ok = true;
      double worst = 0;  // the largest sampled error, relative to the sum of the products' magnitudes
      for (const size_t item : {size_t(0), s.count - 1})
        for (int e = 0; e < 64; ++e) {
          const size_t r = rng() % s.m, col = rng() % s.n;
          double ref = 0, mag = 0;
          for (size_t q = 0; q < s.k; ++q) {
            const double t = a[item * as + r * s.k + q] * b[item * bs + q * s.n + col];
            ref += t, mag += std::fabs(t);
          }
          const double err = std::fabs(c[item * cs + r * s.n + col] - ref) / std::max(mag, 1e-30);
          if (!(err <= tol)) ok = false;
          worst = std::max(worst, err);
        }
      status |= ok ? 0 : 1;
      std::sort(ms.begin(), ms.end());
      for (auto& v : own_ms) std::sort(v.begin(), v.end());
      for (auto& v : idle_ms) std::sort(v.begin(), v.end());
      const std::vector<double>& last_ms = own_ms.back();
      const double med = ms[ms.size() / 2];
      std::printf("%s %s: %.4f ms (last command %.4f), %.1f TFLOP/s, error %.2e %s\n", argv[i], text_of(ps).c_str(),
                  med, last_ms[last_ms.size() / 2], 2.0 * s.count * s.m * s.n * s.k / med / 1e9, worst,
                  ok ? "ok" : "WRONG");
      if (const char* t = std::getenv("FORCE_TRACE"); t && *t == '1')
        for (size_t e = 0; e < own_ms.size(); ++e)
          std::printf("  command %zu: %.4f ms, after %.4f ms idle\n", e, own_ms[e][own_ms[e].size() / 2],
                      idle_ms[e][idle_ms[e].size() / 2]);
      std::fflush(stdout);
    }
  }
  return status;
} catch (const std::exception& e) {
  std::fprintf(stderr, "force_probe: %s\n", e.what());
  return 2;
}
