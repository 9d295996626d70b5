// wgmma_kernel.cpp — parameters, constraints, work sizes and PTX rules of gemm/wgmma.cl.
#include "kernels/gemm/wgmma_kernel.hpp"

#include <clgemm/error.hpp>

#include "kernels/nvidia_arch.hpp"

#include <algorithm>
#include <string>

namespace clgemm::detail {

bool wgmma_architecture(const DeviceInfo& device) { return nvidia_sm(device) == 90; }

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

namespace {

long threads_of(const KernelParams& ps) { return p(ps, "BM") / p(ps, "WM") * 128; }

// Accumulators (twice as many for 3xTF32's step sums, and its fragments of A), the copies'
// addresses and about 40 for the rest (descriptors, loop state).
size_t registers_of(const KernelParams& ps) {
  const size_t blocks = size_t(p(ps, "WM") / 64), acc = blocks * size_t(p(ps, "BN")) / 2;
  return wgmma_three_terms(ps) ? 2 * acc + 8 * blocks + 40 : acc + 40;
}

// Local memory: the stages, and for 3xTF32 lo buffers of a slice of B, one per warpgroup.
size_t local_bytes_of(const KernelParams& ps) {
  const size_t row = size_t(p(ps, "BK")) * 2, warpgroups = size_t(p(ps, "BM") / p(ps, "WM"));
  return size_t(p(ps, "STAGES")) * size_t(p(ps, "BM") + p(ps, "BN")) * row +
         (wgmma_three_terms(ps) ? warpgroups * size_t(p(ps, "BN")) * row : 0);
}

// Work-groups per SM by registers and by local memory (228 KiB per SM on sm_90, 1 KiB of it
// reserved per work-group).
size_t resident_of(const KernelParams& ps, const DeviceInfo& dev) {
  const size_t bytes = local_bytes_of(ps) + 1024;
  return std::max<size_t>(1, std::min(resident_by_registers(dev, registers_of(ps), size_t(threads_of(ps))),
                                      233472 / bytes));
}

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
KernelParams wgmma_tiles(const DeviceInfo& device, size_t m, size_t n, size_t k, size_t items, DataType type,
                         Math math) {
  const bool sixteen_bit = type == DataType::F16 || type == DataType::BF16;
  if (type == DataType::F32 && math == Math::Tf32x3) return {{"BM", 64}, {"BN", 64}, {"WM", 64}, {"BK", 64}, {"STAGES", 2}};
  const size_t units = std::max<size_t>(device.compute_units, 1);
  const size_t tiles = ceil_div(m, 128) * ceil_div(n, 128) * std::max<size_t>(items, 1);
  if (tiles < units) return {{"BM", 64}, {"BN", 64}, {"WM", 64}, {"BK", 64}, {"STAGES", 3}};
  if (sixteen_bit && items > 1 && k <= 512 && std::max(m, n) <= 384)
    return {{"BM", 64}, {"WM", 64}, {"BK", 64}, {"STAGES", 2}};
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
  std::vector<PtxMarkerRule> rules = {
      {"wgmma_drain", acc, "wgmma.wait_group.sync.aligned 0;"},
      {"tensormap_address", 2, "tensormap.replace.tile.global_address.global.b1024.b64 [{0}], {1};"}};
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
    // With INFLIGHT = 1 a warpgroup waits until only the current slice's groups run: one per block
    // of 64 rows.
    const std::string inflight = std::to_string(p(ps, "INFLIGHT") * p(ps, "WM") / 64);
    rules.push_back({"wgmma_mma", acc + 2, mma});
    rules.push_back({"wgmma_wait", acc, "wgmma.wait_group.sync.aligned " + inflight + ";"});
  }
  return rules;
}

const GemmKernelDescriptor& wgmma_descriptor() {
  static const GemmKernelDescriptor d = [] {
    GemmKernelDescriptor d;
    d.info = {0, "wgmma", "Hopper tensor-core kernel (wgmma through patched PTX) on K-major operands", "gemm/wgmma.cl", {}};
    d.entry = "wgmma_gemm";
    d.sources = {"common/vectors.cl",    "common/batch.cl",       "common/cp_async.cl",
                 "common/device_fence.cl", "gemm/wgmma/config.cl", "gemm/wgmma/markers.cl",
                 "gemm/wgmma/staging.cl", "gemm/wgmma/epilogue.cl", "gemm/wgmma/split.cl"};
    // BK counts elements of 16-bit inputs; TF32 configurations take half of it (wgmma_options).
    d.params = {
        {"BM", 128, 128, "rows of C per work-group", {64, 128, 256}},
        {"BN", 128, 128, "columns of C per work-group: the N of each wgmma", {64, 128, 256}},
        {"WM", 64, 64, "rows of C per warpgroup (one or two wgmma of 64 rows)", {64, 128}},
        {"BK", 32, 32, "K-depth of one pipeline slice (16-bit elements)", {16, 32, 64}},
        {"STAGES", 3, 3, "slices in the copy pipeline", {2, 3, 4}},
        {"INFLIGHT", 0, 0, "1: a slice's wgmma may still run while the next is issued", {0, 1}, 0},
        {"GROUP_M", 8, 8, "tiles of C per band of rows walked column by column", {4, 8, 16}},
        // Not tuned: the launch sets B_MN from B's layout, and TMA where it pays and maps encode.
        {"B_MN", 0, 0, "1: B read as stored (K×N rows), N-major in local memory (16-bit inputs)", {}, 0},
        // TMA 1 asks for the TMA copies below the size where the launch takes them on its own.
        {"TMA", 0, 0, "1: slices copied by the tensor memory accelerator (INFLIGHT 0, strided batches)", {}, 0},
        // Not tuned: the plan sets it from GemmOptions::math.
        {"TERMS", 1, 1, "tensor-core products per product: 1, or 3 (3xTF32 on float32 inputs, INFLIGHT 0)", {}, 0},
    };
    for (auto& spec : d.params) d.info.param_names.push_back(spec.name);
    d.constraints = {
        one_of("BM", {64, 128, 256}),
        one_of("WM", {64, 128}),
        {"BM one or two times WM", [](const KernelParams& ps, const DeviceInfo&) {
           return p(ps, "BM") % p(ps, "WM") == 0 && p(ps, "BM") / p(ps, "WM") <= 2;
         }},
        one_of("BN", {64, 128, 256}),
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
        // BK counts 16-bit elements: a row of a slice is BK / 8 copies of 16 bytes.
        {"a slice splits evenly into 16-byte copies over the work-group", [](const KernelParams& ps, const DeviceInfo&) {
           return (p(ps, "BM") + p(ps, "BN")) * (p(ps, "BK") / 8) % threads_of(ps) == 0;
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
