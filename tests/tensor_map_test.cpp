// Tensor maps for the wgmma kernel's TMA copies: the maps' shapes, the patch that gives them
// their addresses, and the launch that chooses them, with a stand-in encoder where libcuda is not
// here (CI). The copies themselves run only on an sm_90 GPU (WgmmaOnDevice, wgmma_test.cpp).
#include "kernels/gemm/wgmma/wgmma_kernel.hpp"
#include "plan/wgmma_launch.hpp"
#include "runtime/ptx_markers.hpp"
#include "runtime/tensor_maps.hpp"
#include "test_support.hpp"

#include <clgemm/gemm.hpp>
#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <vector>

using namespace clgemm;
using detail::OperandLayout;
using detail::TensorMapBytes;
using detail::TiledMapSpec;
using test::fake_h200;
using test::shared_context;

namespace {

const KernelParams kDefault = {{"BM", 128}, {"BN", 128}, {"WM", 64}, {"BK", 32}, {"STAGES", 3}, {"INFLIGHT", 0}};

// While alive, a stand-in encoder answers for libcuda: every map it encodes carries the spec's
// first dimension in word 1 and its rank in word 2, and specs it is told to refuse get nullopt.
// `specs` keeps every spec it was given, in order.
struct FakeEncoder {
  std::shared_ptr<std::vector<TiledMapSpec>> specs = std::make_shared<std::vector<TiledMapSpec>>();
  explicit FakeEncoder(bool refuse_rank3 = false) {
    detail::set_tensor_map_encoder_for_testing([refuse_rank3, seen = specs](const TiledMapSpec& s)
                                                   -> std::optional<TensorMapBytes> {
      seen->push_back(s);
      if (refuse_rank3 && s.rank == 3) return std::nullopt;
      TensorMapBytes m{};
      m[0] = detail::kTensorMapPlaceholder;
      m[1] = s.dims[0];
      m[2] = s.rank;
      return m;
    });
  }
  ~FakeEncoder() { detail::set_tensor_map_encoder_for_testing({}); }
};

DeviceInfo hopper_with_maps() {
  DeviceInfo d = test::fake_h200_for_wgmma();
  d.tensor_maps = true;
  return d;
}

CallPlan f16_plan(const DeviceInfo& d, size_t m, size_t n, size_t k, bool trans_b, size_t batch = 1) {
  GemmCall call;
  call.m = m, call.n = n, call.k = k;
  call.a_type = call.b_type = DataType::F16, call.c_type = DataType::F32;
  call.b_transpose = trans_b ? Transpose::Yes : Transpose::No;
  call.a.ld = k, call.b.ld = trans_b ? k : n, call.c.ld = n;
  GemmOptions forced;
  forced.force_path = GemmPath::Wgmma;
  return plan_call(d, call, forced, batch, m * k, k * n, m * n);
}

}  // namespace

TEST(TensorMaps, KMajorMapsCoverTheOperandInBoxesOfOneSlice) {
  // f16 A of 1000 rows × 777, 1024 elements apart: boxes of 128 rows × 32 elements (64-byte rows).
  const TiledMapSpec a = detail::wgmma_kmajor_map(OperandLayout{1000, 777, 1024, 0}, 1, 128, kDefault, DataType::F16);
  EXPECT_EQ(a.rank, 2u);
  EXPECT_EQ(a.element_bytes, 2u);
  EXPECT_EQ(a.dims[0], 777u);
  EXPECT_EQ(a.dims[1], 1000u);
  EXPECT_EQ(a.strides[0], 2048u);
  EXPECT_EQ(a.box[0], 32u);
  EXPECT_EQ(a.box[1], 128u);
  EXPECT_EQ(a.swizzle_bytes, 64u);
  // A strided batch is a third dimension, items `stride` elements apart; TF32 reads the same
  // 64-byte rows as 16 floats.
  const TiledMapSpec t = detail::wgmma_kmajor_map(OperandLayout{64, 512, 512, 64 * 512}, 5, 64, kDefault, DataType::F32);
  EXPECT_EQ(t.rank, 3u);
  EXPECT_EQ(t.dims[2], 5u);
  EXPECT_EQ(t.strides[0], 2048u);
  EXPECT_EQ(t.strides[1], 64u * 512 * 4);
  EXPECT_EQ(t.box[0], 16u);
  EXPECT_EQ(t.box[1], 64u);
  EXPECT_EQ(t.swizzle_bytes, 64u);
}

TEST(TensorMaps, NMajorMapsTakeSixtyFourColumnsOfOneSlice) {
  // B as stored, K = 300 rows of N = 1000: boxes of 32 rows × 64 columns, 128-byte swizzled.
  const TiledMapSpec b = detail::wgmma_nmajor_map(OperandLayout{300, 1000, 1024, 0}, 1, kDefault, DataType::BF16);
  EXPECT_EQ(b.dims[0], 1000u);
  EXPECT_EQ(b.dims[1], 300u);
  EXPECT_EQ(b.strides[0], 2048u);
  EXPECT_EQ(b.box[0], 64u);
  EXPECT_EQ(b.box[1], 32u);
  EXPECT_EQ(b.swizzle_bytes, 128u);
}

TEST(TensorMaps, TheKernelsMarkersBecomeTensormapReplace) {
  const auto rules = detail::wgmma_rules(kDefault, DataType::F16);
  const std::string ptx = ".version 9.0\n.target sm_90\n.address_size 64\n\t// PATCH:tensormap_address %rd1 %rd7\n";
  const auto patched = detail::patch_ptx_markers(ptx, rules, "sm_90a");
  EXPECT_EQ(patched.replaced, 1u);
  EXPECT_NE(patched.ptx.find("tensormap.replace.tile.global_address.global.b1024.b64 [%rd1], %rd7;"), std::string::npos)
      << patched.ptx;
  EXPECT_NE(patched.ptx.find(".target sm_90a"), std::string::npos);
}

TEST(TensorMaps, OnlyNvidiaGpusWithLibcudaHaveThem) {
  // PoCL in CI, or whatever device the tests run on: never on a CPU, and the plan's device says
  // the same as the runtime.
  const DeviceInfo& info = shared_context().info();
  if (info.kind != DeviceKind::GPU) {
    EXPECT_FALSE(detail::tensor_maps_available(info));
  }
  const DeviceInfo planned = planning_device(info);
  EXPECT_TRUE(!planned.tensor_maps || planned.sm90a_patching);
  // The stand-in answers while set, and $CLGEMM_TENSOR_MAPS=0 turns maps off whatever answers.
  FakeEncoder fake;
  EXPECT_TRUE(detail::tensor_maps_available(info));
  setenv("CLGEMM_TENSOR_MAPS", "0", 1);
  EXPECT_FALSE(detail::tensor_maps_available(info));
  unsetenv("CLGEMM_TENSOR_MAPS");
}

// Whether the plan's last command is the wgmma kernel built with TMA, and its temporaries.
bool copies_by_tma(const CallPlan& plan) {
  return plan.commands.back().options.find("-DTMA=1") != std::string::npos;
}

TEST(TensorMaps, TheLaunchCopiesByTmaWhereMapsEncode) {
  FakeEncoder fake;
  const DeviceInfo d = hopper_with_maps();
  // Too small a product: cp.async.
  EXPECT_FALSE(copies_by_tma(f16_plan(d, 1000, 1000, 1024, true)));
  EXPECT_FALSE(detail::wgmma_tma_pays(4096, 4096, 1024, 1, DataType::F16, false));
  EXPECT_TRUE(detail::wgmma_tma_pays(4096, 4096, 2048, 1, DataType::F16, false));
  EXPECT_TRUE(detail::wgmma_tma_pays(512, 512, 512, 256, DataType::F16, false));
  // A single product that fills the SMs: the warp-specialised kernel, built with TMA, persistent
  // (one work-group of a producer and two consumer warpgroups per SM, .minnctapersm 1 for
  // setmaxnreg), and a temporary for two maps per work-group.
  const CallPlan one = f16_plan(d, 4000, 4000, 4096, true);
  ASSERT_EQ(one.commands.size(), 1u);
  EXPECT_EQ(one.commands[0].what, "wgmma (TMA, warp-specialised, persistent)");
  EXPECT_TRUE(copies_by_tma(one));
  EXPECT_EQ(one.commands[0].local[0], 384u);
  EXPECT_EQ(one.commands[0].global[0], 132u * 384);
  EXPECT_NE(one.commands[0].options.find("-DCONSUMER_REGS=232"), std::string::npos) << one.commands[0].options;
  ASSERT_EQ(one.temporaries.size(), 1u);
  EXPECT_EQ(one.temporaries[0].bytes, 132u * 256);
  // B as stored is read in place, N-major, at any size where TMA copies it (without TMA, from
  // 4096 rows of C it is copied K-major), and TMA pays for it from 2048³.
  const CallPlan mn = f16_plan(d, 4096, 4096, 4096, false);
  ASSERT_EQ(mn.commands.size(), 1u) << mn.describe();
  EXPECT_NE(mn.commands.back().options.find("-DB_MN=1"), std::string::npos);
  EXPECT_TRUE(copies_by_tma(mn));
  EXPECT_TRUE(detail::wgmma_tma_pays(2048, 2048, 2048, 1, DataType::F16, true));
  EXPECT_FALSE(detail::wgmma_tma_pays(2048, 2048, 2048, 1, DataType::F16, false));
  EXPECT_TRUE(detail::wgmma_tma_pays(2048, 2048, 2048, 1, DataType::F32, false)) << "TF32 from 2048³";
  EXPECT_FALSE(detail::wgmma_tma_pays(2048, 2048, 1024, 1, DataType::F32, false));
  EXPECT_TRUE(copies_by_tma(f16_plan(d, 2048, 2048, 2048, false)));
  EXPECT_FALSE(copies_by_tma(f16_plan(d, 2048, 2048, 2048, true)));
  // Rows on 16 bytes but not on 128 (4000 f16 elements: 8,000 bytes) go in place where TMA copies
  // them, and are packed for cp.async.
  EXPECT_EQ(f16_plan(d, 3000, 3000, 4000, true).commands.size(), 1u);
  EXPECT_EQ(f16_plan(d, 3000, 3000, 3000, false).commands.size(), 1u);
  DeviceInfo no_maps = d;
  no_maps.tensor_maps = false;
  EXPECT_EQ(f16_plan(no_maps, 3000, 3000, 4000, true).commands.size(), 3u);
  // Packed operands are copied from their temporaries; a batch's maps have the items as a third
  // dimension, and its temporary two maps per work-group of every item (16 tiles of 128×128).
  const CallPlan packed = f16_plan(d, 4000, 4000, 4001, true);
  ASSERT_EQ(packed.commands.size(), 3u) << packed.describe();
  EXPECT_TRUE(copies_by_tma(packed));
  const CallPlan batch = f16_plan(d, 512, 512, 512, true, 300);
  EXPECT_TRUE(copies_by_tma(batch));
  EXPECT_EQ(batch.temporaries.back().bytes, 300u * 16 * 256);
  // Without maps on the device, cp.async.
  DeviceInfo without = d;
  without.tensor_maps = false;
  const CallPlan plain = f16_plan(without, 4000, 4000, 4096, true);
  ASSERT_EQ(plain.commands.size(), 1u);
  EXPECT_NE(plain.commands[0].options.find("-DTMA=0"), std::string::npos);
  const CallPlan copied = f16_plan(without, 4096, 4096, 4096, false);
  ASSERT_EQ(copied.commands.size(), 2u) << copied.describe();
  EXPECT_NE(copied.commands.back().options.find("-DB_MN=0"), std::string::npos);
}

TEST(TensorMaps, ABPackedForTmaIsPackedNMajor) {
  FakeEncoder fake;
  const DeviceInfo d = hopper_with_maps();
  // B as stored with rows off 16 bytes (3001 f16 elements), and Bᵀ likewise (4001): both are
  // packed as K rows of N padded to 3008 elements, read N-major; B's map spans N first.
  for (const bool trans_b : {false, true}) {
    fake.specs->clear();
    const CallPlan plan = f16_plan(d, 4000, 3001, 4001, trans_b);
    ASSERT_EQ(plan.commands.size(), 3u) << plan.describe();
    EXPECT_EQ(plan.commands[1].what.substr(0, plan.commands[1].what.find(':')), "pack op(B) N-major");
    const std::string& options = plan.commands.back().options;
    EXPECT_NE(options.find("-DB_MN=1"), std::string::npos) << options;
    EXPECT_TRUE(copies_by_tma(plan));
    ASSERT_EQ(fake.specs->size(), 2u);
    EXPECT_EQ(fake.specs->at(1).dims[0], 3001u);
    EXPECT_EQ(fake.specs->at(1).dims[1], 4001u);
    EXPECT_EQ(fake.specs->at(1).strides[0], 3008u * 2);
    ASSERT_EQ(plan.temporaries.size(), 3u);
    EXPECT_EQ(plan.temporaries[1].bytes, 4001u * 3008 * 2);
  }
  // Without TMA a packed B stays K-major: N rows of K padded to 4032.
  DeviceInfo without = d;
  without.tensor_maps = false;
  const CallPlan plain = f16_plan(without, 4000, 3001, 4001, false);
  ASSERT_EQ(plain.commands.size(), 3u) << plain.describe();
  EXPECT_NE(plain.commands.back().options.find("-DB_MN=0"), std::string::npos);
  EXPECT_EQ(plain.temporaries[1].bytes, 3001u * 4032 * 2);
}

TEST(TensorMaps, AMapTheEncoderRefusesSendsTheCallToCpAsync) {
  FakeEncoder refuses_batches(true);
  const CallPlan batch = f16_plan(hopper_with_maps(), 512, 512, 512, true, 300);
  ASSERT_EQ(batch.commands.size(), 1u) << batch.describe();
  EXPECT_EQ(batch.commands[0].what, "wgmma");
  EXPECT_NE(batch.commands[0].options.find("-DTMA=0"), std::string::npos);
  EXPECT_TRUE(batch.temporaries.empty());
  // A single product still takes TMA.
  EXPECT_TRUE(copies_by_tma(f16_plan(hopper_with_maps(), 4096, 4096, 4096, true)));
}
