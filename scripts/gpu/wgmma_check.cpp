// wgmma_check.cpp — the wgmma kernel (src/kernels/gemm/wgmma/wgmma.cl) on its own: each configuration
// built through Context::patched_kernel, checked against float64 at odd shapes with guard zones
// around C, then timed at square sizes. Built against this build's library (internal headers):
//   g++ -O2 -std=c++17 -DCL_TARGET_OPENCL_VERSION=300 -DCL_HPP_TARGET_OPENCL_VERSION=300 \
//     -DCL_HPP_MINIMUM_OPENCL_VERSION=110 -DCL_HPP_ENABLE_EXCEPTIONS scripts/gpu/wgmma_check.cpp -Iinclude -Isrc \
//     -Lbuild -lclgemm -lOpenCL -o wgmma_check
// Run as `wgmma_check [SIZE ...]` on an sm_90 device ($CLGEMM_DEVICE picks it, else the first
// NVIDIA GPU). $WGMMA_CONFIGS: BMxBNxBKxWMxSTAGESxINFLIGHTxMINGROUPS[xTMA],... (default: a built-in
// list; TMA 1 copies by the tensor memory accelerator, on maps the library encodes through libcuda).
// Prints one line per configuration and shape; exits 1 on any wrong result. For experiments:
// $WGMMA_K times products of that depth, $WGMMA_GROUP_M sets GROUP_M, $WGMMA_EXTRA adds build
// options, $WGMMA_EMPTY_MMA=1 patches the wgmma away (the loads alone; results are then wrong, and
// $WGMMA_TIME_ALL=1 times them anyway); $WGMMA_DUMP_PTX=FILE writes the unpatched PTX of
// $WGMMA_DUMP_OPTIONS (else a fixed configuration), and $WGMMA_DUMP_ONLY=1 stops there.
#include <clgemm/context.hpp>
#include <clgemm/cpu.hpp>
#include <clgemm/warnings.hpp>

#include "kernels/gemm/wgmma/wgmma_kernel.hpp"
#include "kernels/precision.hpp"
#include "plan/wgmma_launch.hpp"
#include "runtime/tensor_maps.hpp"

#include <algorithm>
#include <optional>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <random>
#include <sstream>
#include <string>
#include <vector>

using namespace clgemm;

namespace {

struct Config {
  long bm, bn, bk, wm, stages, inflight, min_groups, tma;
  long threads() const { return bm / wm * 128; }
};

std::vector<Config> configs() {
  std::vector<Config> out;
  const char* env = std::getenv("WGMMA_CONFIGS");
  std::string spec = env && *env ? env : "128x128x32x64x3x0x0,128x128x32x64x3x1x0,128x128x32x128x3x0x0,128x128x32x128x3x0x3,128x128x32x128x3x1x3,"
                           "128x64x32x128x4x0x0,128x64x32x128x4x1x4,128x64x64x128x2x0x0,64x128x32x64x4x0x0,"
                           "256x128x32x128x2x0x0,64x128x32x64x4x1x0";
  std::stringstream ss(spec);
  for (std::string item; std::getline(ss, item, ',');) {
    Config c{};
    if (std::sscanf(item.c_str(), "%ldx%ldx%ldx%ldx%ldx%ldx%ldx%ld", &c.bm, &c.bn, &c.bk, &c.wm, &c.stages, &c.inflight,
                    &c.min_groups, &c.tma) >= 7)
      out.push_back(c);
  }
  return out;
}

std::string name_of(const Config& c) {
  return std::to_string(c.bm) + "x" + std::to_string(c.bn) + "x" + std::to_string(c.bk) + " wm " + std::to_string(c.wm) + " stages " +
         std::to_string(c.stages) + " inflight " + std::to_string(c.inflight) + " min groups " + std::to_string(c.min_groups) +
         (c.tma ? " tma " + std::to_string(c.tma) : std::string());
}

// $WGMMA_B_MN=1: B is read as K×N rows, N-major (B_MN). Only for timing: the check's reference
// takes B as N×K, so these configurations report wrong results.
bool b_mn() { return std::getenv("WGMMA_B_MN") && std::string(std::getenv("WGMMA_B_MN")) == "1"; }

KernelParams params_of(const Config& c) {
  return {{"BM", c.bm}, {"BN", c.bn}, {"BK", c.bk}, {"WM", c.wm}, {"STAGES", c.stages}, {"INFLIGHT", c.inflight},
          {"GROUP_M", std::getenv("WGMMA_GROUP_M") ? std::atol(std::getenv("WGMMA_GROUP_M")) : 8}, {"B_MN", b_mn()}};
}

std::string options_of(const Config& c, DataType in, DataType out) {
  KernelParams ps = params_of(c);
  if (in == DataType::F32) ps["BK"] /= 2;
  const char* extra = std::getenv("WGMMA_EXTRA");
 return detail::build_options(ps) + (c.tma ? " -DTMA=" + std::to_string(c.tma) : std::string()) + " -DPRECISION=32" + detail::storage_options(in, out) + (extra ? std::string(" ") + extra : "");
}

size_t bytes_of(DataType t) { return t == DataType::F32 ? 4 : 2; }

// Values exact in the input type, so that the float64 reference multiplies what the kernel does.
double representable(DataType t, double v) {
  if (t == DataType::F16) return cpu::half_to_float(cpu::float_to_half(float(v)));
  if (t == DataType::BF16) return cpu::bf16_to_float(cpu::float_to_bf16(float(v)));
  return double(float(v));
}

struct Run {
  bool ok = true;
  double worst = 0, ms = 0;
};

// Tensor maps for the TMA configurations, encoded as the library encodes them (runtime/tensor_maps,
// plan/wgmma_launch): with a placeholder address, which the kernel replaces with the operand's.
// The tool sets CLGEMM_TENSOR_MAPS=1, so that the library creates the CUDA context it needs.
// Operands here are single n×n items: A as M×K rows of lda, B as N×K rows of ldb (K×N with B_MN).
std::vector<uint64_t> tensor_maps(const Context& ctx, const Config& cfg, DataType in, size_t lda, size_t m, size_t ldb,
                                  size_t n, size_t k) {
  using detail::OperandLayout;
  const KernelParams ps = params_of(cfg);
  const auto a = detail::encode_tensor_map(ctx.info(), detail::wgmma_kmajor_map(OperandLayout{m, k, lda, 0}, 1,
                                                                                 size_t(cfg.bm), ps, in));
  const auto b = detail::encode_tensor_map(
      ctx.info(), b_mn() ? detail::wgmma_nmajor_map(OperandLayout{k, n, ldb, 0}, 1, ps, in)
                         : detail::wgmma_kmajor_map(OperandLayout{n, k, ldb, 0}, 1, size_t(cfg.bn), ps, in));
  if (!a || !b) throw std::runtime_error("libcuda did not encode the tensor maps");
  std::vector<uint64_t> words(a->begin(), a->end());
  words.insert(words.end(), b->begin(), b->end());
  return words;
}

void set_args(Context& ctx, cl::Kernel& k, const Config& cfg, DataType in, size_t M, size_t N, size_t K, double alpha,
              double beta, const cl::Buffer& da, size_t lda, const cl::Buffer& db, size_t ldb, const cl::Buffer& dc,
              size_t c_off, size_t ldc) {
  if (cfg.tma) {
    static std::vector<cl::Buffer> keep;  // the work-groups' copies outlive the launches
    const auto words = tensor_maps(ctx, cfg, in, lda, M, ldb, N, K);
    k.setArg(20, 16 * sizeof(uint64_t), words.data());
    k.setArg(21, 16 * sizeof(uint64_t), words.data() + 16);
    keep.push_back(ctx.buffer(256 * std::max<size_t>(1, ((M + cfg.bm - 1) / cfg.bm) * ((N + cfg.bn - 1) / cfg.bn))));
    k.setArg(22, keep.back());
  }
  const size_t tiles_n = (N + cfg.bn - 1) / cfg.bn;
  int i = 0;
  k.setArg(i++, cl_int(M)); k.setArg(i++, cl_int(N)); k.setArg(i++, cl_int(K));
  k.setArg(i++, cl_float(alpha)); k.setArg(i++, cl_float(beta));
  k.setArg(i++, da); k.setArg(i++, cl_ulong(0)); k.setArg(i++, cl_int(lda)); k.setArg(i++, cl_ulong(0));
  k.setArg(i++, db); k.setArg(i++, cl_ulong(0)); k.setArg(i++, cl_int(ldb)); k.setArg(i++, cl_ulong(0));
  k.setArg(i++, dc); k.setArg(i++, cl_ulong(c_off)); k.setArg(i++, cl_int(ldc)); k.setArg(i++, cl_ulong(0));
  k.setArg(i++, cl_int(tiles_n)); k.setArg(i++, sizeof(cl_mem), nullptr); k.setArg(i++, sizeof(cl_mem), nullptr);
}

cl::NDRange global_of(const Config& cfg, size_t M, size_t N) {
  const size_t tiles = ((M + cfg.bm - 1) / cfg.bm) * ((N + cfg.bn - 1) / cfg.bn);
  return cl::NDRange(std::max<size_t>(tiles, 1) * cfg.threads());
}

// One product M×N×K: A (M×K, lda), B as N×K (ldb), C (M×N, ldc) with `guard` elements of sentinel
// around it, against float64.
Run run(Context& ctx, cl::Kernel& k, const Config& cfg, DataType in, DataType out, size_t M, size_t N, size_t K,
        double alpha, double beta) {
  Run r;
  const size_t lda = (K + 7) / 8 * 8 + 8, ldb = lda, ldc = N + 3, guard = 64;
  std::mt19937_64 rng(M * 131 + N * 7 + K);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<double> a(M * lda, 0), b(N * ldb, 0), c((M ? M : 1) * ldc + 2 * guard, 0);
  for (size_t i = 0; i < M; ++i)
    for (size_t j = 0; j < K; ++j) a[i * lda + j] = representable(in, u(rng));
  for (size_t i = 0; i < N; ++i)
    for (size_t j = 0; j < K; ++j) b[i * ldb + j] = representable(in, u(rng));
  const double sentinel = representable(out, 12345.0);  // survives the trip through C's type
  for (auto& v : c) v = sentinel;
  for (size_t i = 0; i < M; ++i)
    for (size_t j = 0; j < N; ++j) c[guard + i * ldc + j] = beta == 0 ? NAN : representable(out, u(rng));
  const auto sa = cpu::to_storage(in, a), sb = cpu::to_storage(in, b), sc = cpu::to_storage(out, c);
  cl::Buffer da = ctx.buffer(sa.size()), db = ctx.buffer(sb.size()), dc = ctx.buffer(sc.size());
  const auto& q = ctx.queue();
  q.enqueueWriteBuffer(da, CL_TRUE, 0, sa.size(), sa.data());
  q.enqueueWriteBuffer(db, CL_TRUE, 0, sb.size(), sb.data());
  q.enqueueWriteBuffer(dc, CL_TRUE, 0, sc.size(), sc.data());
  set_args(ctx, k, cfg, in, M, N, K, alpha, beta, da, lda, db, ldb, dc, guard, ldc);
  q.enqueueNDRangeKernel(k, cl::NullRange, global_of(cfg, M, N), cl::NDRange(cfg.threads()));
  std::vector<unsigned char> back(sc.size());
  q.enqueueReadBuffer(dc, CL_TRUE, 0, back.size(), back.data());
  const std::vector<double> got = cpu::from_storage(out, back.data(), c.size());
  // Inputs read as TF32 lose up to 2^-10 of themselves (truncation); 16-bit inputs multiply
  // exactly and sum in float32.
  const double unit = in == DataType::F32 ? std::ldexp(1.0, -9) : 4 * K * std::ldexp(1.0, -24);
  const double out_unit = out == DataType::F16 ? std::ldexp(1.0, -10) : out == DataType::BF16 ? std::ldexp(1.0, -7) : 0;
  for (size_t e = 0; e < c.size(); ++e) {
    const bool inside = e >= guard && (e - guard) / ldc < M && (e - guard) % ldc < N;
    if (!inside) {
      if (got[e] != sentinel) {
        if (r.ok) std::printf("    stray write at element %zu: %g\n", e, got[e]);
        r.ok = false;
      }
      continue;
    }
    const size_t row = (e - guard) / ldc, col = (e - guard) % ldc;
    double ref = 0, mag = 0;
    for (size_t j = 0; j < K; ++j) {
      ref += a[row * lda + j] * b[col * ldb + j];
      mag += std::fabs(a[row * lda + j] * b[col * ldb + j]);
    }
    const double want = alpha * ref + (beta == 0 ? 0 : beta * c[e]);
    const double scale = std::fabs(alpha) * mag + std::fabs(beta * (beta == 0 ? 0 : c[e]));
    const double err = std::fabs(got[e] - want), tol = unit * scale + out_unit * std::fabs(want) + 1e-30;
    if (!(err <= tol)) {
      if (r.ok) std::printf("    (%zu,%zu): got %.8g want %.8g (tolerance %.3g)\n", row, col, got[e], want, tol);
      r.ok = false;
    }
    if (scale > 0) r.worst = std::max(r.worst, err / scale);
  }
  return r;
}

// The median of `reps` launches on n³ operands already on the device, in milliseconds.
// $WGMMA_K: the K of the timed products (at most their side), else their side.
size_t depth_of(size_t n) {
  const char* env = std::getenv("WGMMA_K");
  return env && *env ? std::min<size_t>(n, std::strtoul(env, nullptr, 10)) : n;
}

double time_square(Context& ctx, cl::Kernel& k, const Config& cfg, DataType in, size_t n, const cl::Buffer& a, const cl::Buffer& b,
                   const cl::Buffer& c, int reps) {
  set_args(ctx, k, cfg, in, n, n, depth_of(n), 1.0, 0.0, a, n, b, n, c, 0, n);
  std::vector<double> times;
  for (int rep = 0; rep < reps + 2; ++rep) {
    cl::Event ev;
    ctx.queue().enqueueNDRangeKernel(k, cl::NullRange, global_of(cfg, n, n), cl::NDRange(cfg.threads()), nullptr, &ev);
    ev.wait();
    if (rep >= 2)
      times.push_back((ev.getProfilingInfo<CL_PROFILING_COMMAND_END>() - ev.getProfilingInfo<CL_PROFILING_COMMAND_START>()) * 1e-6);
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

// n×n random inputs of `type`'s size on the device (16-bit values of magnitude below 1, or floats).
cl::Buffer random_operand(Context& ctx, DataType type, size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-1, 1);
  const size_t count = n * n;
  cl::Buffer buf = ctx.buffer(count * bytes_of(type));
  if (type == DataType::F32) {
    std::vector<float> v(count);
    for (auto& x : v) x = u(rng);
    ctx.queue().enqueueWriteBuffer(buf, CL_TRUE, 0, count * 4, v.data());
  } else {
    std::vector<uint16_t> v(count);
    for (auto& x : v) x = type == DataType::F16 ? cpu::float_to_half(u(rng)) : cpu::float_to_bf16(u(rng));
    ctx.queue().enqueueWriteBuffer(buf, CL_TRUE, 0, count * 2, v.data());
  }
  return buf;
}

// Whether the driver launches a work-group with more than 48 KiB of dynamic local memory.
void local_memory_probe(Context& ctx) {
  cl::Program prog(ctx.context(),
                   "__kernel void dyn(__local uint* s, __global uint* o, uint n) {\n"
                   "  for (uint i = get_local_id(0); i < n; i += get_local_size(0)) s[i] = i;\n"
                   "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                   "  o[get_global_id(0)] = s[(get_local_id(0) * 977) % n];\n}\n");
  prog.build({ctx.device()});
  cl::Kernel k(prog, "dyn");
  cl::Buffer o = ctx.buffer(128 * 4 * 132);
  for (const size_t kib : {32, 48, 64, 100, 160, 227}) {
    const size_t bytes = kib * 1024;
    cl_int err = CL_SUCCESS;
    try {
      k.setArg(0, cl::Local(bytes));
      k.setArg(1, o);
      k.setArg(2, cl_uint(bytes / 4));
      ctx.queue().enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(128 * 132), cl::NDRange(128));
      ctx.queue().finish();
    } catch (const cl::Error& e) {
      err = e.err();
    }
    std::printf("dynamic local memory %zu KiB: %s (%d)\n", kib, err == CL_SUCCESS ? "runs" : "refused", err);
  }
}

// The PTX that NVIDIA's compiler makes of the kernel for `options`, unpatched, written to `path`:
// the recorded PTX that tests/wgmma_rules_test.cpp patches on machines without the GPU.
void dump_ptx(Context& ctx, const std::string& options, const std::string& path) {
  std::string text;
  for (const auto& file : detail::wgmma_descriptor().program_sources()) {
    std::ifstream in("src/kernels/" + file);
    text += std::string(std::istreambuf_iterator<char>(in), {}) + "\n";
  }
  cl::Program prog(ctx.context(), text);
  prog.build({ctx.device()}, options.c_str());
  const auto binaries = prog.getInfo<CL_PROGRAM_BINARIES>();
  std::ofstream out(path, std::ios::binary);
  const auto& b = binaries.front();
  out << std::string(b.begin(), std::find(b.begin(), b.end(), '\0'));
  std::printf("wrote the PTX for '%s' to %s\n", options.c_str(), path.c_str());
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<size_t> sizes;
  for (int i = 1; i < argc; ++i) sizes.push_back(std::strtoul(argv[i], nullptr, 10));
  if (sizes.empty()) sizes = {4096, 8192};
  const char* want = std::getenv("CLGEMM_DEVICE");
  DeviceInfo info = choose_device(want && *want ? want : "NVIDIA");
  std::printf("device: %s (%s)\n", info.name.c_str(), info.architecture.c_str());
  setenv("CLGEMM_TENSOR_MAPS", "1", 1);
  Context ctx(info);
  // $WGMMA_TYPES: f16,bf16,tf32 (default all three).
  const char* types_env = std::getenv("WGMMA_TYPES");
  const std::string types = types_env && *types_env ? types_env : "f16,bf16,tf32";
  std::vector<DataType> inputs;
  std::stringstream list(types);
  for (std::string t; std::getline(list, t, ',');)
    if (t == "f16" || t == "bf16" || t == "tf32")
      inputs.push_back(t == "f16" ? DataType::F16 : t == "bf16" ? DataType::BF16 : DataType::F32);
  const size_t shapes[][3] = {{1, 1, 1},     {7, 9, 13},     {63, 65, 127},  {129, 129, 129}, {64, 256, 64},
                              {200, 300, 1000}, {257, 513, 77}, {1000, 1000, 1000}, {130, 250, 5}};
  local_memory_probe(ctx);
  if (const char* dump = std::getenv("WGMMA_DUMP_PTX")) {
    // $WGMMA_DUMP_OPTIONS: the build options of the dump (such as a command's from `clgemm plan`).
    const Config c{128, 128, 32, 128, 3, 0, 0, 0};
    const char* options = std::getenv("WGMMA_DUMP_OPTIONS");
    dump_ptx(ctx, options && *options ? options : options_of(c, DataType::F16, DataType::F32), dump);
    if (std::getenv("WGMMA_DUMP_ONLY")) return 0;
  }
  bool all_ok = true;
  for (const DataType in : inputs) {
    const DataType out = in == DataType::F32 ? DataType::F32 : in;
    std::vector<std::pair<Config, cl::Kernel>> good;
    for (const Config& cfg : configs()) {
      const auto d = &detail::wgmma_descriptor();
      std::printf("%s %s: ", name_of(cfg).c_str(), data_type_name(in));
      std::optional<cl::Kernel> kernel;
      try {
        auto rules = detail::wgmma_rules(params_of(cfg), in);
        if (std::getenv("WGMMA_EMPTY_MMA")) rules[0].body = "// no mma";
        kernel = ctx.patched_kernel(d->program_sources(), options_of(cfg, in, out), d->entry, rules, "sm_90a",
                                    unsigned(cfg.min_groups));
      } catch (const std::exception& e) {
        std::printf("does not build: %.300s\n", e.what());
        continue;
      }
      if (!kernel) {
        std::printf("refused\n");
        for (const auto& w : take_warnings()) std::printf("  %s\n", w.c_str());
        continue;
      }
      bool ok = true;
      double worst = 0;
      for (const auto& s : shapes)
        for (const double beta : {0.0, 0.5}) {
          const Run r = run(ctx, *kernel, cfg, in, out, s[0], s[1], s[2], 1.5, beta);
          if (!r.ok) std::printf("\n  wrong at %zux%zux%zu beta %g", s[0], s[1], s[2], beta);
          ok = ok && r.ok;
          worst = std::max(worst, r.worst);
        }
      all_ok = all_ok && ok;
      std::printf("%s (worst error %.2e of sum |a*b|)\n", ok ? "correct" : "WRONG", worst);
      std::fflush(stdout);
      if (ok || std::getenv("WGMMA_TIME_ALL")) good.emplace_back(cfg, *kernel);
    }
    for (const size_t n : sizes) {
      const cl::Buffer a = random_operand(ctx, in, n, 1), b = random_operand(ctx, in, n, 2);
      const cl::Buffer c = ctx.buffer(n * n * bytes_of(out));
      for (auto& [cfg, kernel] : good) {
        const double ms = time_square(ctx, kernel, cfg, in, n, a, b, c, 10);
        std::printf("time %s %s %zu^3: %.3f ms, %.1f TFLOP/s\n", data_type_name(in), name_of(cfg).c_str(), n, ms,
                    2.0 * n * n * depth_of(n) / (ms * 1e-3) / 1e12);
        std::fflush(stdout);
      }
    }
  }
  return all_ok ? 0 : 1;
}
