// wgmma_kernel.cpp — parameters, constraints, work sizes and PTX rules of gemm/wgmma/wgmma.cl.
#include "kernels/gemm/wgmma/wgmma_kernel.hpp"

#include <clgemm/error.hpp>

#include "kernels/nvidia_arch.hpp"

#include <algorithm>
#include <string>

namespace clgemm::detail {

bool wgmma_input(DataType input) { return input == DataType::F16 || input == DataType::BF16 || input == DataType::F32; }

bool wgmma_arithmetic(DataType input, Math math) {
  return input == DataType::F16 || input == DataType::BF16 ||
         (input == DataType::F32 && (math == Math::Tf32 || math == Math::Tf32x3));
}

bool wgmma_pays(size_t m, size_t n, size_t k) { return m >= 64 && n >= 64 && k >= 64; }

bool wgmma_three_terms_pay(const DeviceInfo& device, size_t m, size_t n, size_t k, size_t items) {
  const double count = double(std::max<size_t>(items, 1));
  const double tiles = double(ceil_div(m, 64) * ceil_div(n, 64)) * count;
  return tiles >= double(std::max<size_t>(device.compute_units, 1)) &&
         double(m) * double(n) * double(k) * count >= 2147483648.0;
}

bool wgmma_three_terms(const KernelParams& ps) { return ps.count("TERMS") && p(ps, "TERMS") == 3; }

bool wgmma_warp_specialised(const KernelParams& ps) { return ps.count("WS") && p(ps, "WS") == 1; }

namespace {

long consumers_of(const KernelParams& ps) { return p(ps, "BM") / p(ps, "WM"); }

long threads_of(const KernelParams& ps) { return (consumers_of(ps) + (wgmma_warp_specialised(ps) ? 1 : 0)) * 128; }

// A consumer's registers: accumulators (twice as many for 3xTF32's step sums, and its fragments
// of A), the copies' addresses and about 40 for the rest (descriptors, loop state).
size_t consumer_registers(const KernelParams& ps) {
  const size_t blocks = size_t(p(ps, "WM") / 64), acc = blocks * size_t(p(ps, "BN")) / 2;
  return wgmma_three_terms(ps) ? 2 * acc + 8 * blocks + 40 : acc + 40;
}

// Per work-item of the work-group: with WS, the consumers' and the producer's registers after
// setmaxnreg (wgmma_ws_registers) shared out over all of them.
size_t registers_of(const KernelParams& ps) {
  const size_t regs = consumer_registers(ps);
  if (!wgmma_warp_specialised(ps)) return regs;
  const size_t consumers = size_t(consumers_of(ps)) * 128;
  return ceil_div(consumers * regs + 128 * kWgmmaProducerRegisters, consumers + 128);
}

// Local memory: the stages, for 3xTF32 lo buffers of a slice of B (two where two or more
// warpgroups take turns), with WS the epilogue's own area (wgmma/config.cl: 64 rows of 40 floats
// per consumer), and 1 KiB for the mbarriers and split-K's flag, which the compiler places before
// the stages and pads to their 1024-byte alignment (H200: 218,176 bytes for 128×256 tiles in four
// stages with WS, CL_KERNEL_LOCAL_MEM_SIZE, where the stages and the epilogue's area take 217,088).
size_t local_bytes_of(const KernelParams& ps) {
  const size_t row = size_t(p(ps, "BK")) * 2, warpgroups = size_t(consumers_of(ps));
  const size_t lo_buffers = warpgroups == 1 ? 1 : 2;
  return size_t(p(ps, "STAGES")) * size_t(p(ps, "BM") + p(ps, "BN")) * row +
         (wgmma_three_terms(ps) ? lo_buffers * size_t(p(ps, "BN")) * row : 0) +
         (wgmma_warp_specialised(ps) ? warpgroups * 64 * 40 * 4 : 0) + 1024;
}

// Work-groups per SM by registers and by local memory (228 KiB per SM on sm_90, 1 KiB of it
// reserved per work-group).
size_t resident_of(const KernelParams& ps, const DeviceInfo& dev) {
  const size_t bytes = local_bytes_of(ps) + 1024;
  return std::max<size_t>(1, std::min(resident_by_registers(dev, registers_of(ps), size_t(threads_of(ps))),
                                      233472 / bytes));
}

}  // namespace

WgmmaRegisterBudget wgmma_ws_registers(const KernelParams& ps, size_t resident) {
  if (!wgmma_warp_specialised(ps) || resident == 0) return {};
  const size_t file = 65536 / resident, threads = size_t(threads_of(ps));
  const size_t consumers = size_t(consumers_of(ps)) * 128;
  const size_t at_entry = std::min<size_t>(255, file / threads / 8 * 8);
  if (file < 128 * kWgmmaProducerRegisters) return {};
  const size_t consumer = std::min<size_t>(240, (file - 128 * kWgmmaProducerRegisters) / consumers / 8 * 8);
  if (consumer <= at_entry) return {};
  return {long(consumer), long(kWgmmaProducerRegisters)};
}

namespace {

// The tile slots that `tiles` work-groups take when they are shared out evenly over `units` SMs,
// `resident` at a time on each: rounds times work-groups per round. Without split-K
// (wgmma_split): where one warpgroup's tiles fill the last round better, they beat two
// warpgroups' with their last round split (H100, f16: 2304³ 390 against 358 TFLOP/s, 4160³ 511
// against 490), or lose little (4097³ 363 against 376).
size_t slots_taken(size_t tiles, size_t units, size_t resident) {
  return ceil_div(ceil_div(tiles, units), resident) * resident;
}

// How much fewer slots one warpgroup per 128×128 tile must take than two before it is used: it
// computes a round of tiles a little slower.
constexpr double kOneWarpgroupMargin = 1.1;

// 16-bit tiles walk bands of 16 tile rows, twice the descriptor's 8: the work-groups running
// together then share more of their slices of A and B in L2. H100, `FORCE_CONFIGS="auto;GROUP_M=16"
// force_probe`, TFLOP/s, f16 / bf16: 2048³ 435 → 450 / 435 → 444, 4096³ 534 → 543 / 536 → 541,
// 8192³ 585 → 594 / 600 → 607, 5120×5120×4096 521 → 528 / 528 → 530. TF32 gains nothing (2048³
// 197 → 193, 4096³ 246 → 251, 8192³ 275 → 273) and keeps 8.
constexpr long kSixteenBitGroupM = 16;

}  // namespace

// Measured on an H100 (scripts/gpu/force_probe.cpp, TFLOP/s, f16 / bf16): 1024³ in 64×64 tiles,
// three slices of 64, against 64×128 ones in two: 139 / 140 against 125 / 124 (TF32: 59 against
// 53 for 64×128 in four slices of 32; 4096×256×4096 106 against 86); strided batches of
// 256 × 256³ in 64×128 tiles, two slices of 64: 153 / 153 against 148 / 147 for the defaults and
// 142 / 143 for 64×64 tiles, while 64 × 512³ keeps the defaults: 251 / 255 against 246 / 246.
//
// 128×128 tiles of one warpgroup (WM 128) run three to an SM where two-warpgroup ones run two.
// Where that leaves the last round far less empty, they win (f16: 2304³ 512 against 348, 4160³
// 521 against 457). Elsewhere it depends on the size, both in bands of 16 (f16): 3072³ 397
// against 441, 6144³ 582 against 581, 8192³ 627 against 597. One square that gains is too little
// to say where large products start to, so the rule below goes by the last round alone.
//
// 3xTF32 takes 64×64 tiles of one warpgroup in two slices of 32 floats (TFLOP/s on the H100 with
// TMA): 72 / 84 / 81 at 2048³ / 4096³ / 8192³, where 128×64 tiles of one warpgroup in slices of
// 16 ran 48 / 77 / 85 and 64×128 ones 61 / 75 / 74.
// H200, `scripts/gpu/big_tiles.sh` (force_probe, TFLOP/s), f16 at 4096³ / 8192³: 128×256 tiles
// with WS 632 / 727, 192×192 625 / 703, 256×128 (two warpgroups of 128 rows) 596, 128×128 in six
// slices 582 at 4096³, and 128×256 without WS 492, against 545 / 627 for the rules below it; TF32
// 332 / 375 for 128×256 and 317 / 361 for 192×192, against 263 / 287. So 192×192 tiles compute a
// round about 0.96 times as fast, and are taken where they fill the rounds enough better.
KernelParams wgmma_ws_tiles(size_t units, size_t m, size_t n) {
  const auto filled = [&](size_t bm, size_t bn) {
    const size_t tiles = ceil_div(m, bm) * ceil_div(n, bn);
    return double(tiles) / double(slots_taken(tiles, units, 1));
  };
  if (kWgmmaSquareTileSpeed * filled(192, 192) > filled(128, 256)) {
    KernelParams square = kWgmmaWideTiles;
    square["BM"] = 192, square["BN"] = 192;
    return square;
  }
  return kWgmmaWideTiles;
}

namespace {

// 3xTF32 on the H200 (`PROBE_TYPES=3xtf32 scripts/gpu/big_tiles.sh`, force_probe, TFLOP/s at
// 2048³ / 4096³ / 8192³): 256×64 tiles of four warpgroups in four slices of 32 floats (181 KiB
// with the lo buffers) 76.2 / 87.1 / 88.1, against 76.0 / 83.7 / 78.8 for 64×64 ones in two;
// 128×128 in three 71.9 / 77.4 / 84.1, 64×64 in four 64.6 / 76.7 / 75.0 and in six 58.6 / 62.3 /
// 59.6, 128×64 in four 62.2 / 68.8 / 62.4, 64×128 in four 47.9 / 51.7 / 54.8 (B as stored, which
// 256×64 tiles transpose first). The four warpgroups share each slice of B and its lo buffer.
const KernelParams kThreeTf32TallTiles = {{"BM", 256}, {"BN", 64}, {"WM", 64}, {"BK", 64}, {"STAGES", 4}};

KernelParams three_tf32_tiles(const DeviceInfo& device, size_t m, size_t n, size_t items) {
  KernelParams tall = kThreeTf32TallTiles;
  tall["TERMS"] = 3;
  const size_t tiles = ceil_div(m, 256) * ceil_div(n, 64) * std::max<size_t>(items, 1);
  if (tiles >= std::max<size_t>(device.compute_units, 1) &&
      wgmma_descriptor().local_bytes(tall) <= local_limit(device, LocalMemoryKind::Static))
    return kThreeTf32TallTiles;
  return {{"BM", 64}, {"BN", 64}, {"WM", 64}, {"BK", 64}, {"STAGES", 2}};
}

}  // namespace

KernelParams wgmma_tiles(const DeviceInfo& device, size_t m, size_t n, size_t k, size_t items, DataType type,
                         Math math) {
  const bool sixteen_bit = type == DataType::F16 || type == DataType::BF16;
  if (type == DataType::F32 && math == Math::Tf32x3) return three_tf32_tiles(device, m, n, items);
  const size_t units = std::max<size_t>(device.compute_units, 1);
  const size_t tiles = ceil_div(m, 128) * ceil_div(n, 128) * std::max<size_t>(items, 1);
  if (tiles < units) return {{"BM", 64}, {"BN", 64}, {"WM", 64}, {"BK", 64}, {"STAGES", 3}};
  if (sixteen_bit && items > 1 && k <= 512 && std::max(m, n) <= 384)
    return {{"BM", 64}, {"WM", 64}, {"BK", 64}, {"STAGES", 2}};
  // Warp-specialised tiles in four slices of 128-byte rows, where TMA runs and they fill every SM:
  // 128×256, or 192×192 where those leave the last round of tiles much fuller (wgmma_ws_tiles).
  if ((sixteen_bit || (type == DataType::F32 && math == Math::Tf32)) && device.tensor_maps && items <= 1 &&
      ceil_div(m, 128) * ceil_div(n, 256) >= units)
    return wgmma_ws_tiles(units, m, n);
  if (sixteen_bit) {
    // The descriptor's defaults (two warpgroups), and the same tiles with one.
    const KernelParams two = resolve_params(wgmma_descriptor(), device, {});
    const KernelParams one = resolve_params(wgmma_descriptor(), device, {{"WM", 128}});
    const double slots_two = double(slots_taken(tiles, units, resident_of(two, device)));
    const double slots_one = double(slots_taken(tiles, units, resident_of(one, device)));
    KernelParams ps = {{"GROUP_M", kSixteenBitGroupM}};
    if (slots_one * kOneWarpgroupMargin < slots_two) ps["WM"] = 128;
    return ps;
  }
  return {};
}

bool wgmma_b_registers_fit(const KernelParams& ps) {
  const long bk = p(ps, "BK");
  return p(ps, "BM") == p(ps, "BN") && p(ps, "BN") <= 128 && (bk == 32 || bk == 64) && p(ps, "INFLIGHT") == 0;
}

namespace {

// The register list "{{first}, {first + 1}, ...}" of `count` marker operands: the accumulators
// (from 0), or a fragment of A.
std::string register_list(size_t first, size_t count) {
  std::string list = "{";
  for (size_t i = 0; i < count; ++i) list += (i ? ", {" : "{") + std::to_string(first + i) + "}";
  return list + "}";
}

}  // namespace

std::vector<PtxMarkerRule> wgmma_rules(const KernelParams& ps, DataType input) {
  if (!wgmma_input(input)) throw Error(Status::InternalError, "wgmma has no rule for these inputs");
  if (wgmma_three_terms(ps) && input != DataType::F32) throw Error(Status::InternalError, "3xTF32 takes float32 inputs");
  const size_t bn = size_t(p(ps, "BN")), acc = bn / 2;
  const size_t row_bytes = size_t(p(ps, "BK")) * 2, mmas = row_bytes / 32;
  // Each instruction reads 32 bytes of every row: k16 of 16-bit inputs, k8 of TF32. f16 and bf16
  // name the layout of both operands (0, 0: K-major); TF32 has only K-major and takes no such
  // immediates.
  const std::string shape = "m64n" + std::to_string(bn) + (input == DataType::F32 ? "k8" : "k16");
  const std::string types = input == DataType::F32 ? ".f32.tf32.tf32" : input == DataType::BF16 ? ".f32.bf16.bf16" : ".f32.f16.f16";
  // B_MN: B is N-major in local memory, which wgmma takes with its transpose flag; its descriptor
  // advances by 16 rows of 128 bytes per k16 step.
  const bool b_mn = ps.count("B_MN") && p(ps, "B_MN") != 0;
  const std::string tail = input == DataType::F32 ? ", p, 1, 1;\n" : b_mn ? ", p, 1, 1, 0, 1;\n" : ", p, 1, 1, 0, 0;\n";
  const std::string op = "wgmma.mma_async.sync.aligned." + shape + types + " " + register_list(0, acc) + ", ";
  // With TMA, each work-group puts the tensors' addresses into its copy of the tensor maps.
  // WS moves registers with setmaxnreg where the launch gave a budget (wgmma_ws_registers).
  const auto setmaxnreg = [&](const char* name, const char* how) -> PtxMarkerRule {
    const long regs = ps.count(name) ? p(ps, name) : 0;
    return {std::string("setmaxnreg_") + how, 0,
            regs > 0 ? "setmaxnreg." + std::string(how) + ".sync.aligned.u32 " + std::to_string(regs) + ";" : ""};
  };
  std::vector<PtxMarkerRule> rules = {
      {"wgmma_drain", acc, "wgmma.wait_group.sync.aligned 0;"},
      {"tensormap_address", 2, "tensormap.replace.tile.global_address.global.b1024.b64 [{0}], {1};"},
      setmaxnreg("PRODUCER_REGS", "dec"), setmaxnreg("CONSUMER_REGS", "inc")};
  if (b_mn && input == DataType::F32 && !wgmma_b_registers_fit(ps))
    throw Error(Status::InternalError, "an N-major float32 B does not fit this tile");
  if (b_mn && input == DataType::F32 && !wgmma_three_terms(ps)) {
    // B_REGS: a slice's k8 products for one block, Bᵀ's fragments in registers — four per step,
    // {acc} onwards — and A's slice on descriptor {acc + 4·mmas}, advanced 32 bytes a step.
    const size_t da = acc + 4 * mmas;
    std::string mma = ".reg .pred p;\n.reg .b32 one;\n.reg .b64 da;\nmov.b32 one, 1;\nsetp.ne.b32 p, one, 0;\n"
                      "mov.b64 da, {" + std::to_string(da) + "};\nwgmma.fence.sync.aligned;\n";
    for (size_t i = 0; i < mmas; ++i) {
      if (i) mma += "add.s64 da, da, 2;\n";
      mma += op + register_list(acc + 4 * i, 4) + ", da, p, 1, 1;\n";
    }
    mma += "wgmma.commit_group.sync.aligned;";
    rules.push_back({"wgmma_mma_r", da + 1, mma});
    rules.push_back({"wgmma_drain_r", da, "wgmma.wait_group.sync.aligned 0;"});
  } else if (wgmma_three_terms(ps)) {
    // 3xTF32: one k8 step's three products, with A's fragments in registers — lo {acc} .. {acc + 3},
    // hi {acc + 4} .. {acc + 7} — and B's hi and lo on descriptors {acc + 8} and {acc + 9} (with
    // B_MN, Bᵀ's fragments and A's descriptors); the first with the scale predicate false, which
    // starts from zero.
    const std::string mma3 = ".reg .pred p, z;\n.reg .b32 one;\n.reg .b64 bh, bl;\nmov.b32 one, 1;\n"
                             "setp.ne.b32 p, one, 0;\nsetp.eq.b32 z, one, 0;\nmov.b64 bh, {" + std::to_string(acc + 8) +
                             "};\nmov.b64 bl, {" + std::to_string(acc + 9) + "};\nwgmma.fence.sync.aligned;\n" +
                             op + register_list(acc, 4) + ", bh, z, 1, 1;\n" +
                             op + register_list(acc + 4, 4) + ", bl, p, 1, 1;\n" +
                             op + register_list(acc + 4, 4) + ", bh, p, 1, 1;\nwgmma.commit_group.sync.aligned;";
    rules.push_back({"wgmma_mma3", acc + 10, mma3});
    rules.push_back({"wgmma_wait_one_a", acc + 8, "wgmma.wait_group.sync.aligned 1;"});
    rules.push_back({"wgmma_drain_a", acc + 8, "wgmma.wait_group.sync.aligned 0;"});
  } else {
    const std::string da = "{" + std::to_string(acc) + "}", db = "{" + std::to_string(acc + 1) + "}";
    // The predicate p (true) makes each instruction add to the accumulators, which the kernel
    // zeroes; the descriptors advance by 32 bytes (2 in their 16-byte units) per instruction.
    std::string mma = ".reg .pred p;\n.reg .b32 one;\n.reg .b64 da, db;\nmov.b32 one, 1;\nsetp.ne.b32 p, one, 0;\n"
                      "mov.b64 da, " + da + ";\nmov.b64 db, " + db + ";\nwgmma.fence.sync.aligned;\n";
    for (size_t i = 0; i < mmas; ++i) {
      if (i) mma += std::string("add.s64 da, da, 2;\nadd.s64 db, db, ") + (b_mn ? "128" : "2") + ";\n";
      mma += op + "da, db" + tail;
    }
    mma += "wgmma.commit_group.sync.aligned;";
    // With INFLIGHT = 1, and always with WS, a warpgroup waits until only the current slice's
    // groups run: one per block of 64 rows.
    const long in_flight = p(ps, "INFLIGHT") == 1 || wgmma_warp_specialised(ps) ? 1 : 0;
    const std::string inflight = std::to_string(in_flight * p(ps, "WM") / 64);
    rules.push_back({"wgmma_mma", acc + 2, mma});
    rules.push_back({"wgmma_wait", acc, "wgmma.wait_group.sync.aligned " + inflight + ";"});
  }
  return rules;
}

const GemmKernelDescriptor& wgmma_descriptor() {
  static const GemmKernelDescriptor d = [] {
    GemmKernelDescriptor d;
    d.info = {0, "wgmma", "Hopper tensor-core kernel (wgmma through patched PTX) on K-major operands", "gemm/wgmma/wgmma.cl", {}};
    d.entry = "wgmma_gemm";
    d.sources = {"common/vectors.cl",         "common/batch.cl",         "common/cp_async.cl",
                 "common/device_fence.cl",    "gemm/wgmma/config.cl",    "gemm/wgmma/markers.cl",
                 "gemm/wgmma/schedule.cl",    "gemm/wgmma/staging.cl",   "gemm/wgmma/epilogue.cl",
                 "gemm/wgmma/split.cl",       "gemm/wgmma/warp_specialised.cl"};
    // BK counts elements of 16-bit inputs; TF32 configurations take half of it (wgmma_options).
    d.params = {
        {"BM", 128, 128, "rows of C per work-group", {64, 128, 192, 256}},
        {"BN", 128, 128, "columns of C per work-group: the N of each wgmma", {64, 128, 192, 256}},
        {"WM", 64, 64, "rows of C per warpgroup (one or two wgmma of 64 rows)", {64, 128}},
        {"BK", 32, 32, "K-depth of one pipeline slice (16-bit elements)", {16, 32, 64}},
        {"STAGES", 3, 3, "slices in the copy pipeline", {2, 3, 4, 5, 6}},
        {"INFLIGHT", 0, 0, "1: a slice's wgmma may still run while the next is issued", {0, 1}, 0},
        {"GROUP_M", 8, 8, "tiles of C per band of rows walked column by column", {4, 8, 16}},
        // Not tuned: the launch sets B_MN from B's layout, and TMA where it pays and maps encode.
        {"B_MN", 0, 0, "1: B read as stored (K×N rows), N-major in local memory (16-bit inputs)", {}, 0},
        // TMA 1 asks for the TMA copies below the size where the launch takes them on its own.
        {"TMA", 0, 0, "1: slices copied by the tensor memory accelerator (INFLIGHT 0, strided batches)", {}, 0},
        // Not tuned: the plan sets it from GemmOptions::math.
        {"TERMS", 1, 1, "tensor-core products per product: 1, or 3 (3xTF32 on float32 inputs, INFLIGHT 0)", {}, 0},
        // The schedule: warp-specialised (a TMA producer warpgroup, mbarriers, persistent
        // work-groups; wgmma/warp_specialised.cl) or not.
        {"WS", 0, 0, "1: a producer warpgroup copies by TMA for BM/WM consumers, persistent over tiles", {0, 1}, 0},
        // Not tuned: the launch sets them from WS and the work-groups per SM (wgmma_ws_registers).
        {"CONSUMER_REGS", 0, 0, "WS: registers per consumer work-item after setmaxnreg (0: none)", {}, 0},
        {"PRODUCER_REGS", 0, 0, "WS: registers per producer work-item after setmaxnreg (0: none)", {}, 0},
    };
    for (auto& spec : d.params) d.info.param_names.push_back(spec.name);
    d.constraints = {
        one_of("BM", {64, 128, 192, 256}),
        one_of("WM", {64, 128}),
        {"BM one to four times WM", [](const KernelParams& ps, const DeviceInfo&) {
           return p(ps, "BM") % p(ps, "WM") == 0 && p(ps, "BM") / p(ps, "WM") <= 4;
         }},
        one_of("BN", {64, 128, 192, 256}),
        one_of("BK", {16, 32, 64}),
        one_of("INFLIGHT", {0, 1}),
        {"STAGES from 2 to 8", [](const KernelParams& ps, const DeviceInfo&) {
           return p(ps, "STAGES") >= 2 && p(ps, "STAGES") <= 8;
         }},
        one_of("B_MN", {0, 1}),
        one_of("TMA", {0, 1}),
        {"TMA with INFLIGHT 0", [](const KernelParams& ps, const DeviceInfo&) {
           return p(ps, "TMA") == 0 || p(ps, "INFLIGHT") == 0;
         }},
        one_of("TERMS", {1, 3}),
        {"TERMS 3 with INFLIGHT 0", [](const KernelParams& ps, const DeviceInfo&) {
           return p(ps, "TERMS") == 1 || p(ps, "INFLIGHT") == 0;
         }},
        {"an N-major B with BK a multiple of 16", [](const KernelParams& ps, const DeviceInfo&) {
           return p(ps, "B_MN") == 0 || p(ps, "BK") % 16 == 0;
         }},
        // BK counts 16-bit elements: a row of a slice is BK / 8 copies of 16 bytes. WS copies by
        // TMA alone.
        {"a slice splits evenly into 16-byte copies over the work-group", [](const KernelParams& ps, const DeviceInfo&) {
           return wgmma_warp_specialised(ps) || (p(ps, "BM") + p(ps, "BN")) * (p(ps, "BK") / 8) % threads_of(ps) == 0;
         }},
        one_of("WS", {0, 1}),
        {"WS needs tensor maps (TMA)", [](const KernelParams& ps, const DeviceInfo& dev) {
           return !wgmma_warp_specialised(ps) || dev.tensor_maps;
         }},
        {"WS with TERMS 1 and INFLIGHT 0", [](const KernelParams& ps, const DeviceInfo&) {
           return !wgmma_warp_specialised(ps) || (p(ps, "TERMS") == 1 && p(ps, "INFLIGHT") == 0);
         }},
        {"setmaxnreg budgets in multiples of 8 from 24 to 256, with WS", [](const KernelParams& ps, const DeviceInfo&) {
           for (const char* name : {"CONSUMER_REGS", "PRODUCER_REGS"}) {
             const long r = p(ps, name);
             if (r != 0 && (!wgmma_warp_specialised(ps) || r < 24 || r > 256 || r % 8 != 0)) return false;
           }
           return true;
         }},
        {"needs sm_90a (an NVIDIA GPU of compute capability 9.0)",
         [](const KernelParams&, const DeviceInfo& dev) { return wgmma_architecture(dev); }},
    };
    d.a_form = OperandForm::AsStored;
    d.b_form = OperandForm::Transposed;
    d.multiples = [](const KernelParams&) { return Multiples{}; };
    d.global = [](const GemmShape& s, const KernelParams& ps) {
      const size_t tiles = ceil_div(s.m, p(ps, "BM")) * ceil_div(s.n, p(ps, "BN"));
      return cl::NDRange(tiles * threads_of(ps));
    };
    d.local = [](const KernelParams& ps) { return cl::NDRange(threads_of(ps)); };
    d.tile = [](const KernelParams& ps) { return std::make_pair(size_t(p(ps, "BM")), size_t(p(ps, "BN"))); };
    d.local_bytes = local_bytes_of;
    d.resident = resident_of;
    d.registers = registers_of;
    return d;
  }();
  return d;
}

}  // namespace clgemm::detail
