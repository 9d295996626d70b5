// wgmma_test.cpp — the wgmma path where no Hopper GPU is at hand: its markers patched in PTX that
// NVIDIA's compiler made of gemm/wgmma/wgmma.cl (recorded on an H100), the planner's choice and its
// fallback, the launch's in-place and packed operands, and the K-major pack run on this device.
// The kernel itself runs on the GPU (scripts/gpu/wgmma_check.cpp).
#include "exec/gemm_exec.hpp"
#include "kernels/gemm/wgmma/wgmma_kernel.hpp"
#include "kernels/util/pack_kmajor.hpp"
#include "runtime/ptx_markers.hpp"

#include "test_support.hpp"

#include <clgemm/cpu.hpp>
#include <clgemm/error.hpp>
#include <clgemm/gemm.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <iterator>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace clgemm::test {
namespace {

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// The configuration the recorded PTX was built with (f16 operands, f32 C).
const KernelParams kRecorded = {{"BM", 128}, {"BN", 128}, {"BK", 32},     {"WM", 128},
                                {"STAGES", 3}, {"INFLIGHT", 0}, {"GROUP_M", 8}};

std::string recorded_ptx() {
  std::ifstream in(std::string(CLGEMM_TEST_DATA) + "/wgmma_f16_128x128x32_wm128.ptx");
  EXPECT_TRUE(in) << "tests/data/wgmma_f16_128x128x32_wm128.ptx";
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// The operands of the first marker named `name` in `ptx`.
std::vector<std::string> marker_operands(const std::string& ptx, const std::string& name) {
  const size_t at = ptx.find("// PATCH:" + name + " ");
  EXPECT_NE(at, std::string::npos) << name;
  std::istringstream line(ptx.substr(at, ptx.find('\n', at) - at));
  std::string word;
  line >> word >> word;  // "//", "PATCH:name"
  std::vector<std::string> out;
  while (line >> word) out.push_back(word);
  return out;
}

TEST(WgmmaPatch, RecordedPtxGetsEveryMarkerAndTheTarget) {
  const std::string ptx = recorded_ptx();
  // Two blocks of 64 rows per warpgroup: an issue, a wait and a drain marker for each.
  ASSERT_EQ(count(ptx, "// PATCH:wgmma_mma "), 2u);
  ASSERT_EQ(count(ptx, "// PATCH:wgmma_wait "), 2u);
  ASSERT_EQ(count(ptx, "// PATCH:wgmma_drain "), 2u);
  const auto first = marker_operands(ptx, "wgmma_mma");
  ASSERT_EQ(first.size(), 66u) << "64 accumulators and two descriptors";

  const auto patched = detail::patch_ptx_markers(ptx, detail::wgmma_rules(kRecorded, DataType::F16), "sm_90a");
  EXPECT_EQ(patched.replaced, 6u);
  EXPECT_EQ(count(patched.ptx, "// PATCH:"), 0u);
  EXPECT_EQ(count(patched.ptx, ".target sm_90a"), 1u);
  EXPECT_EQ(count(patched.ptx, ".target sm_90,"), 0u);
  // BK = 32 f16 elements are 64 bytes of a row: two k16 instructions per block and slice.
  EXPECT_EQ(count(patched.ptx, "wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16"), 4u);
  EXPECT_EQ(count(patched.ptx, "wgmma.commit_group.sync.aligned;"), 2u);
  EXPECT_EQ(count(patched.ptx, "wgmma.wait_group.sync.aligned 0;"), 4u) << "INFLIGHT = 0: waits and drains";
  // The instruction names the registers the compiler wrote into the marker, in their order.
  const size_t at = patched.ptx.find("wgmma.mma_async");
  const std::string instruction = patched.ptx.substr(at, patched.ptx.find(';', at) - at);
  EXPECT_NE(instruction.find("{" + first[0] + ", " + first[1] + ", "), std::string::npos) << instruction;
  EXPECT_NE(instruction.find(first[63] + "}, da, db, p, 1, 1, 0, 0"), std::string::npos) << instruction;
  EXPECT_NE(patched.ptx.find("mov.b64 da, " + first[64] + ";"), std::string::npos);
  EXPECT_NE(patched.ptx.find("mov.b64 db, " + first[65] + ";"), std::string::npos);
}

TEST(WgmmaPatch, RulesOfAnotherConfigurationAreRefused) {
  KernelParams narrow = kRecorded;
  narrow["BN"] = 64;  // 32 accumulators: the recorded markers carry 64
  try {
    detail::patch_ptx_markers(recorded_ptx(), detail::wgmma_rules(narrow, DataType::F16), "sm_90a");
    FAIL() << "a marker of 66 operands patched by a rule of 34";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::BuildFailure);
    EXPECT_NE(std::string(e.what()).find("wgmma_mma"), std::string::npos) << e.what();
  }
}

TEST(WgmmaPatch, RulesFollowTheArithmetic) {
  const auto text = [](DataType in, long bk, long inflight, long wm) {
    KernelParams ps = kRecorded;
    ps["BK"] = bk, ps["INFLIGHT"] = inflight, ps["WM"] = wm;
    std::string all;
    for (const auto& r : detail::wgmma_rules(ps, in)) all += r.name + ":" + r.body + "\n";
    return all;
  };
  EXPECT_EQ(count(text(DataType::BF16, 32, 0, 64), ".f32.bf16.bf16"), 2u);
  EXPECT_EQ(count(text(DataType::F32, 32, 0, 64), "m64n128k8.f32.tf32.tf32"), 2u) << "TF32: 8 deep, 32 bytes";
  EXPECT_EQ(count(text(DataType::F32, 32, 0, 64), ", p, 1, 1;"), 2u) << "TF32 takes no transpose immediates";
  EXPECT_EQ(count(text(DataType::F16, 64, 0, 64), "wgmma.mma_async"), 4u) << "128-byte rows: four k16 steps";
  EXPECT_NE(text(DataType::F16, 32, 1, 64).find("wgmma_wait:wgmma.wait_group.sync.aligned 1;"), std::string::npos);
  EXPECT_NE(text(DataType::F16, 32, 1, 128).find("wgmma_wait:wgmma.wait_group.sync.aligned 2;"), std::string::npos)
      << "two groups per slice where a warpgroup has two blocks";
  EXPECT_THROW(detail::wgmma_rules(kRecorded, DataType::F64), Error);
  // An N-major B: wgmma's transpose flag for B, and 16 rows of 128 bytes per k16 step.
  KernelParams mn = kRecorded;
  mn["B_MN"] = 1;
  std::string all;
  for (const auto& r : detail::wgmma_rules(mn, DataType::F16)) all += r.body;
  EXPECT_EQ(count(all, ", da, db, p, 1, 1, 0, 1;"), 2u) << all;
  EXPECT_EQ(count(all, "add.s64 db, db, 128;"), 1u) << all;
  EXPECT_EQ(count(all, "add.s64 da, da, 2;"), 1u) << all;
}

// A float32 B as stored goes through registers (B_REGS): per slice and block, one fence, the k8
// steps with four fragment registers each after the accumulators and A's descriptor advanced 32
// bytes a step, one commit; the wait names the same fragments. Tiles it does not fit are refused.
TEST(WgmmaPatch, AnNMajorTf32BTakesRegisterFragments) {
  KernelParams ps = kRecorded;  // 128×128, 16-float slices: two k8 steps
  ps["B_MN"] = 1, ps["WM"] = 64;
  const auto rules = detail::wgmma_rules(ps, DataType::F32);
  std::string mma, drain;
  for (const auto& r : rules) {
    if (r.name == "wgmma_mma_r") {
      mma = r.body;
      EXPECT_EQ(r.operands, 64u + 8 + 1);
    }
    if (r.name == "wgmma_drain_r") {
      drain = r.body;
      EXPECT_EQ(r.operands, 64u + 8);
    }
    EXPECT_NE(r.name, "wgmma_mma") << "no descriptor pair for B";
  }
  EXPECT_EQ(count(mma, "wgmma.fence.sync.aligned;"), 1u) << mma;
  EXPECT_EQ(count(mma, "m64n128k8.f32.tf32.tf32"), 2u) << mma;
  EXPECT_EQ(count(mma, ", {{64}, {65}, {66}, {67}}, da, p, 1, 1;"), 1u) << mma;
  EXPECT_EQ(count(mma, ", {{68}, {69}, {70}, {71}}, da, p, 1, 1;"), 1u) << mma;
  EXPECT_EQ(count(mma, "mov.b64 da, {72};"), 1u) << mma;
  EXPECT_EQ(count(mma, "add.s64 da, da, 2;"), 1u) << mma;
  EXPECT_EQ(count(mma, "wgmma.commit_group.sync.aligned;"), 1u) << mma;
  EXPECT_EQ(drain, "wgmma.wait_group.sync.aligned 0;");
  EXPECT_TRUE(detail::wgmma_b_registers_fit(ps));
  // 3xTF32 takes its three products per step with Bᵀ's fragments as it does with A's.
  KernelParams three = ps;
  three["TERMS"] = 3;
  EXPECT_TRUE(detail::wgmma_b_registers_fit(three));
  std::string names;
  for (const auto& r : detail::wgmma_rules(three, DataType::F32)) names += r.name + " ";
  EXPECT_NE(names.find("wgmma_mma3"), std::string::npos) << names;
  EXPECT_EQ(names.find("wgmma_mma_r"), std::string::npos) << names;
  for (const KernelParams& no : {KernelParams{{"BN", 64}}, KernelParams{{"BK", 16}}, KernelParams{{"INFLIGHT", 1}},
                                 KernelParams{{"BM", 256}, {"BN", 256}}}) {
    KernelParams q = ps;
    for (const auto& [name, value] : no) q[name] = value;
    EXPECT_FALSE(detail::wgmma_b_registers_fit(q)) << detail::build_options(q);
    EXPECT_THROW(detail::wgmma_rules(q, DataType::F32), Error) << detail::build_options(q);
  }
}

TEST(WgmmaPatch, ThreeTermsIssueThreeProductsPerStep) {
  KernelParams ps = kRecorded;
  ps["TERMS"] = 3;
  std::string mma3, wait_one, drain;
  for (const auto& r : detail::wgmma_rules(ps, DataType::F32)) {
    if (r.name == "wgmma_mma3") {
      mma3 = r.body;
      EXPECT_EQ(r.operands, 74u) << "64 step accumulators, two fragments of A and two descriptors";
    }
    if (r.name == "wgmma_wait_one_a") wait_one = r.body;
    if (r.name == "wgmma_drain_a") drain = r.body;
    EXPECT_NE(r.name, "wgmma_mma") << "3xTF32 issues no single products";
  }
  // a_lo·b_hi from zero (predicate z, false), then a_hi·b_lo and a_hi·b_hi added, one commit; A's
  // fragments are registers, B's descriptors the last two operands.
  const std::string lo = "{{64}, {65}, {66}, {67}}", hi = "{{68}, {69}, {70}, {71}}";
  const size_t lo_hi = mma3.find(lo + ", bh, z, 1, 1;"), hi_lo = mma3.find(hi + ", bl, p, 1, 1;"),
               hi_hi = mma3.find(hi + ", bh, p, 1, 1;");
  ASSERT_NE(lo_hi, std::string::npos) << mma3;
  ASSERT_NE(hi_lo, std::string::npos) << mma3;
  ASSERT_NE(hi_hi, std::string::npos) << mma3;
  EXPECT_LT(lo_hi, hi_lo);
  EXPECT_LT(hi_lo, hi_hi);
  EXPECT_EQ(count(mma3, "m64n128k8.f32.tf32.tf32"), 3u) << mma3;
  EXPECT_EQ(count(mma3, "wgmma.commit_group"), 1u) << mma3;
  EXPECT_NE(mma3.find("setp.eq.b32 z, one, 0;"), std::string::npos) << mma3;
  EXPECT_NE(mma3.find("mov.b64 bh, {72};"), std::string::npos) << mma3;
  EXPECT_NE(mma3.find("mov.b64 bl, {73};"), std::string::npos) << mma3;
  EXPECT_EQ(wait_one, "wgmma.wait_group.sync.aligned 1;");
  EXPECT_EQ(drain, "wgmma.wait_group.sync.aligned 0;");
  EXPECT_THROW(detail::wgmma_rules(ps, DataType::F16), Error) << "3xTF32 splits float32 inputs only";
}

DeviceInfo hopper(bool patching) {
  return patching ? fake_h200_for_wgmma() : fake_h200();
}

TEST(WgmmaPlan, TakenForItsArithmeticWherePatchingWorks) {
  const DeviceInfo d = hopper(true);
  EXPECT_EQ(plan_gemm(d, 4096, 4096, 4096, {}, DataType::F16).path, GemmPath::Wgmma);
  EXPECT_EQ(plan_gemm(d, 1000, 777, 129, {}, DataType::BF16).path, GemmPath::Wgmma);
  GemmOptions tf32;
  tf32.math = Math::Tf32;
  EXPECT_EQ(plan_gemm(d, 4096, 4096, 4096, tf32, DataType::F32).path, GemmPath::Wgmma);
  EXPECT_EQ(plan_gemm(d, 64, 64, 64, {}, DataType::F16).path, GemmPath::Wgmma);
  // Not its arithmetic, or too small a C or K for its tiles.
  EXPECT_NE(plan_gemm(d, 4096, 4096, 4096, {}, DataType::F32).path, GemmPath::Wgmma);
  // 3xTF32: three products per k8 step (TERMS 3), from 2^31 multiply-adds in 64×64 tiles that
  // give every compute unit one.
  GemmOptions three;
  three.math = Math::Tf32x3;
  const GemmPlan big = plan_gemm(d, 4096, 4096, 4096, three, DataType::F32);
  EXPECT_EQ(big.path, GemmPath::Wgmma);
  EXPECT_EQ(big.params.at("TERMS"), 3);
  EXPECT_NE(big.reason.find("3xTF32"), std::string::npos) << big.reason;
  EXPECT_EQ(plan_gemm(d, 4096, 4096, 4096, tf32, DataType::F32).params.at("TERMS"), 1);
  EXPECT_NE(plan_gemm(d, 1024, 1024, 1024, three, DataType::F32).path, GemmPath::Wgmma) << "under 2^31";
  EXPECT_EQ(plan_gemm(d, 1024, 1024, 2048, three, DataType::F32).path, GemmPath::Wgmma);
  EXPECT_NE(plan_gemm(d, 256, 256, 65536, three, DataType::F32).path, GemmPath::Wgmma) << "16 tiles for 132 units";
  EXPECT_TRUE(detail::wgmma_three_terms_pay(d, 256, 256, 256, 256)) << "a batch counts all its tiles and work";
  EXPECT_FALSE(detail::wgmma_three_terms_pay(d, 256, 256, 256, 8));
  // Forced parameters keep the arithmetic asked for.
  three.force_path = GemmPath::Wgmma;
  three.force_params = {{"STAGES", 2}, {"TERMS", 1}};
  EXPECT_EQ(plan_gemm(d, 256, 256, 256, three, DataType::F32).params.at("TERMS"), 3);
  EXPECT_NE(plan_gemm(d, 4096, 4096, 4096, {}, DataType::F64).path, GemmPath::Wgmma);
  EXPECT_NE(plan_gemm(d, 63, 1024, 1024, {}, DataType::F16).path, GemmPath::Wgmma);
  // Except a few rows against large weights (wgmma_short_rows_test.cpp).
  EXPECT_EQ(plan_gemm(d, 63, 4096, 4096, {}, DataType::F16).path, GemmPath::Wgmma);
  EXPECT_NE(plan_gemm(d, 4096, 4096, 32, {}, DataType::F16).path, GemmPath::Wgmma);
}

TEST(WgmmaPlan, TilesFollowTheShapeAndTheInputs) {
  const DeviceInfo d = hopper(true);  // 132 compute units
  const auto params = [&](size_t m, size_t n, size_t k, DataType t, size_t batch = 1) {
    GemmOptions o;
    if (t == DataType::F32) o.math = Math::Tf32;
    return plan_gemm(d, m, n, k, o, t, batch).params;
  };
  // Enough 128×128 tiles: the defaults.
  KernelParams big = params(4096, 4096, 4096, DataType::F16);
  EXPECT_EQ(big.at("BM"), 128);
  EXPECT_EQ(big.at("BK"), 32);
  EXPECT_EQ(big.at("STAGES"), 3);
  // Too few: 64×64 tiles in three slices of 128-byte rows (BK counts 16-bit elements), for 16-bit
  // inputs and TF32 alike.
  for (const DataType t : {DataType::F16, DataType::F32}) {
    const KernelParams small = params(1024, 1024, 1024, t);
    EXPECT_EQ(small.at("BM"), 64);
    EXPECT_EQ(small.at("BN"), 64);
    EXPECT_EQ(small.at("BK"), 64);
    EXPECT_EQ(small.at("STAGES"), 3);
  }
  // Batches of short 16-bit products of items up to 384 on a side: 64×128 tiles in two slices of
  // 64; larger or deeper items and TF32 keep the defaults.
  const KernelParams batch = params(256, 256, 256, DataType::BF16, 256);
  EXPECT_EQ(batch.at("BM"), 64);
  EXPECT_EQ(batch.at("BN"), 128);
  EXPECT_EQ(batch.at("BK"), 64);
  EXPECT_EQ(batch.at("STAGES"), 2);
  const KernelParams items512 = params(512, 512, 512, DataType::F16, 64);
  EXPECT_EQ(items512.at("BM"), 128);
  EXPECT_EQ(items512.at("BN"), 128);
  EXPECT_EQ(items512.at("BK"), 32);
  EXPECT_EQ(params(1024, 1024, 1024, DataType::F16, 32).at("BN"), 128);
  EXPECT_EQ(params(512, 512, 512, DataType::F32, 64).at("BK"), 32);
  // One warpgroup per 128×128 tile (three per SM) where it fills the last round clearly better:
  // 2304³ takes 3 slots per SM against 4, 4097³ 9 against 10; 8193³ (33 against 34), 4096³ and
  // TF32 keep two.
  EXPECT_EQ(params(2304, 2304, 2304, DataType::F16).at("WM"), 128);
  EXPECT_EQ(params(4097, 4097, 4097, DataType::BF16).at("WM"), 128);
  EXPECT_EQ(params(4097, 4097, 4097, DataType::BF16).at("BM"), 128);
  // 16-bit tiles walk bands of 16 tile rows; TF32's keep the descriptor's 8.
  EXPECT_EQ(params(4097, 4097, 4097, DataType::BF16).at("GROUP_M"), 16);
  EXPECT_EQ(params(4096, 4096, 4096, DataType::F16).at("GROUP_M"), 16);
  EXPECT_EQ(params(4096, 4096, 4096, DataType::F32).at("GROUP_M"), 8);
  EXPECT_EQ(params(8193, 8193, 8193, DataType::F16).at("WM"), 64);
  EXPECT_EQ(params(4096, 4096, 4096, DataType::F16).at("WM"), 64);
  EXPECT_EQ(params(2304, 2304, 2304, DataType::F32).at("WM"), 64);
  // 3xTF32: 256×64 tiles of four warpgroups in four slices of 32 floats where they fill every SM and
  // the static local limit holds them with two lo buffers of B; else 64×64 tiles of one warpgroup
  // in two slices and one lo buffer.
  GemmOptions three;
  three.math = Math::Tf32x3;
  const KernelParams tall = plan_gemm(d, 4096, 4096, 4096, three, DataType::F32).params;
  EXPECT_EQ(tall.at("TERMS"), 3);
  EXPECT_EQ(tall.at("BM"), 256);
  EXPECT_EQ(tall.at("BN"), 64);
  EXPECT_EQ(tall.at("WM"), 64);
  EXPECT_EQ(tall.at("STAGES"), 4);
  const KernelParams x3 = plan_gemm(d, 1024, 1024, 4096, three, DataType::F32).params;  // 64 tiles of 256×64
  EXPECT_EQ(x3.at("BM"), 64);
  EXPECT_EQ(x3.at("BN"), 64);
  EXPECT_EQ(x3.at("BK"), 64);
  EXPECT_EQ(x3.at("STAGES"), 2);
  DeviceInfo dynamic_only = d;
  dynamic_only.static_local_bytes = 49152;
  EXPECT_EQ(plan_gemm(dynamic_only, 4096, 4096, 4096, three, DataType::F32).params.at("BM"), 64)
      << "181 KiB of tall tiles do not fit 48 KiB";
  // The stages, 3xTF32's lo buffers, and 1 KiB for the barriers before the aligned stages.
  const auto& desc = detail::wgmma_descriptor();
  const size_t barriers = 1024;
  EXPECT_EQ(desc.local_bytes(x3), 2u * 128 * 128 + 64 * 128 + barriers);
  EXPECT_EQ(desc.local_bytes(tall), 4u * 320 * 128 + 2 * 64 * 128 + barriers);
  KernelParams two = x3;
  two["BM"] = 128;
  EXPECT_EQ(desc.local_bytes(two), 2u * 192 * 128 + 2 * 64 * 128 + barriers);
  two["TERMS"] = 1;
  EXPECT_EQ(desc.local_bytes(two), 2u * 192 * 128 + barriers);
}

TEST(WgmmaPlan, FallsBackAndSaysWhy) {
  const DeviceInfo refused = hopper(false);
  const GemmPlan f16 = plan_gemm(refused, 4096, 4096, 4096, {}, DataType::F16);
  EXPECT_NE(f16.path, GemmPath::Wgmma);
  EXPECT_NE(f16.reason.find("not the wgmma path"), std::string::npos) << f16.reason;
  // TF32 falls back to mma.sync (the tensor path), and says why.
  GemmOptions tf32;
  tf32.math = Math::Tf32;
  const GemmPlan t = plan_gemm(refused, 4096, 4096, 4096, tf32, DataType::F32);
  EXPECT_EQ(t.path, GemmPath::Tensor);
  EXPECT_NE(t.reason.find("not the wgmma path"), std::string::npos) << t.reason;
  // A device that is no Hopper (PoCL in CI): planning_device finds nothing, and plans say nothing.
  const DeviceInfo& info = shared_context().info();
  if (!detail::wgmma_architecture(info)) {
    const DeviceInfo here = planning_device(info);
    EXPECT_FALSE(here.sm90a_patching);
    EXPECT_EQ(plan_gemm(here, 512, 512, 512, {}, DataType::F16).reason.find("wgmma"), std::string::npos);
  }
}

TEST(WgmmaPlan, ForcedWhereItCannotRunIsRefusedClearly) {
  GemmOptions forced;
  forced.force_path = GemmPath::Wgmma;
  try {
    plan_gemm(hopper(false), 256, 256, 256, forced, DataType::F16);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::InvalidArgument);
    EXPECT_NE(std::string(e.what()).find("sm_90a"), std::string::npos) << e.what();
  }
  try {
    plan_gemm(hopper(true), 256, 256, 256, forced, DataType::F32);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::InvalidArgument);
    EXPECT_NE(std::string(e.what()).find("f32 with FP32"), std::string::npos) << e.what();
  }
  // Forced, it takes small shapes too; parameters the kernel cannot build are refused up front.
  EXPECT_EQ(plan_gemm(hopper(true), 8, 8, 8, forced, DataType::F16).path, GemmPath::Wgmma);
  GemmOptions uneven = forced;
  uneven.force_params = {{"BN", 64}, {"BK", 16}};  // 192 rows of two copies over 256 work-items
  try {
    plan_gemm(hopper(true), 256, 256, 256, uneven, DataType::F16);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::InvalidArgument);
    EXPECT_NE(std::string(e.what()).find("16-byte copies"), std::string::npos) << e.what();
  }
}

// The commands a row-major f16 call (float32 with a tensor `math`) runs on a Hopper with patching.
std::vector<std::string> commands_of(GemmCall call, size_t batch = 1, const GemmOptions& options = {}) {
  if (options.math == Math::Fp32) call.a_type = call.b_type = DataType::F16, call.c_type = DataType::F32;
  const CallPlan plan =
      plan_call(hopper(true), call, options, batch, call.m * call.a.ld, call.n * call.b.ld, call.m * call.c.ld);
  std::vector<std::string> out;
  for (const auto& c : plan.commands) out.push_back(c.what.substr(0, c.what.find(':')));
  return out;
}

GemmCall call_of(size_t m, size_t n, size_t k, bool ta, bool tb, size_t lda, size_t ldb) {
  GemmCall c;
  c.m = m, c.n = n, c.k = k;
  c.a_transpose = ta ? Transpose::Yes : Transpose::No, c.b_transpose = tb ? Transpose::Yes : Transpose::No;
  c.a.ld = lda, c.b.ld = ldb, c.c.ld = n;
  return c;
}

TEST(WgmmaLaunch, ReadsKMajorAlignedOperandsInPlaceAndPacksTheRest) {
  using V = std::vector<std::string>;
  // A as stored and B transposed, rows on 128-byte boundaries (64 f16 elements): nothing to copy.
  EXPECT_EQ(commands_of(call_of(1000, 1000, 1000, false, true, 1024, 1024)), V({"wgmma"}));
  EXPECT_EQ(commands_of(call_of(1000, 1000, 1000, false, true, 1024, 1024), 3), V({"wgmma"}));
  // B as stored (K×N) is transposed into N×K; A transposed likewise.
  // B as stored (K×N), 16-bit, on cache lines: in place too, N-major (B_MN), under 4096 rows of C;
  // off them, or from 4096 rows, copied N×K.
  EXPECT_EQ(commands_of(call_of(1000, 1000, 1000, false, false, 1024, 1024)), V({"wgmma"}));
  EXPECT_EQ(commands_of(call_of(1000, 1000, 1000, false, false, 1024, 1000)), V({"pack op(B)ᵀ", "wgmma"}));
  EXPECT_EQ(commands_of(call_of(4096, 1000, 1000, false, false, 1024, 1024)), V({"pack op(B)ᵀ", "wgmma"}));
  EXPECT_EQ(commands_of(call_of(1000, 1000, 1000, true, true, 1024, 1024)), V({"pack op(A)", "wgmma"}));
  // TF32 reads B as stored on cache lines (32 floats) through registers under 3072 rows of C, where
  // the tile is square; from 3072 rows, and in other tiles, B is transposed into N×K first.
  GemmOptions tf32;
  tf32.math = Math::Tf32;
  EXPECT_EQ(commands_of(call_of(1000, 1000, 1000, false, false, 1024, 1024), 1, tf32), V({"wgmma"}));
  EXPECT_EQ(commands_of(call_of(3071, 1000, 1000, false, false, 1024, 1024), 1, tf32), V({"wgmma"}));
  EXPECT_EQ(commands_of(call_of(3072, 1000, 1000, false, false, 1024, 1024), 1, tf32), V({"pack op(B)ᵀ", "wgmma"}));
  EXPECT_EQ(commands_of(call_of(100, 200, 300, false, false, 1024, 1024), 3, tf32), V({"wgmma"}));
  EXPECT_EQ(commands_of(call_of(1000, 1000, 1000, false, false, 1024, 1000), 1, tf32), V({"pack op(B)ᵀ", "wgmma"}));
  // 3xTF32 reads it so at every size in its square tiles; its tall 256×64 ones take B transposed.
  GemmOptions three = tf32;
  three.math = Math::Tf32x3;
  EXPECT_EQ(commands_of(call_of(1024, 1024, 4096, false, false, 4096, 4096), 1, three), V({"wgmma"}));
  EXPECT_EQ(commands_of(call_of(4096, 4096, 4096, false, false, 4096, 4096), 1, three), V({"pack op(B)ᵀ", "wgmma"}));
  EXPECT_EQ(commands_of(call_of(4096, 4096, 4096, false, true, 4096, 4096), 1, three), V({"wgmma"}));
  tf32.force_path = GemmPath::Wgmma;
  tf32.force_params = {{"BM", 128}, {"BN", 64}};
  EXPECT_EQ(commands_of(call_of(1000, 1000, 1000, false, false, 1024, 1024), 1, tf32), V({"pack op(B)ᵀ", "wgmma"}));
  // Rows that do not start on a cache line: copied, whatever the layout.
  EXPECT_EQ(commands_of(call_of(1000, 1000, 1000, false, true, 1000, 1000)), V({"pack op(A)", "pack op(B)ᵀ", "wgmma"}));
  EXPECT_EQ(commands_of(call_of(1000, 1000, 1001, false, true, 1001, 1024)), V({"pack op(A)", "wgmma"}));
  GemmCall shifted = call_of(1000, 1000, 1000, false, true, 1024, 1024);
  shifted.a.offset = 8;
  EXPECT_EQ(commands_of(shifted), V({"pack op(A)", "wgmma"}));
  // The packed rows are padded to 128 bytes: 1001 f16 elements take 1024.
  GemmCall odd = call_of(100, 200, 1001, true, false, 100, 200);
  odd.a_type = odd.b_type = DataType::F16, odd.c_type = DataType::F32;
  const CallPlan plan = plan_call(hopper(true), odd);
  ASSERT_EQ(plan.temporaries.size(), 2u);
  EXPECT_EQ(plan.temporaries[0].bytes, 100u * 1024 * 2);
  EXPECT_EQ(plan.temporaries[1].bytes, 200u * 1024 * 2);
}

// pack_kmajor on this device: every element of op(X) bit for bit, zeros to the padded row length,
// nothing written past the last item.
template <typename T>
void check_pack(size_t rows, size_t depth, size_t ld, bool transposed, size_t items) {
  const DataType type = sizeof(T) == 2 ? DataType::F16 : DataType::F32;
  const size_t stored_rows = transposed ? depth : rows, src_item = stored_rows * ld + 3;
  const size_t out_ld = detail::kmajor_row(depth, type), dst_item = rows * out_ld, guard = 64;
  std::mt19937 rng(unsigned(rows * 31 + depth));
  std::vector<T> src(items * src_item + 5);
  for (auto& v : src) v = T(rng());
  const T sentinel = T(0x5a5a5a5au);
  std::vector<T> dst(items * dst_item + guard, sentinel);
  const Context& ctx = shared_context();
  cl::Buffer sb(ctx.context(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, src.size() * sizeof(T), src.data());
  cl::Buffer db(ctx.context(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, dst.size() * sizeof(T), dst.data());
  detail::LaunchPlan plan;
  plan.parts = 1;
  plan.commands.push_back(detail::pack_kmajor_command(
      {detail::KernelArg::mem(detail::BufferRole::A), 5, rows, depth, ld, transposed, type},
      detail::KernelArg::mem(detail::BufferRole::C), {items, src_item, dst_item}));
  detail::enqueue_plan(ctx, ctx.queue(), plan, {sb(), nullptr, db()}).wait();
  ctx.queue().enqueueReadBuffer(db, CL_TRUE, 0, dst.size() * sizeof(T), dst.data());
  size_t wrong = 0;
  for (size_t it = 0; it < items; ++it)
    for (size_t r = 0; r < rows; ++r)
      for (size_t k = 0; k < out_ld; ++k) {
        const T want = k >= depth ? T(0) : src[5 + it * src_item + (transposed ? k * ld + r : r * ld + k)];
        wrong += dst[it * dst_item + r * out_ld + k] != want;
      }
  for (size_t g = 0; g < guard; ++g) wrong += dst[items * dst_item + g] != sentinel;
  EXPECT_EQ(wrong, 0u) << rows << "x" << depth << " ld " << ld << (transposed ? " transposed" : "") << ", " << items
                       << " items";
}

TEST(WgmmaLaunch, PackCopiesBitsIntoAlignedRows) {
  for (const bool t : {false, true}) {
    check_pack<uint16_t>(1, 1, 1, t, 1);
    check_pack<uint16_t>(7, 13, 13, t, 2);
    check_pack<uint16_t>(65, 127, 130, t, 3);
    check_pack<uint16_t>(129, 33, 140, t, 1);
    check_pack<uint32_t>(63, 65, 70, t, 2);
    check_pack<uint32_t>(33, 7, 40, t, 1);
    // Rows longer than one work-group's 256 (16-bit) or 128 (32-bit) elements of a copy.
    check_pack<uint16_t>(5, 300, 301, t, 2);
    check_pack<uint32_t>(3, 130, 131, t, 1);
  }
}

}  // namespace
}  // namespace clgemm::test

namespace clgemm::test {
namespace {

// Batches through the wgmma kernel on this device, where it runs (an sm_90 whose driver builds the
// patched program; skipped elsewhere): strided and listed, with A and B read in place (B stored
// transposed) and packed (B as stored), per-item alpha and beta, against float64 with guard zones.
// f16 operands multiply exactly and sum in float32; f32 ones are read as TF32 (Math::Tf32), each
// losing up to 2^-10 of itself, or as 3xTF32 (`math`), to about float32's accuracy. With `tma`,
// the TMA copies are asked for (TMA = 1), and taken wherever this device encodes tensor maps.
void check_batch_on_device(DataType in, bool b_transposed, bool listed, bool aligned, bool tma = false,
                           size_t items = 3, Math math = Math::Tf32) {
  const size_t m = 70, n = 130, k = 90;
  // Rows and items on 128 bytes where read in place (A; an aligned B, transposed or, 16-bit, as
  // stored), not where B is packed (ldb = 136).
  const size_t lda = 128, ldb = aligned ? (b_transposed ? 128 : 192) : 136, ldc = n + 5;
  const size_t a_item = m * lda + 64, b_item = (b_transposed ? n : k) * ldb + (aligned ? 64 : 8), c_item = m * ldc + 7;
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1, 1);
  const auto random = [&](size_t count) { return random_stored(in, count, rng); };
  const std::vector<double> a = random(items * a_item), b = random(items * b_item);
  std::vector<double> c = random(items * c_item + 16);
  const std::vector<double> alphas = {1.0, -0.5, 2.0}, betas = {0.0, 0.75, -1.0};
  const Context& ctx = shared_context();
  cl::Buffer da = upload_as(ctx, in, a), db = upload_as(ctx, in, b), dc = upload_as(ctx, DataType::F32, c);
  GemmCall call;
  call.m = m, call.n = n, call.k = k;
  call.b_transpose = b_transposed ? Transpose::Yes : Transpose::No;
  call.a = {da(), 0, lda}, call.b = {db(), 0, ldb}, call.c = {dc(), 0, ldc};
  call.a_type = call.b_type = in, call.c_type = DataType::F32;
  GemmOptions forced;
  forced.force_path = GemmPath::Wgmma;
  if (in == DataType::F32) forced.math = math;
  if (tma) {
    forced.force_params = {{"TMA", 1}};
    const DeviceInfo device = planning_device(ctx.info());
    const CallPlan plan = plan_call(device, call, forced, items, items * a_item, items * b_item, items * c_item);
    const bool by_tma = plan.commands.back().options.find("-DTMA=1") != std::string::npos;
    EXPECT_EQ(by_tma, device.tensor_maps && !listed) << plan.describe();
  }
  const double unit = in == DataType::F32 && math == Math::Tf32 ? std::ldexp(1.0, -9) : (k + 4) * 1.2e-7;
  std::vector<size_t> ao, bo, co;
  for (size_t i = 0; i < items; ++i) ao.push_back(i * a_item), bo.push_back(i * b_item), co.push_back(i * c_item);
  cl_event ev = nullptr;
  if (listed) {
    gemm_batched(call, alphas, betas, ao, bo, co, ctx.queue()(), &ev, forced);
  } else {
    call.alpha = alphas[1], call.beta = betas[1];
    gemm_strided_batched(call, a_item, b_item, c_item, items, ctx.queue()(), &ev, forced);
  }
  wait_and_release(ev);
  std::vector<float> got(c.size());
  ctx.queue().enqueueReadBuffer(dc, CL_TRUE, 0, got.size() * sizeof(float), got.data());
  size_t wrong = 0;
  for (size_t x = 0; x < c.size(); ++x) {
    const size_t item = x / c_item, at = x % c_item, i = at / ldc, j = at % ldc;
    if (item >= items || i >= m || j >= n) {
      wrong += got[x] != float(c[x]);
      continue;
    }
    const double alpha = listed ? alphas[item] : alphas[1], beta = listed ? betas[item] : betas[1];
    double sum = 0, mag = 0;
    for (size_t p = 0; p < k; ++p) {
      const double y = b_transposed ? b[item * b_item + j * ldb + p] : b[item * b_item + p * ldb + j];
      sum += a[item * a_item + i * lda + p] * y, mag += std::fabs(a[item * a_item + i * lda + p] * y);
    }
    const double want = alpha * sum + beta * c[x];
    wrong += !(std::fabs(got[x] - want) <= unit * (std::fabs(alpha) * mag + std::fabs(beta * c[x])) + 1e-30);
  }
  EXPECT_EQ(wrong, 0u) << data_type_name(in) << (math == Math::Tf32x3 ? " 3xTF32" : "") << ", "
                       << (listed ? "listed" : "strided")
                       << (b_transposed ? ", B transposed" : ", B as stored") << ", ldb " << ldb << (tma ? ", TMA" : "")
                       << ", " << items << " items";
}

TEST(WgmmaOnDevice, BatchesStridedAndListed) {
  if (!planning_device(shared_context().info()).sm90a_patching)
    GTEST_SKIP() << "no wgmma here: the device is not an sm_90 whose driver builds PTX patched for sm_90a";
  for (const DataType in : {DataType::F16, DataType::F32})
    for (const bool t : {true, false})
      for (const bool aligned : {true, false})
        for (const bool listed : {false, true}) check_batch_on_device(in, t, listed, aligned);
}

TEST(WgmmaOnDevice, TmaCopiesSingleProductsAndStridedBatches) {
  if (!planning_device(shared_context().info()).sm90a_patching)
    GTEST_SKIP() << "no wgmma here: the device is not an sm_90 whose driver builds PTX patched for sm_90a";
  for (const DataType in : {DataType::F16, DataType::BF16, DataType::F32})
    for (const bool t : {true, false})
      for (const bool aligned : {true, false})
        for (const size_t items : {size_t(1), size_t(3)}) check_batch_on_device(in, t, false, aligned, true, items);
}

TEST(WgmmaOnDevice, ThreeTf32ByCpAsyncAndTma) {
  if (!planning_device(shared_context().info()).sm90a_patching)
    GTEST_SKIP() << "no wgmma here: the device is not an sm_90 whose driver builds PTX patched for sm_90a";
  for (const bool t : {true, false})
    for (const bool aligned : {true, false}) {
      for (const bool listed : {false, true}) check_batch_on_device(DataType::F32, t, listed, aligned, false, 3, Math::Tf32x3);
      for (const size_t items : {size_t(1), size_t(3)})
        check_batch_on_device(DataType::F32, t, false, aligned, true, items, Math::Tf32x3);
    }
}

// `call` with `options` on the shared context, then the `count` floats of C in `c`.
std::vector<float> gemm_and_read(const GemmCall& call, const GemmOptions& options, const cl::Buffer& c, size_t count) {
  const Context& ctx = shared_context();
  cl_event ev = nullptr;
  gemm(call, ctx.queue()(), &ev, options);
  wait_and_release(ev);
  std::vector<float> got(count);
  ctx.queue().enqueueReadBuffer(c, CL_TRUE, 0, count * 4, got.data());
  return got;
}

// TF32 with B as stored on cache lines: B's fragments through registers and C written transposed
// (B_REGS), in every tile that takes it, by cp.async and TMA, at sizes off every tile; alpha and
// beta, and C's gaps and the guard past it checked for stray writes.
TEST(WgmmaOnDevice, Tf32BAsStoredGoesThroughRegisters) {
  if (!planning_device(shared_context().info()).sm90a_patching)
    GTEST_SKIP() << "no wgmma here: the device is not an sm_90 whose driver builds PTX patched for sm_90a";
  const Context& ctx = shared_context();
  const DeviceInfo device = planning_device(ctx.info());
  struct Shape {
    size_t m, n, k;
  };
  for (const Shape sh : {Shape{65, 127, 63}, Shape{129, 257, 100}, Shape{7, 129, 65}, Shape{300, 200, 1000}})
    for (const KernelParams& tile : {KernelParams{}, KernelParams{{"BM", 128}, {"BN", 128}, {"WM", 64}, {"BK", 32}},
                                     KernelParams{{"BM", 128}, {"BN", 128}, {"WM", 128}, {"BK", 32}},
                                     KernelParams{{"BM", 64}, {"BN", 64}, {"WM", 64}, {"BK", 64}, {"STAGES", 3}}})
      for (const long tma : {0, 1}) {
        const size_t lda = (sh.k + 31) / 32 * 32, ldb = (sh.n + 31) / 32 * 32 + 32, ldc = sh.n + 3;
        std::mt19937 rng(unsigned(sh.m * 7 + sh.n * 3 + sh.k));
        std::uniform_real_distribution<float> u(-1, 1);
        std::vector<float> a(sh.m * lda), b(sh.k * ldb), c(sh.m * ldc + 64);
        for (auto& x : a) x = u(rng);
        for (auto& x : b) x = u(rng);
        for (auto& x : c) x = u(rng);
        const auto upload = [&](std::vector<float>& v) {
          return cl::Buffer(ctx.context(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, v.size() * 4, v.data());
        };
        cl::Buffer da = upload(a), db = upload(b), dc = upload(c);
        GemmCall call;
        call.m = sh.m, call.n = sh.n, call.k = sh.k;
        call.a = {da(), 0, lda}, call.b = {db(), 0, ldb}, call.c = {dc(), 0, ldc};
        call.alpha = -1.5, call.beta = 0.5;
        GemmOptions forced;
        forced.force_path = GemmPath::Wgmma;
        forced.math = Math::Tf32;
        forced.force_params = tile;
        forced.force_params["TMA"] = tma;
        const CallPlan plan = plan_call(device, call, forced, 1, a.size(), b.size(), c.size());
        ASSERT_EQ(plan.commands.size(), 1u) << plan.describe();
        EXPECT_NE(plan.commands.back().options.find("-DB_MN=1"), std::string::npos) << plan.describe();
        const std::vector<float> got = gemm_and_read(call, forced, dc, c.size());
        size_t wrong = 0;
        for (size_t x = 0; x < c.size(); ++x) {
          const size_t i = x / ldc, j = x % ldc;
          if (i >= sh.m || j >= sh.n) {
            wrong += got[x] != c[x];
            continue;
          }
          double sum = 0, mag = 0;
          for (size_t p = 0; p < sh.k; ++p)
            sum += double(a[i * lda + p]) * b[p * ldb + j], mag += std::fabs(double(a[i * lda + p]) * b[p * ldb + j]);
          const double want = -1.5 * sum + 0.5 * c[x];
          wrong += !(std::fabs(got[x] - want) <= std::ldexp(1.0, -9) * (1.5 * mag + 0.5 * std::fabs(c[x])) + 1e-30);
        }
        EXPECT_EQ(wrong, 0u) << sh.m << "x" << sh.n << "x" << sh.k << ", " << detail::build_options(tile) << ", TMA "
                             << tma;
      }
}

// 3xTF32 gives what float32 gives where inputs are infinite or NaN: ±∞ for a row of A with one ∞
// against a B of ones and twos (whose lo parts are 0, so a_hi·b_lo is ∞·0), NaN for a row with a
// NaN and for a row with +∞ and −∞ against equal columns; every other element stays finite and
// right. With and without TMA, in every configuration's tile shape (BM 64 and 128, WM 128), and
// with B packed and read as stored.
TEST(WgmmaOnDevice, ThreeTf32PropagatesInfAndNaN) {
  if (!planning_device(shared_context().info()).sm90a_patching)
    GTEST_SKIP() << "no wgmma here: the device is not an sm_90 whose driver builds PTX patched for sm_90a";
  const size_t m = 130, n = 70, k = 100;
  std::vector<float> a(m * k), b(k * n), c(m * n + 16, 7.0f);
  for (size_t i = 0; i < a.size(); ++i) a[i] = float((i * 37) % 19) / 8.0f - 1.0f;
  for (size_t i = 0; i < b.size(); ++i) b[i] = 1.0f + float(i % 2);
  const float inf = std::numeric_limits<float>::infinity();
  a[3 * k + 5] = inf;                                             // row 3: +∞
  a[64 * k + 9] = -inf;                                           // row 64: −∞
  a[100 * k + 1] = std::numeric_limits<float>::quiet_NaN();      // row 100: NaN
  a[129 * k + 0] = inf, a[129 * k + 99] = -inf;                   // row 129: ∞ − ∞
  const Context& ctx = shared_context();
  const auto upload = [&](std::vector<float>& v) {
    return cl::Buffer(ctx.context(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, v.size() * 4, v.data());
  };
  // The defaults (one warpgroup, one lo buffer), TMA, two blocks of 64 rows per warpgroup, and two
  // warpgroups (two lo buffers); B packed K-major (rows of 70 floats), and read as stored through
  // registers (rows of 96, on cache lines).
  for (const size_t ldb : {n, size_t(96)})
  for (const KernelParams& ps : {KernelParams{}, KernelParams{{"TMA", 1}},
                                 KernelParams{{"BM", 128}, {"WM", 128}, {"BK", 32}},
                                 KernelParams{{"BM", 128}, {"WM", 64}, {"BN", 128}, {"BK", 16}, {"STAGES", 3}}}) {
    std::vector<float> b_rows(k * ldb, 0.0f);
    for (size_t p = 0; p < k; ++p)
      for (size_t j = 0; j < n; ++j) b_rows[p * ldb + j] = b[p * n + j];
    cl::Buffer da = upload(a), db = upload(b_rows), dc = upload(c);
    GemmCall call;
    call.m = m, call.n = n, call.k = k;
    call.a = {da(), 0, k}, call.b = {db(), 0, ldb}, call.c = {dc(), 0, n};
    call.alpha = 1.0, call.beta = 0.0;
    GemmOptions forced;
    forced.force_path = GemmPath::Wgmma;
    forced.math = Math::Tf32x3;
    forced.force_params = ps;
    // B goes through registers where its rows lie on cache lines and the tile takes it (square, BK
    // of 32 or 64); the others transpose it first.
    const DeviceInfo device = planning_device(ctx.info());
    const CallPlan plan = plan_call(device, call, forced, 1, a.size(), b_rows.size(), c.size());
    const bool fits = detail::wgmma_b_registers_fit(plan_gemm(device, m, n, k, forced, DataType::F32).params);
    EXPECT_EQ(plan.commands.back().options.find("-DB_MN=1") != std::string::npos, ldb == 96 && fits)
        << plan.describe();
    const std::vector<float> got = gemm_and_read(call, forced, dc, c.size());
    size_t wrong = 0;
    for (size_t i = 0; i < m; ++i)
      for (size_t j = 0; j < n; ++j) {
        const float x = got[i * n + j];
        if (i == 3) wrong += !(std::isinf(x) && x > 0);
        else if (i == 64) wrong += !(std::isinf(x) && x < 0);
        else if (i == 100 || i == 129) wrong += !std::isnan(x);
        else {
          double want = 0, mag = 0;
          for (size_t p = 0; p < k; ++p) want += double(a[i * k + p]) * b[p * n + j], mag += std::fabs(a[i * k + p] * b[p * n + j]);
          wrong += !(std::fabs(x - want) <= 1e-5 * mag + 1e-30);
        }
      }
    for (size_t g = m * n; g < got.size(); ++g) wrong += got[g] != 7.0f;
    EXPECT_EQ(wrong, 0u) << detail::build_options(ps) << ", ldb " << ldb;
  }
}

}  // namespace
}  // namespace clgemm::test
