// dmma_plan_test.cpp — double on FP64 tensor cores (gemm/dmma/dmma.cl): where the planner takes it, with
// which instruction and tiles, and the commands it runs. The kernel itself runs in the precision
// sweep wherever the device has it (an NVIDIA GPU of sm_80 or newer; not PoCL).
#include "kernels/gemm/dmma/dmma_kernel.hpp"
#include "test_support.hpp"

#include <clgemm/error.hpp>
#include <clgemm/gemm.hpp>

#include <gtest/gtest.h>

#include <string>

namespace clgemm::test {
namespace {

TEST(DmmaPlan, LargeDoubleCallsTakeTheFp64TensorCores) {
  const DeviceInfo d = fake_h200();
  const GemmPlan big = plan_gemm(d, 4096, 4096, 4096, {}, DataType::F64);
  ASSERT_EQ(big.path, GemmPath::Tensor) << big.describe();
  EXPECT_EQ(big.params.at("PRECISION"), 64);
  EXPECT_EQ(big.params.at("MMA_K"), 8) << "m16n8k8 on sm_90";
  EXPECT_EQ(big.params.at("BM"), 128);
  EXPECT_NE(big.describe().find("dmma kernel on FP64 tensor cores"), std::string::npos) << big.describe();
  // Fewer tiles of 128×64 than compute units: 64×64.
  EXPECT_EQ(plan_gemm(d, 640, 640, 640, {}, DataType::F64).params.at("BM"), 64);
  // Where the static local limit is measured past 198 KiB: 128×128 tiles 16 deep in six stages,
  // if they fill every SM.
  DeviceInfo measured = d;
  measured.static_local_bytes = 232444;
  const KernelParams deep = plan_gemm(measured, 4096, 4096, 4096, {}, DataType::F64).params;
  EXPECT_EQ(deep.at("BN"), 128);
  EXPECT_EQ(deep.at("BK"), 16);
  EXPECT_EQ(deep.at("STAGES"), 6);
  EXPECT_EQ(deep.at("MMA_K"), 8);
  EXPECT_EQ(detail::dmma_descriptor().local_bytes(deep), 6u * 16 * (132 + 132) * 8);
  EXPECT_EQ(plan_gemm(measured, 1408, 1408, 4096, {}, DataType::F64).params.at("BN"), 64) << "121 tiles of 128²";
  EXPECT_EQ(plan_gemm(measured, 1536, 1408, 4096, {}, DataType::F64).params.at("BN"), 128) << "132 tiles of 128²";
  EXPECT_EQ(big.params.at("BN"), 64) << "six stages do not fit 48 KiB";
  // An Ampere GPU has m8n8k4 only.
  DeviceInfo ampere = d;
  ampere.architecture = "sm_80";
  EXPECT_EQ(plan_gemm(ampere, 4096, 4096, 4096, {}, DataType::F64).params.at("MMA_K"), 4);
  // Small calls keep the SIMT kernels and their tuned entries; other types never take dmma.
  EXPECT_NE(plan_gemm(d, 100, 100, 100, {}, DataType::F64).path, GemmPath::Tensor);
  EXPECT_NE(plan_gemm(d, 4096, 4096, 32, {}, DataType::F64).path, GemmPath::Tensor);
  EXPECT_NE(plan_gemm(d, 4096, 4096, 4096, {}, DataType::F32).path, GemmPath::Tensor);
  // Batches of 2^31 multiply-adds take it from items of 256³, with the defaults' tiles (64×64
  // where all items together have fewer 128×64 tiles than the device has compute units).
  const GemmPlan b256 = plan_gemm(d, 256, 256, 256, {}, DataType::F64, 256);
  EXPECT_EQ(b256.path, GemmPath::Tensor);
  EXPECT_EQ(b256.params.at("BM"), 128);
  EXPECT_EQ(plan_gemm(d, 640, 640, 640, {}, DataType::F64, 2).params.at("BM"), 64) << "50 tiles";
  EXPECT_EQ(plan_gemm(d, 640, 640, 640, {}, DataType::F64, 3).params.at("BM"), 128) << "150 tiles";
  EXPECT_NE(plan_gemm(d, 256, 256, 256, {}, DataType::F64).path, GemmPath::Tensor);
  // Smaller batches take it for items of at least 64³ multiply-adds and K from 32, from 2^26
  // multiply-adds in all, in the tiles that pad the items least.
  const auto tiles = [&](size_t m, size_t n, size_t k, size_t batch) {
    const GemmPlan p = plan_gemm(d, m, n, k, {}, DataType::F64, batch);
    const auto at = [&](const char* name) { return std::to_string(p.params.at(name)); };
    return p.path != GemmPath::Tensor ? std::string("not dmma") : at("BM") + "x" + at("BN") + "x" + at("BK");
  };
  EXPECT_EQ(tiles(64, 64, 64, 4096), "64x64x16");
  EXPECT_EQ(tiles(128, 128, 128, 1024), "64x64x16");
  EXPECT_EQ(tiles(32, 32, 32, 4096), "not dmma") << "items under 64³";
  EXPECT_EQ(tiles(32, 32, 256, 4096), "32x32x16");
  EXPECT_EQ(tiles(96, 160, 40, 2048), "32x32x8") << "BK 16 does not divide K";
  EXPECT_EQ(tiles(256, 256, 256, 64), "128x64x8");
  EXPECT_EQ(tiles(384, 64, 64, 2048), "128x64x8");
  EXPECT_EQ(plan_gemm(d, 64, 64, 64, {}, DataType::F64, 4096).params.at("STAGES"), 2) << "BK 16 in two stages";
  EXPECT_EQ(tiles(64, 64, 64, 8), "not dmma") << "2^21 multiply-adds";
  EXPECT_EQ(tiles(100, 100, 100, 4096), "64x64x8");
  EXPECT_EQ(tiles(300, 90, 129, 1024), "64x32x8") << "128 rows pad 300 to 384, 64 to 320";
  EXPECT_EQ(tiles(64, 64, 100, 4096), "64x64x8");
  EXPECT_EQ(tiles(64, 64, 36, 8192), "not dmma") << "items under 64³";
  EXPECT_EQ(tiles(64, 64, 16, 65536), "not dmma") << "K under 32";
}

TEST(DmmaPlan, ForcedWhereItCannotRunIsRefused) {
  GemmOptions forced;
  forced.force_path = GemmPath::Tensor;
  forced.force_params = {{"MMA_K", 8}};
  DeviceInfo ampere = fake_h200();
  ampere.architecture = "sm_80";
  EXPECT_THROW(plan_gemm(ampere, 256, 256, 256, forced, DataType::F64), Error) << "m16n8k8 needs sm_90";
  GemmOptions k16 = forced;
  k16.force_params = {{"MMA_K", 16}, {"BK", 16}, {"BM", 64}, {"BN", 64}, {"STAGES", 2}};
  EXPECT_THROW(plan_gemm(ampere, 256, 256, 256, k16, DataType::F64), Error) << "m16n8k16 needs sm_90";
  EXPECT_NO_THROW(plan_gemm(fake_h200(), 256, 256, 256, k16, DataType::F64));
  k16.force_params["BK"] = 8;
  EXPECT_THROW(plan_gemm(fake_h200(), 256, 256, 256, k16, DataType::F64), Error) << "BK 8 holds no k16 step";
  if (tensor_path_available(shared_context().info())) GTEST_SKIP() << "this device has the tensor path";
  try {
    plan_gemm(shared_context().info(), 256, 256, 256, forced, DataType::F64);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::InvalidArgument);
    EXPECT_NE(std::string(e.what()).find("compute capability 8.0"), std::string::npos) << e.what();
  }
}

TEST(DmmaPlan, ReadsWhatIsNotWholeTilesInPlaceWithGuards) {
  GemmCall call;
  call.m = 1000, call.n = 1000, call.k = 1000;
  call.a.ld = call.b.ld = call.c.ld = 1000;
  call.a_type = call.b_type = call.c_type = DataType::F64;
  const CallPlan plan = plan_call(fake_h200(), call);
  ASSERT_EQ(plan.commands.size(), 1u) << plan.describe();
  EXPECT_TRUE(plan.temporaries.empty()) << plan.describe();
  const std::string& options = plan.commands[0].options;
  EXPECT_EQ(plan.commands[0].what, "dmma");
  for (const char* o : {"-DMMA_K=8", "-DPRECISION=64", "-DGUARD=1", "-DA_MK=1", "-DB_NK=0", "-DA_UNIT=2"})
    EXPECT_NE(options.find(o), std::string::npos) << o << " in " << options;
  call.a.ld = 1001;  // rows of A off 16-byte boundaries: a double at a time
  EXPECT_NE(plan_call(fake_h200(), call).commands[0].options.find("-DA_UNIT=1 -DB_UNIT=2"), std::string::npos);
}

}  // namespace
}  // namespace clgemm::test
