// wgmma_ws_test.cpp — the wgmma kernel's large tiles and warp-specialised schedule (WS) where no
// Hopper GPU is at hand: which configurations the descriptor takes against an H200's measured
// limits, the register budget setmaxnreg moves, the rules that patch its markers, the plan's
// persistent launch, and the fallback to cp.async where tensor maps do not encode. The kernels run
// on the GPU (wgmma_tiles_test.cpp, scripts/gpu/big_tiles.sh).
#include "kernels/gemm/wgmma/wgmma_kernel.hpp"
#include "runtime/ptx_markers.hpp"

#include "test_support.hpp"

#include <clgemm/error.hpp>
#include <clgemm/gemm.hpp>

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <string>

namespace clgemm::test {
namespace {

DeviceInfo h200(bool maps) {
  DeviceInfo d = fake_h200_for_wgmma();
  d.tensor_maps = maps;
  return d;
}

const KernelParams kWide = {{"BM", 128}, {"BN", 256}, {"WM", 64}, {"BK", 64}, {"STAGES", 4}, {"INFLIGHT", 0}};

KernelParams with(KernelParams ps, const KernelParams& more) {
  for (const auto& [name, value] : more) ps[name] = value;
  return ps;
}

Status refusal(const DeviceInfo& d, const KernelParams& ps, std::string& why) {
  try {
    detail::resolve_params(detail::wgmma_descriptor(), d, ps);
  } catch (const Error& e) {
    why = e.what();
    return e.status();
  }
  return Status::Success;
}

TEST(WgmmaLargeTiles, TakenUpToTheMeasuredStaticLimit) {
  const DeviceInfo d = h200(true);
  std::string why;
  // 128×256 tiles of 128-byte rows: four slices (192 KiB), not five (240 KiB).
  EXPECT_EQ(refusal(d, kWide, why), Status::Success) << why;
  EXPECT_EQ(refusal(d, with(kWide, {{"STAGES", 5}}), why), Status::OutOfResources);
  EXPECT_NE(why.find("static"), std::string::npos) << why;
  // The same tile on a device whose static limit was not measured: 48 KiB.
  DeviceInfo unmeasured = d;
  unmeasured.static_local_bytes = 0;
  EXPECT_EQ(refusal(unmeasured, kWide, why), Status::OutOfResources);
  // 192×192 in three warpgroups, 256×128 in two of 128 rows or four of 64, 128×128 in six slices.
  for (const KernelParams& ps :
       {KernelParams{{"BM", 192}, {"BN", 192}, {"WM", 64}, {"BK", 64}, {"STAGES", 4}},
        KernelParams{{"BM", 256}, {"BN", 128}, {"WM", 128}, {"BK", 64}, {"STAGES", 4}},
        KernelParams{{"BM", 256}, {"BN", 128}, {"WM", 64}, {"BK", 64}, {"STAGES", 3}},
        KernelParams{{"BM", 128}, {"BN", 128}, {"WM", 64}, {"BK", 64}, {"STAGES", 6}}})
    EXPECT_EQ(refusal(d, ps, why), Status::Success) << why;
  // A warpgroup of 128 rows by 256 columns would hold 256 accumulators; 192 rows are no multiple
  // of 128; five warpgroups are more than the kernel has.
  EXPECT_EQ(refusal(d, with(kWide, {{"WM", 128}}), why), Status::OutOfResources);
  EXPECT_EQ(refusal(d, {{"BM", 192}, {"WM", 128}}, why), Status::InvalidArgument);
  EXPECT_EQ(refusal(d, {{"BM", 320}, {"WM", 64}}, why), Status::InvalidArgument);
}

TEST(WgmmaWarpSpecialised, ConstraintsNameWhatItNeeds) {
  std::string why;
  const KernelParams ws = with(kWide, {{"WS", 1}});
  EXPECT_EQ(refusal(h200(true), ws, why), Status::Success) << why;
  EXPECT_EQ(refusal(h200(false), ws, why), Status::InvalidArgument);
  EXPECT_NE(why.find("tensor maps"), std::string::npos) << why;
  EXPECT_EQ(refusal(h200(true), with(ws, {{"TERMS", 3}}), why), Status::InvalidArgument);
  EXPECT_EQ(refusal(h200(true), with(ws, {{"INFLIGHT", 1}}), why), Status::InvalidArgument);
  // setmaxnreg's budgets belong to WS, in multiples of 8 from 24 to 256.
  EXPECT_EQ(refusal(h200(true), with(kWide, {{"CONSUMER_REGS", 232}}), why), Status::InvalidArgument);
  EXPECT_EQ(refusal(h200(true), with(ws, {{"CONSUMER_REGS", 230}}), why), Status::InvalidArgument);
  EXPECT_EQ(refusal(h200(true), with(ws, {{"CONSUMER_REGS", 232}, {"PRODUCER_REGS", 40}}), why), Status::Success);
  // The epilogue's own area comes on top of the stages: 128×256 in four slices still fits, and
  // 192×256 in three warpgroups and a producer would need more registers than an SM has.
  EXPECT_EQ(refusal(h200(true), {{"WS", 1}, {"BM", 192}, {"BN", 256}, {"WM", 64}, {"BK", 64}, {"STAGES", 3}}, why),
            Status::OutOfResources);
  // WS copies by TMA alone, so a slice need not split evenly over the work-items.
  EXPECT_EQ(refusal(h200(true), {{"WS", 1}, {"BM", 128}, {"BN", 128}, {"WM", 64}, {"BK", 64}, {"STAGES", 6}}, why),
            Status::Success)
      << why;
}

TEST(WgmmaWarpSpecialised, RegistersMoveToTheConsumers) {
  // One work-group per SM: the producer keeps 40 of each work-item's registers, two consumer
  // warpgroups share the rest (232 each), three take 152.
  const auto two = detail::wgmma_ws_registers(with(kWide, {{"WS", 1}}), 1);
  EXPECT_EQ(two.consumer, 232);
  EXPECT_EQ(two.producer, 40);
  const auto three =
      detail::wgmma_ws_registers({{"WS", 1}, {"BM", 192}, {"BN", 192}, {"WM", 64}, {"BK", 64}, {"STAGES", 4}}, 1);
  EXPECT_EQ(three.consumer, 152);
  // Without WS, or where the cap at entry already gives as much, none.
  EXPECT_EQ(detail::wgmma_ws_registers(kWide, 1).consumer, 0);
  EXPECT_EQ(detail::wgmma_ws_registers({{"WS", 1}, {"BM", 256}, {"BN", 128}, {"WM", 64}}, 4).consumer, 0);
}

TEST(WgmmaWarpSpecialised, RulesBudgetRegistersAndKeepOneSliceInFlight) {
  const KernelParams ps = with(kWide, {{"WS", 1}, {"CONSUMER_REGS", 232}, {"PRODUCER_REGS", 40}});
  const auto rules = detail::wgmma_rules(ps, DataType::F16);
  const auto body = [&](const std::string& name) {
    for (const auto& r : rules)
      if (r.name == name) return r.body;
    ADD_FAILURE() << "no rule " << name;
    return std::string();
  };
  EXPECT_EQ(body("setmaxnreg_inc"), "setmaxnreg.inc.sync.aligned.u32 232;");
  EXPECT_EQ(body("setmaxnreg_dec"), "setmaxnreg.dec.sync.aligned.u32 40;");
  EXPECT_EQ(body("wgmma_wait"), "wgmma.wait_group.sync.aligned 1;");
  EXPECT_NE(body("wgmma_mma").find("m64n256k16.f32.f16.f16"), std::string::npos);
  // Two blocks of 64 rows per warpgroup: two groups of this slice may still run.
  for (const auto& r : detail::wgmma_rules(with(kWide, {{"WS", 1}, {"INFLIGHT", 0}, {"WM", 128}, {"BN", 128}}),
                                           DataType::BF16))
    if (r.name == "wgmma_wait") {
      EXPECT_EQ(r.body, "wgmma.wait_group.sync.aligned 2;");
    }
  // Without a budget the markers stay, as empty blocks; BN of 192 takes n192.
  const auto plain = detail::wgmma_rules({{"BM", 192}, {"BN", 192}, {"WM", 64}, {"BK", 64}, {"INFLIGHT", 0}, {"WS", 0}},
                                         DataType::F16);
  for (const auto& r : plain) {
    if (r.name.rfind("setmaxnreg", 0) == 0) {
      EXPECT_EQ(r.body, "");
    } else if (r.name == "wgmma_mma") {
      EXPECT_NE(r.body.find("m64n192k16"), std::string::npos);
    } else if (r.name == "wgmma_wait") {
      EXPECT_EQ(r.body, "wgmma.wait_group.sync.aligned 0;");
    }
  }
}

GemmCall f16_call(size_t m, size_t n, size_t k) {
  GemmCall c;
  c.m = m, c.n = n, c.k = k;
  c.a = {nullptr, 0, k}, c.b = {nullptr, 0, k}, c.c = {nullptr, 0, n};
  c.b_transpose = Transpose::Yes;
  c.a_type = c.b_type = DataType::F16, c.c_type = DataType::F32;
  return c;
}

TEST(WgmmaWarpSpecialised, FallsBackToCpAsyncWhereMapsDoNotEncode) {
  // Tensor maps are encoded through the CUDA driver; where it cannot encode them (no libcuda, as
  // on the CI machine), a forced WS call runs the same tile without WS, by cp.async, and says so.
  GemmOptions o;
  o.force_path = GemmPath::Wgmma;
  o.force_params = with(kWide, {{"WS", 1}});
  const GemmCall call = f16_call(4096, 4096, 4096);
  const CallPlan plan = plan_call(h200(true), call, o, 1, 4096 * 4096, 4096 * 4096, 4096 * 4096);
  ASSERT_FALSE(plan.commands.empty());
  const auto& c = plan.commands.back();
  if (c.what.find("warp-specialised") != std::string::npos) {
    // This machine has a driver that encodes maps: the persistent launch, one work-group per SM of
    // 384 work-items, the register budget in the options.
    EXPECT_NE(c.options.find("-DWS=1"), std::string::npos) << c.options;
    EXPECT_NE(c.options.find("-DCONSUMER_REGS=232"), std::string::npos) << c.options;
    EXPECT_EQ(c.local[0], 384u);
    EXPECT_EQ(c.global[0], 132u * 384);
    return;
  }
  EXPECT_EQ(c.what, "wgmma") << plan.describe();
  EXPECT_NE(c.options.find("-DWS=0"), std::string::npos) << c.options;
  EXPECT_NE(c.options.find("-DTMA=0"), std::string::npos) << c.options;
  EXPECT_NE(c.options.find("-DBN=256"), std::string::npos) << c.options;
  EXPECT_EQ(c.local[0], 256u);
  // Without tensor maps at all, forcing WS is refused before any plan, naming the reason.
  try {
    plan_call(h200(false), call, o, 1, 4096 * 4096, 4096 * 4096, 4096 * 4096);
    ADD_FAILURE() << "WS was planned without tensor maps";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::InvalidArgument);
    EXPECT_NE(std::string(e.what()).find("tensor maps"), std::string::npos) << e.what();
  }
}

TEST(WgmmaWarpSpecialised, ThePlannerTakesItForLargeProductsWhereTmaRuns) {
  const auto tiles = [](const GemmPlan& p) { return std::to_string(p.params.at("BM")) + "x" + std::to_string(p.params.at("BN")); };
  GemmOptions tf32;
  tf32.math = Math::Tf32;
  for (const DataType type : {DataType::F16, DataType::BF16, DataType::F32}) {
    const GemmOptions& o = type == DataType::F32 ? tf32 : GemmOptions{};
    const GemmPlan big = plan_gemm(h200(true), 8192, 8192, 8192, o, type);
    EXPECT_EQ(big.params.at("WS"), 1) << big.describe();
    EXPECT_EQ(tiles(big), "128x256");
    EXPECT_EQ(big.splits, 1u);
    // 3000²: 288 tiles of 128×256 fill three rounds of 132 to 73 %, 256 of 192×192 two to 97 %.
    EXPECT_EQ(tiles(plan_gemm(h200(true), 3000, 3000, 3000, o, type)), "192x192");
    EXPECT_EQ(tiles(plan_gemm(h200(true), 4096, 14336, 4096, o, type)), "128x256");
    // Without tensor maps, or where 128×256 tiles leave SMs idle (2048²: 128 tiles), the rules
    // before it.
    EXPECT_EQ(plan_gemm(h200(false), 8192, 8192, 8192, o, type).params.at("WS"), 0);
    EXPECT_EQ(plan_gemm(h200(true), 2048, 2048, 2048, o, type).params.at("WS"), 0);
  }
  // 3xTF32 and batches keep their own tiles.
  GemmOptions three;
  three.math = Math::Tf32x3;
  EXPECT_EQ(plan_gemm(h200(true), 8192, 8192, 8192, three, DataType::F32).params.at("WS"), 0);
}

// The PTX NVIDIA's compiler made of the WS kernel (128×256 tiles in four slices, f16, B N-major;
// options in big_tiles.sh's asm step, H200, driver 580.159.04): every marker replaced, setmaxnreg
// in place, the target raised.
TEST(WgmmaWarpSpecialised, RecordedPtxGetsEveryMarker) {
  std::ifstream in(std::string(CLGEMM_TEST_DATA) + "/wgmma_ws_f16_128x256x64x4.ptx");
  const std::string ptx(std::istreambuf_iterator<char>(in), {});
  ASSERT_FALSE(ptx.empty()) << "tests/data/wgmma_ws_f16_128x256x64x4.ptx is missing";
  KernelParams ps = with(kWide, {{"WS", 1}, {"B_MN", 1}, {"CONSUMER_REGS", 232}, {"PRODUCER_REGS", 40}});
  const auto patched = detail::patch_ptx_markers(ptx, detail::wgmma_rules(ps, DataType::F16), "sm_90a");
  EXPECT_EQ(patched.replaced, 7u);
  EXPECT_EQ(patched.ptx.find("PATCH:"), std::string::npos);
  EXPECT_NE(patched.ptx.find(".target sm_90a"), std::string::npos);
  EXPECT_NE(patched.ptx.find("setmaxnreg.inc.sync.aligned.u32 232;"), std::string::npos);
  EXPECT_NE(patched.ptx.find("setmaxnreg.dec.sync.aligned.u32 40;"), std::string::npos);
  EXPECT_NE(patched.ptx.find("wgmma.wait_group.sync.aligned 1;"), std::string::npos);
  // Four k16 steps of 128-byte rows in one slice, B N-major (its transpose flag set).
  size_t mmas = 0;
  for (size_t at = patched.ptx.find("wgmma.mma_async"); at != std::string::npos; at = patched.ptx.find("wgmma.mma_async", at + 1))
    ++mmas;
  EXPECT_EQ(mmas, 4u);
  EXPECT_NE(patched.ptx.find("m64n256k16.f32.f16.f16"), std::string::npos);
  EXPECT_NE(patched.ptx.find("p, 1, 1, 0, 1;"), std::string::npos);
}

}  // namespace
}  // namespace clgemm::test
