// xgemm_kernel.cpp — parameters, search space, constraints and work sizes of gemm/xgemm/xgemm.cl.
#include "kernels/gemm/xgemm/xgemm_kernel.hpp"

#include "kernels/nvidia_arch.hpp"

#include <algorithm>
#include <exception>
#include <string>

namespace clgemm::detail {

long wgs(const KernelParams& ps) { return p(ps, "MDIMC") * p(ps, "NDIMC") * p(ps, "KSLICE"); }

namespace {

bool tiles_split_evenly(const KernelParams& ps, const DeviceInfo&) {
  const long a = p(ps, "KWG") * p(ps, "MWG") / p(ps, "VWM"), b = p(ps, "KWG") * p(ps, "NWG") / p(ps, "VWN");
  return (!p(ps, "SA") || a % wgs(ps) == 0) && (!p(ps, "SB") || b % wgs(ps) == 0);
}

}  // namespace

size_t runnable_sk_groups(size_t groups, size_t split_tiles, const DeviceInfo& device) {
  if (groups == 0 || split_tiles == 0 || has_cp_async(device) || groups % split_tiles == 0) return groups;
  return std::max(split_tiles, groups / split_tiles * split_tiles);
}

size_t split_depth(size_t k_padded, size_t tile_k, size_t splits) {
  const size_t steps = (k_padded + tile_k - 1) / tile_k, parts = std::max<size_t>(splits, 1);
  return (steps + parts - 1) / parts * tile_k;
}

const GemmKernelDescriptor& xgemm_descriptor() {
  static const GemmKernelDescriptor d = [] {
    GemmKernelDescriptor d;
    d.info = {0, "xgemm", "tunable register-blocked kernel on packed operands, fused alpha/beta epilogue",
              "gemm/xgemm/xgemm.cl", {}};
    d.entry = "xgemm";
    d.sources = {"common/vectors.cl",      "common/batch.cl",         "common/device_fence.cl", "gemm/xgemm/config.cl",
                 "gemm/xgemm/staging.cl",  "gemm/xgemm/multiply.cl",  "gemm/xgemm/schedule.cl",
                 "gemm/xgemm/epilogue.cl"};
    // Defaults: rung 6's configuration, the fastest measured on the H200 before tuning; on CPUs
    // the 8×16 blocks per work-item that the block-sparse kernel found best on PoCL.
    d.params = {
        {"MWG", 128, 64, "rows of C per work-group", {16, 32, 64, 128, 256}},
        {"NWG", 128, 64, "columns of C per work-group", {16, 32, 64, 128, 256}},
        {"KWG", 16, 16, "K-depth of a tile", {8, 16, 32, 64}},
        {"MDIMC", 16, 8, "work-items along M", {4, 8, 16, 32}},
        {"NDIMC", 16, 4, "work-items along N", {4, 8, 16, 32}},
        {"VWM", 4, 4, "vector width along M", {1, 2, 4, 8}},
        {"VWN", 4, 8, "vector width along N", {1, 2, 4, 8}},
        {"SA", 1, 1, "stage A in local memory", {0, 1}, 0},
        {"SB", 1, 1, "stage B in local memory", {0, 1}, 0},
        {"PADA", 0, 0, "padding vectors per local row of A", {0, 1}, 0},
        {"PADB", 0, 0, "padding vectors per local row of B", {0, 1}, 0},
        {"DB", 0, 0, "double-buffered local tiles", {0, 1}, 0},
        {"KUNROLL", 16, 16, "unroll factor of the K loop in a tile", {1, 2, 4, 8, 16, 32}},
        {"STRM", 1, 1, "rows of a work-item strided (1) or contiguous (0)", {0, 1}, 0},
        {"STRN", 1, 1, "columns of a work-item strided (1) or contiguous (0)", {0, 1}, 0},
        // Host-side choice, not a kernel switch: pack a row-major A into At (1), or let the kernel
        // read it in place and transpose while staging (0: one kernel instead of two, but scalar
        // loads along K). Measured on the H200 at 4096³ without ASYNC: packing 45.7 TFLOP/s, in
        // place 28.8; with ASYNC the in-place copies are cp.async too (docs/tuning.md).
        {"PACKA", 1, 1, "pack a row-major A into At before the kernel (1) or read it in place (0)", {0, 1}, 0},
        {"WX", 0, 0, "work-items along N in a warp of 32 (0: plain numbering; warp tiling)", {0, 4, 8, 16}, 0},
        {"ASYNC", 0, 0, "stages of the cp.async copy pipeline (0: off; NVIDIA sm_80 and newer)", {0, 2, 3, 4}, 0},
        // Host-side too: the build asks NVIDIA's assembler to fit MINWG work-groups per SM (PTX
        // .minnctapersm, a register cap). The 128×128 kernel already takes 128 registers, yet ran
        // faster with the cap (H200, 8192³: 21.85 -> 21.66 ms; 4096³ 2.77 -> 2.74). Split builds
        // do without it (gemm_exec.cpp).
        {"MINWG", 0, 0, "work-groups per compute unit the registers must allow (NVIDIA; 0: the compiler's choice)",
         {0, 1, 2, 3, 4}, 0},
        // Sliced K: KSLICE groups of MDIMC×NDIMC work-items share each tile's K-depth and add up
        // their sums in local memory at the end. More warps per SM for the small tiles, whose
        // one warp per scheduler waits on every load and dependent instruction.
        {"KSLICE", 1, 1, "slices of work-items that share each tile's K-depth (sliced K)", {1, 2, 4}},
        // With PACKA = 0, a row-major A read in place can stay in local memory as it is stored
        // (M×K, copied in 16-byte pieces along K) instead of being transposed on its way there
        // (4-byte copies); the K loop then reads ALK k of a row at once. No packing kernel and
        // no 4-byte copies, for ALK - 1 more registers per row of a work-item: on the H200 a few %
        // faster for the small class's tiles, 1-29 % slower from 1024³ up (docs/tuning.md).
        {"ALK", 0, 0, "read in place, keep a row-major A's tile as stored, ALK k per local read (0: transpose it)",
         {0, 2, 4}, 0},
        precision_param(),
    };
    for (auto& spec : d.params) d.info.param_names.push_back(spec.name);
    d.constraints = {
        one_of("VWM", {1, 2, 4, 8}),
        one_of("VWN", {1, 2, 4, 8}),
        positive("MDIMC"),
        positive("NDIMC"),
        positive("KWG"),
        {"MWG multiple of MDIMC*VWM",
         [](const KernelParams& ps, const DeviceInfo&) { return p(ps, "MWG") % (p(ps, "MDIMC") * p(ps, "VWM")) == 0; }},
        {"NWG multiple of NDIMC*VWN",
         [](const KernelParams& ps, const DeviceInfo&) { return p(ps, "NWG") % (p(ps, "NDIMC") * p(ps, "VWN")) == 0; }},
        {"KUNROLL divides KWG",
         [](const KernelParams& ps, const DeviceInfo&) { return p(ps, "KUNROLL") > 0 && p(ps, "KWG") % p(ps, "KUNROLL") == 0; }},
        {"KSLICE: 1, 2 or 4 slices, each with whole chunks of KUNROLL of every tile's K-depth",
         [](const KernelParams& ps, const DeviceInfo&) {
           const long s = p(ps, "KSLICE");
           return (s == 1 || s == 2 || s == 4) && p(ps, "KUNROLL") > 0 && p(ps, "KWG") % (s * p(ps, "KUNROLL")) == 0;
         }},
        {"staged tiles split evenly over the work-items", tiles_split_evenly},
        {"double buffering needs a staged operand",
         [](const KernelParams& ps, const DeviceInfo&) { return !p(ps, "DB") || p(ps, "SA") || p(ps, "SB"); }},
        {"padding only for staged operands",
         [](const KernelParams& ps, const DeviceInfo&) {
           return (p(ps, "SA") || !p(ps, "PADA")) && (p(ps, "SB") || !p(ps, "PADB"));
         }},
        {"WX: 0, or a divisor of 32 and NDIMC whose 32/WX divides MDIMC",
         [](const KernelParams& ps, const DeviceInfo&) {
           const long wx = p(ps, "WX");
           return wx == 0 || (wx > 0 && 32 % wx == 0 && p(ps, "NDIMC") % wx == 0 && p(ps, "MDIMC") % (32 / wx) == 0);
         }},
        {"ASYNC: 0, or 2 to 4 stages",
         [](const KernelParams& ps, const DeviceInfo&) { return p(ps, "ASYNC") == 0 || (p(ps, "ASYNC") >= 2 && p(ps, "ASYNC") <= 4); }},
        one_of("PRECISION", {32, 64}),
        {"ASYNC needs cp.async (an NVIDIA GPU, sm_80 or newer)",
         [](const KernelParams& ps, const DeviceInfo& dev) { return p(ps, "ASYNC") == 0 || has_cp_async(dev); }},
        {"ASYNC stages both operands (SA = SB = 1) and replaces DB",
         [](const KernelParams& ps, const DeviceInfo&) {
           return p(ps, "ASYNC") == 0 || (p(ps, "SA") && p(ps, "SB") && !p(ps, "DB"));
         }},
        // With ASYNC an operand may arrive element by element, or transposed in blocks of 4 rows
        // × 8 k per 32 work-items, depending on the call: its tiles must split that way too.
        {"ASYNC tiles split evenly in floats and in 4x8 blocks",
         [](const KernelParams& ps, const DeviceInfo&) {
           if (p(ps, "ASYNC") == 0) return true;
           const long a = p(ps, "KWG") * p(ps, "MWG"), b = p(ps, "KWG") * p(ps, "NWG");
           return a % wgs(ps) == 0 && b % wgs(ps) == 0 && a % 32 == 0 && b % 32 == 0 && p(ps, "KWG") % 8 == 0 &&
                  p(ps, "MWG") % 4 == 0 && p(ps, "NWG") % 4 == 0;
         }},
        {"MINWG: 0, or 1 to 4 work-groups per unit, on NVIDIA (PTX), with at most 2048 work-items per unit",
         [](const KernelParams& ps, const DeviceInfo& dev) {
           const long n = p(ps, "MINWG");
           return n == 0 || (n >= 1 && n <= 4 && dev.vendor.find("NVIDIA") != std::string::npos && n * wgs(ps) <= 2048);
         }},
        {"ALK: 0, or 2 or 4 dividing KUNROLL, with A read in place (PACKA = 0) and staged, and K-steps of whole "
         "vectors of 4",
         [](const KernelParams& ps, const DeviceInfo&) {
           const long alk = p(ps, "ALK");
           if (alk == 0) return true;
           return (alk == 2 || alk == 4) && p(ps, "KUNROLL") % alk == 0 && p(ps, "PACKA") == 0 && p(ps, "SA") &&
                  p(ps, "KWG") % 4 == 0;
         }},
        {"at most 256 accumulators per work-item",
         [](const KernelParams& ps, const DeviceInfo&) {
           return (p(ps, "MWG") / p(ps, "MDIMC")) * (p(ps, "NWG") / p(ps, "NDIMC")) <= 256;
         }},
    };
    // The fastest configurations of the cp.async pipeline that `clgemm tune --try` measured on
    // the H200 (docs/tuning.md): large, and three for mid sizes with A read in place.
    d.seeds = {
        {{"MWG", 128}, {"NWG", 128}, {"KWG", 16}, {"MDIMC", 16}, {"NDIMC", 16}, {"VWM", 8}, {"VWN", 4}, {"STRM", 0},
         {"ASYNC", 3}, {"WX", 8}},
        {{"MWG", 64}, {"NWG", 128}, {"KWG", 16}, {"MDIMC", 8}, {"NDIMC", 16}, {"VWM", 4}, {"VWN", 4}, {"STRM", 0},
         {"ASYNC", 3}, {"WX", 8}, {"PACKA", 0}, {"PADA", 1}},
        {{"MWG", 32}, {"NWG", 64}, {"KWG", 32}, {"MDIMC", 8}, {"NDIMC", 16}, {"VWM", 4}, {"VWN", 4}, {"STRM", 0},
         {"ASYNC", 3}, {"WX", 8}, {"PACKA", 0}, {"PADA", 1}},
        {{"MWG", 64}, {"NWG", 64}, {"KWG", 16}, {"MDIMC", 8}, {"NDIMC", 8}, {"VWM", 4}, {"VWN", 4}, {"STRM", 0},
         {"ASYNC", 3}, {"WX", 8}, {"PACKA", 0}, {"PADA", 1}},
    };
    d.a_form = OperandForm::Transposed;
    d.b_form = OperandForm::AsStored;
    d.multiples = [](const KernelParams& ps) {
      return Multiples{size_t(p(ps, "MWG")), size_t(p(ps, "NWG")), size_t(p(ps, "KWG"))};
    };
    // A 2D grid of tiles, one work-group per tile of C, its slices along the third dimension
    // (without split-K; the launcher makes the 1D grid of split-K itself).
    d.global = [](const GemmShape& s, const KernelParams& ps) {
      return cl::NDRange(round_up(s.n, p(ps, "NWG")) / p(ps, "NWG") * p(ps, "NDIMC"),
                         round_up(s.m, p(ps, "MWG")) / p(ps, "MWG") * p(ps, "MDIMC"), p(ps, "KSLICE"));
    };
    d.local = [](const KernelParams& ps) { return cl::NDRange(p(ps, "NDIMC"), p(ps, "MDIMC"), p(ps, "KSLICE")); };
    d.tile = [](const KernelParams& ps) { return std::make_pair(size_t(p(ps, "MWG")), size_t(p(ps, "NWG"))); };
    d.local_bytes = [](const KernelParams& ps) {
      const size_t bufs = p(ps, "ASYNC") ? p(ps, "ASYNC") : p(ps, "DB") ? 2 : 1;
      // With ALK, the tile of a row-major A read in place is M×K (rows of KWG + 4·PADA floats);
      // the call decides which form A takes, so count the larger.
      size_t a = p(ps, "SA") ? size_t(p(ps, "KWG")) * (p(ps, "MWG") + p(ps, "PADA") * p(ps, "VWM")) : 0;
      if (p(ps, "SA") && p(ps, "ALK")) a = std::max(a, size_t(p(ps, "MWG")) * (p(ps, "KWG") + 4 * p(ps, "PADA")));
      const size_t b = p(ps, "SB") ? size_t(p(ps, "KWG")) * (p(ps, "NWG") + p(ps, "PADB") * p(ps, "VWN")) : 0;
      if (p(ps, "KSLICE") <= 1) return bufs * (a + b) * element_bytes(ps);
      // Sliced K: the slices' sums share the tiles' memory (a union in xgemm.cl); C aligns B's
      // tiles and the union to their vectors.
      const size_t tiles = round_up(bufs * a, p(ps, "VWN")) + bufs * b;
      const size_t slice_sums = size_t(p(ps, "KSLICE") - 1) * p(ps, "MWG") * p(ps, "NWG");
      return round_up(std::max(tiles, slice_sums), std::max(p(ps, "VWM"), p(ps, "VWN"))) * element_bytes(ps);
    };
    d.registers = [](const KernelParams& ps) {
      // Accumulators, one k-step's fragments, the prefetch registers of double buffering, and
      // about 24 for addresses and loop state. Close to what NVIDIA's compiler reported for the
      // ladder rungs (rung 6: estimate 120, reported 125).
      const size_t mwi = p(ps, "MWG") / p(ps, "MDIMC"), nwi = p(ps, "NWG") / p(ps, "NDIMC");
      size_t values = mwi * nwi + mwi + nwi;
      if (p(ps, "ALK")) values += mwi * (p(ps, "ALK") - 1);  // ALK k of each row at once
      if (p(ps, "DB")) {
        const size_t w = wgs(ps);
        if (p(ps, "SA")) values += p(ps, "KWG") * p(ps, "MWG") / w;
        if (p(ps, "SB")) values += p(ps, "KWG") * p(ps, "NWG") / w;
      }
      return values * (element_bytes(ps) / 4) + 24;  // a double takes two registers
    };
    return d;
  }();
  return d;
}

}  // namespace clgemm::detail
