// xmma_kernel.cpp — parameters, constraints and work sizes of gemm/xmma/xmma.cl.
#include "kernels/gemm/xmma/xmma_kernel.hpp"

#include "kernels/gemm/xgemm/xgemm_kernel.hpp"

#include <algorithm>

namespace clgemm::detail {

long xmma_threads(const KernelParams& ps) { return (p(ps, "BM") / p(ps, "WM")) * (p(ps, "BN") / p(ps, "WN")) * 32; }

long terms_of(Math math) { return math == Math::Tf32 ? 1 : 3; }

bool tf32_terms(const KernelParams& ps) { return ps.count("TERMS") && ps.at("TERMS") == terms_of(Math::Tf32); }

namespace {

// Accumulators (twice with FK > 1), one k-step's fragments (hi and lo with 3 terms), and about
// 24 for addresses and loop state. NVIDIA's compiler reported 202 for 128×64 tiles with FK = 16
// (estimate 200), and 255 for the 128×128 tiles of 64×64 per warp (estimate 216).
size_t registers_of(const KernelParams& ps) {
  const size_t mt = p(ps, "WM") / 16, nt = p(ps, "WN") / 8, acc = mt * nt * 4;
  const size_t frags = (mt * 4 + nt * 2) * (p(ps, "TERMS") == 3 ? 2 : 1);
  return acc * (p(ps, "FK") > 1 ? 2 : 1) + frags + 24;
}

// Work-groups per SM, as registers allow. Local memory, at most 48 KiB per work-group, binds
// later for these tiles (228 KiB per SM on sm_90). 128×128 tiles of 64×64 per warp: 2 per SM;
// 128×64 of 64×64: 4 (H200, 2064³: 561 of them fill 528 places in one round and 6 % of a second,
// which a model of one per SM saw as 85 % of five waves).
size_t resident_of(const KernelParams& ps, const DeviceInfo& dev) {
  return resident_by_registers(dev, registers_of(ps), size_t(xmma_threads(ps)));
}

}  // namespace

// Measured on the H200 with 3xTF32 (TFLOP/s at 1024³ / 2048³ / 4096³ / 8192³): 128×128 tiles of
// 64×64 per warp, 2 stages: 18.3 / 53.4 / 58.1 / 59.5; 128×64 of 64×32, 3 stages: 27.6 / 45.0 /
// 51.6 / 50.4; 64×64 of 32×32, 3 stages: 32.1 / 43.5 / 47.0 / 42.8. The large tiles win once
// they fill the compute units, the smaller ones before.
KernelParams xmma_tiles(const DeviceInfo& device, size_t m, size_t n) {
  auto tiles = [&](size_t bm, size_t bn) { return ((m + bm - 1) / bm) * ((n + bn - 1) / bn); };
  const size_t units = std::max<size_t>(1, device.compute_units);
  if (tiles(128, 128) >= units) return {};
  if (tiles(128, 64) >= units) return {{"BN", 64}, {"WN", 32}, {"STAGES", 3}};
  return {{"BM", 64}, {"BN", 64}, {"WM", 32}, {"WN", 32}, {"STAGES", 3}};
}

const GemmKernelDescriptor& xmma_descriptor() {
  static const GemmKernelDescriptor d = [] {
    GemmKernelDescriptor d;
    d.info = {0, "xmma", "tensor-core kernel (TF32 mma.sync, 3xTF32 or TF32) on packed operands", "gemm/xmma/xmma.cl", {}};
    d.entry = "xmma";
    d.sources = {"common/vectors.cl", "common/batch.cl", "common/cp_async.cl"};
    // Defaults: the fastest of the configurations measured on the H200 at 4096³ and 8192³ with
    // 3xTF32 (docs/tuning.md); xmma_tiles picks smaller tiles for fewer tiles of C. The kernel
    // runs on NVIDIA GPUs only: the CPU defaults are never built, but every parameter needs one.
    d.params = {
        {"BM", 128, 128, "rows of C per work-group", {64, 128, 256}},
        {"BN", 128, 128, "columns of C per work-group", {64, 128, 256}},
        {"BK", 16, 16, "K-depth of one tile", {8, 16, 32}},
        {"WM", 64, 64, "rows of C per warp", {32, 64}},
        {"WN", 64, 64, "columns of C per warp", {32, 64}},
        {"STAGES", 2, 2, "tiles in the cp.async pipeline", {2, 3, 4}},
        // Not tuned: FK and TERMS decide the accuracy, not just the speed, so the planner sets them
        // from GemmOptions::math (FK 1 for 3xTF32, 0 for TF32). A search would take FK 0 for
        // 3xTF32 too, whose error (13x a float32 loop's) still passes a float32 tolerance.
        {"FK", 1, 1, "k8 steps the MMA sums before a float32 add (0: all of K)", {}, 0},
        {"TERMS", 3, 3, "tensor-core products per float32 product: 3 (3xTF32) or 1 (TF32)"},
    };
    // The other two tilings measured by hand on the H200 (xmma_tiles), where a search starts too.
    d.seeds = {{{"BN", 64}, {"WN", 32}, {"STAGES", 3}},
               {{"BM", 64}, {"BN", 64}, {"WM", 32}, {"WN", 32}, {"STAGES", 3}}};
    for (auto& spec : d.params) d.info.param_names.push_back(spec.name);
    d.constraints = {
        one_of("TERMS", {1, 3}),
        one_of("STAGES", {2, 3, 4}),
        {"FK is 0 or more", [](const KernelParams& ps, const DeviceInfo&) { return p(ps, "FK") >= 0; }},
        {"WM a positive multiple of 16 and WN of 8, both dividing the tile",
         [](const KernelParams& ps, const DeviceInfo&) {
           const long wm = p(ps, "WM"), wn = p(ps, "WN");
           return wm > 0 && wn > 0 && wm % 16 == 0 && wn % 8 == 0 && p(ps, "BM") % wm == 0 && p(ps, "BN") % wn == 0;
         }},
        {"BM and BN multiples of 32, BK of 8",
         [](const KernelParams& ps, const DeviceInfo&) {
           return p(ps, "BM") > 0 && p(ps, "BN") > 0 && p(ps, "BK") > 0 && p(ps, "BM") % 32 == 0 &&
                  p(ps, "BN") % 32 == 0 && p(ps, "BK") % 8 == 0;
         }},
        {"tiles split evenly into float4 copies over the work-group",
         [](const KernelParams& ps, const DeviceInfo&) {
           const long t = xmma_threads(ps);
           return (p(ps, "BK") * p(ps, "BM") / 4) % t == 0 && (p(ps, "BK") * p(ps, "BN") / 4) % t == 0;
         }},
        {"needs TF32 mma.sync and cp.async (an NVIDIA GPU, sm_80 or newer)",
         [](const KernelParams&, const DeviceInfo& dev) { return tensor_path_available(dev); }},
    };
    d.a_form = OperandForm::Transposed;
    d.b_form = OperandForm::AsStored;
    d.multiples = [](const KernelParams& ps) {
      return Multiples{size_t(p(ps, "BM")), size_t(p(ps, "BN")), size_t(p(ps, "BK"))};
    };
    // One work-group per tile of C, in one dimension (the kernel finds its tile from its number).
    d.global = [](const GemmShape& s, const KernelParams& ps) {
      const size_t tiles = (round_up(s.m, p(ps, "BM")) / p(ps, "BM")) * (round_up(s.n, p(ps, "BN")) / p(ps, "BN"));
      return cl::NDRange(tiles * xmma_threads(ps));
    };
    d.local = [](const KernelParams& ps) { return cl::NDRange(xmma_threads(ps)); };
    d.tile = [](const KernelParams& ps) { return std::make_pair(size_t(p(ps, "BM")), size_t(p(ps, "BN"))); };
    d.local_bytes = [](const KernelParams& ps) {
      return size_t(p(ps, "STAGES")) * p(ps, "BK") * (p(ps, "BM") + 8 + p(ps, "BN") + 8) * sizeof(float);
    };
    d.resident = resident_of;
    // Alone on an SM a work-group's warps get all of the SM's 4 schedulers they can use: 128×128
    // tiles of 4 warps, two per SM, ran about twice as fast (4128³ on the H200, see
    // tile_choice.cpp, rounds); 128×64 tiles of 2 warps, four per SM, leave two schedulers idle.
    // At most 2: one warp per scheduler hides less latency than several, and 2 is what was
    // measured (with 3, 64×128 tiles of 4 warps would predict 1024×1024×8192 at 50 TFLOP/s on
    // 128 of the 132 SMs).
    d.alone = [](const KernelParams& ps, const DeviceInfo& dev) {
      const double warps = double(xmma_threads(ps)) / 32.0;
      const double share = double(resident_of(ps, dev)) * std::min(warps, 4.0) / 4.0;
      return std::clamp(share, 1.0, 2.0);
    };
    d.registers = registers_of;
    return d;
  }();
  return d;
}

}  // namespace clgemm::detail

namespace clgemm {

// mma.sync with TF32 and cp.async both arrived with sm_80.
bool tensor_path_available(const DeviceInfo& device) { return detail::has_cp_async(device); }

}  // namespace clgemm
