// dmma_kernel.cpp — parameters, constraints and work sizes of gemm/dmma/dmma.cl.
#include "kernels/gemm/dmma/dmma_kernel.hpp"

#include "kernels/gemm/xgemm/xgemm_kernel.hpp"
#include "kernels/nvidia_arch.hpp"

#include <algorithm>

namespace clgemm::detail {

long dmma_threads(const KernelParams& ps) { return (p(ps, "BM") / p(ps, "WM")) * (p(ps, "BN") / p(ps, "WN")) * 32; }

namespace {

// Two registers per double: the accumulators (WM·WN / 32 doubles per lane), one k-step's
// fragments, and about 24 for the rest.
size_t registers_of(const KernelParams& ps) {
  const size_t wm = p(ps, "WM"), wn = p(ps, "WN"), k = p(ps, "MMA_K");
  return wm * wn / 16 + (wm + wn) * k / 16 + 24;
}

// m16n8k8 and m16n8k16 on doubles arrived with sm_90.
bool sm90_or_newer(const DeviceInfo& dev) { return tensor_capabilities(dev).f64_m16; }

size_t resident_of(const KernelParams& ps, const DeviceInfo& dev) {
  return resident_by_registers(dev, registers_of(ps), size_t(dmma_threads(ps)));
}

}  // namespace

// Measured on an H100 with m16n8k8 (scripts/gpu/force_probe.cpp, TFLOP/s at 1024³ / 4096³ /
// 8192³): 128×64 tiles of 32×32 per warp, 3 stages: 21.9 / 37.7 / 39.8; 128×128 of 64×32, 2
// stages: 15.3 / 38.2 / 39.4; 64×64, 3 stages: 20.5 / 30.4 / 30.9 (6.0 at 512³, where 128×64 ran
// 4.6). m8n8k4 ran 64×64 at 27.5 and 128×128 at 24.1 at 4096³.
//
// H200 (`PROBE_TYPES=f64 scripts/gpu/big_tiles.sh`, force_probe, TFLOP/s at 2048³ / 4096³ / 8192³,
// m16n8k8): 128×128 tiles of 64×32 per warp, 16 deep in six stages (198 KiB of static local
// memory) 40.4 / 42.7 / 41.9, against 39.2 / 40.4 / 40.3 for 128×64 tiles 8 deep in three; the
// same 128×128 in four stages 39.8 / 42.1 / 41.4, with m16n8k16 39.0 / 41.1 / 41.1; 128×64 16 deep
// in four 36.8 / 38.5 / 36.5. Depth and size move it little: the kernel holds about 63 % of the
// FP64 peak either way.
KernelParams dmma_tiles(const DeviceInfo& device, size_t m, size_t n, size_t batch) {
  KernelParams deep = {{"BM", 128}, {"BN", 128}, {"WM", 64}, {"WN", 32}, {"BK", 16}, {"STAGES", 6}, {"MMA_K", 8}};
  const size_t units = std::max<size_t>(device.compute_units, 1);
  if (sm90_or_newer(device) && ceil_div(m, 128) * ceil_div(n, 128) * batch >= units &&
      dmma_descriptor().local_bytes(deep) <= local_limit(device, LocalMemoryKind::Static))
    return deep;
  KernelParams ps;
  if (ceil_div(m, 128) * ceil_div(n, 64) * batch < units) ps["BM"] = 64;
  if (sm90_or_newer(device)) ps["MMA_K"] = 8;
  return ps;
}

// Measured on an H100 (force_probe f64, TFLOP/s, items read in place): 64³ items in 64×64 tiles,
// BK 16 in two stages against BK 8 in three: 13.3 / 10.5 / 8.0 against 12.5 / 9.7 / 7.4 for 4096 /
// 1024 / 256 of them; 1024 × 128³ 21.4 in those against 19.6 in 128×64 tiles; 4096 × 32×32×256 in
// 32×32 tiles 9.8 against 8.5. Items from 256 rows keep 128×64 tiles (64 × 256³: 25.5 against
// 22.2 in 64×64 ones, BK 16): measured under a 48 KiB limit, which held BK 16 in two stages only.
KernelParams dmma_batch_tiles(const DeviceInfo& device, size_t m, size_t n, size_t k) {
  KernelParams ps;
  // The larger of two sizes unless the smaller one pads less.
  const auto pick = [](size_t side, size_t small, size_t large) {
    return round_up(side, large) == round_up(side, small) ? large : small;
  };
  const bool tall_tiles = m >= 256 && pick(m, 64, 128) == 128;
  ps["BM"] = tall_tiles ? 128 : pick(m, 32, 64);
  ps["BN"] = pick(n, 32, 64);
  if (!tall_tiles && pick(k, 8, 16) == 16) {
    ps["BK"] = 16;
    ps["STAGES"] = 2;
  }
  if (sm90_or_newer(device)) ps["MMA_K"] = 8;
  return ps;
}

// Measured on an H100 (`GROUPED=1 PRECISION=f64 IMPL=clgemm scripts/gpu/bench.sh`, TFLOP/s): 64×64
// tiles 16 deep in two stages against 128×64 ones 8 deep in three, row-major: `random` (64 problems
// of sides 64-1024) 29.3 against 21.7, random:256:64:512:2 23.3 against 17.7,
// random:64:128:2048:3 36.5 against 26.9; column-major with A transposed 22.7, 16.0 and 30.9
// against 17.5, 12.7 and 23.1. (Squares run the other way: 4096³ 30.1 against 38.5.)
KernelParams dmma_grouped_tiles(const DeviceInfo& device) {
  KernelParams ps = {{"BM", 64}, {"BN", 64}, {"BK", 16}, {"STAGES", 2}};
  if (sm90_or_newer(device)) ps["MMA_K"] = 8;
  return ps;
}

const GemmKernelDescriptor& dmma_descriptor() {
  static const GemmKernelDescriptor d = [] {
    GemmKernelDescriptor d;
    d.info = {0, "dmma", "FP64 tensor-core kernel (mma.sync f64)", "gemm/dmma/dmma.cl", {}};
    d.entry = "dmma";
    d.sources = {"common/vectors.cl", "common/batch.cl", "common/cp_async.cl"};
    // The kernel runs on NVIDIA GPUs only: the CPU defaults are never built, but every parameter
    // needs one.
    d.params = {
        {"BM", 128, 128, "rows of C per work-group", {64, 128}},
        {"BN", 64, 64, "columns of C per work-group", {64, 128}},
        {"BK", 8, 8, "K-depth of one tile", {4, 8, 16}},
        {"WM", 32, 32, "rows of C per warp", {32, 64}},
        {"WN", 32, 32, "columns of C per warp", {32, 64}},
        {"STAGES", 3, 3, "tiles in the cp.async pipeline", {2, 3, 4, 6}},
        {"MMA_K", 4, 4, "the instruction: 4 (m8n8k4), 8 (m16n8k8) or 16 (m16n8k16; both sm_90 and newer)", {4, 8}},
        precision_param(),
    };
    for (auto& spec : d.params) d.info.param_names.push_back(spec.name);
    d.constraints = {
        one_of("PRECISION", {64}),
        one_of("STAGES", {2, 3, 4, 5, 6, 7, 8}),
        one_of("MMA_K", {4, 8, 16}),
        {"MMA_K 8 and 16 need sm_90 or newer", [](const KernelParams& ps, const DeviceInfo& dev) {
           return p(ps, "MMA_K") == 4 || sm90_or_newer(dev);
         }},
        {"WM a multiple of the instruction's M (8, or 16 with MMA_K 8 or 16) and WN of 8, both dividing the tile",
         [](const KernelParams& ps, const DeviceInfo&) {
           const long wm = p(ps, "WM"), wn = p(ps, "WN"), mm = p(ps, "MMA_K") >= 8 ? 16 : 8;
           return wm > 0 && wn > 0 && wm % mm == 0 && wn % 8 == 0 && p(ps, "BM") % wm == 0 && p(ps, "BN") % wn == 0;
         }},
        {"BM and BN multiples of 32, BK of MMA_K", [](const KernelParams& ps, const DeviceInfo&) {
           return p(ps, "BM") % 32 == 0 && p(ps, "BN") % 32 == 0 && p(ps, "BK") % p(ps, "MMA_K") == 0;
         }},
        {"tiles split evenly into 16-byte copies over the work-group", [](const KernelParams& ps, const DeviceInfo&) {
           const long t = dmma_threads(ps);
           return (p(ps, "BK") * p(ps, "BM") / 2) % t == 0 && (p(ps, "BK") * p(ps, "BN") / 2) % t == 0;
         }},
        {"needs f64 mma.sync and cp.async (an NVIDIA GPU, sm_80 or newer)",
         [](const KernelParams&, const DeviceInfo& dev) { return has_cp_async(dev); }},
    };
    d.a_form = OperandForm::Transposed;
    d.b_form = OperandForm::AsStored;
    d.multiples = [](const KernelParams& ps) {
      return Multiples{size_t(p(ps, "BM")), size_t(p(ps, "BN")), size_t(p(ps, "BK"))};
    };
    d.global = [](const GemmShape& s, const KernelParams& ps) {
      const size_t tiles = (round_up(s.m, p(ps, "BM")) / p(ps, "BM")) * (round_up(s.n, p(ps, "BN")) / p(ps, "BN"));
      return cl::NDRange(tiles * dmma_threads(ps));
    };
    d.local = [](const KernelParams& ps) { return cl::NDRange(dmma_threads(ps)); };
    d.tile = [](const KernelParams& ps) { return std::make_pair(size_t(p(ps, "BM")), size_t(p(ps, "BN"))); };
    d.local_bytes = [](const KernelParams& ps) {
      return size_t(p(ps, "STAGES")) * p(ps, "BK") * (p(ps, "BM") + 4 + p(ps, "BN") + 4) * sizeof(double);
    };
    d.resident = resident_of;
    d.registers = registers_of;
    return d;
  }();
  return d;
}

}  // namespace clgemm::detail
