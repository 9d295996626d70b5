// kernel_families_test.cpp — the table of tunable kernel families (kernels/gemm/tunable_kernels.hpp)
// that the tuner, the candidate bench, the planner's entries and the tuning database ask instead
// of comparing names: each family's descriptor, path, kind, operand types and rule for tiles, and
// refusals that name every family.
#include "kernels/gemm/tunable_kernels.hpp"

#include "kernels/gemm/dmma/dmma_kernel.hpp"
#include "kernels/gemm/wgmma/wgmma_kernel.hpp"
#include "kernels/gemm/xmma/xmma_kernel.hpp"
#include "plan/launch_builder.hpp"
#include "test_support.hpp"

#include <clgemm/error.hpp>

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace clgemm::test {
namespace {

TEST(KernelFamilies, EachNamesItsDescriptorPathAndOperands) {
  std::set<std::string> ids;
  for (const detail::KernelFamily& f : detail::tunable_families()) {
    EXPECT_TRUE(ids.insert(f.id).second) << f.id << " twice";
    EXPECT_EQ(f.descriptor().info.id, f.id);
    EXPECT_EQ(&detail::tunable_descriptor(f.id), &f.descriptor());
    EXPECT_TRUE(detail::is_tunable_family(f.id));
    EXPECT_FALSE(f.operands.empty()) << f.id;
  }
  EXPECT_EQ(ids, (std::set<std::string>{"xgemm", "direct", "xmma", "wgmma", "dmma"}));
  using detail::tunable_family;
  EXPECT_EQ(tunable_family("xgemm").path, GemmPath::Packed);
  EXPECT_EQ(tunable_family("direct").path, GemmPath::Direct);
  EXPECT_EQ(tunable_family("xmma").path, GemmPath::Tensor);
  EXPECT_EQ(tunable_family("dmma").path, GemmPath::Tensor);
  EXPECT_EQ(tunable_family("wgmma").path, GemmPath::Wgmma);
  for (const char* id : {"xmma", "wgmma", "dmma"}) EXPECT_TRUE(tunable_family(id).tensor) << id;
  for (const char* id : {"xgemm", "direct"}) EXPECT_FALSE(tunable_family(id).tensor) << id;
  // Only xgemm's entries carry split-K.
  for (const detail::KernelFamily& f : detail::tunable_families()) EXPECT_EQ(f.splits_k, f.id == "xgemm") << f.id;
  // The operand types each multiplies.
  for (const DataType t : {DataType::F32, DataType::F64, DataType::F16, DataType::BF16}) {
    EXPECT_TRUE(tunable_family("xgemm").multiplies(t));
    EXPECT_TRUE(tunable_family("direct").multiplies(t));
    EXPECT_EQ(tunable_family("xmma").multiplies(t), t == DataType::F32) << data_type_name(t);
    EXPECT_EQ(tunable_family("dmma").multiplies(t), t == DataType::F64) << data_type_name(t);
    EXPECT_EQ(tunable_family("wgmma").multiplies(t), t != DataType::F64) << data_type_name(t);
  }
}

// The tensor families' rules are the planner's own (on an H200 as measured), the others have none.
TEST(KernelFamilies, TensorFamiliesCarryThePlannersRuleForTiles) {
  DeviceInfo h200 = fake_h200_for_wgmma();
  h200.tensor_maps = true;  // so that the warp-specialised tiles serve 4096³
  for (const detail::KernelFamily& f : detail::tunable_families())
    EXPECT_EQ(f.rule_tiles != nullptr, f.tensor) << f.id;
  const GemmShape big{4096, 4096, 4096, 1};
  const KernelParams dmma = detail::tunable_family("dmma").rule_tiles(h200, big, DataType::F64);
  EXPECT_EQ(dmma, detail::dmma_tiles(h200, 4096, 4096, 1));
  EXPECT_EQ(dmma.at("STAGES"), 6);
  const KernelParams wgmma = detail::tunable_family("wgmma").rule_tiles(h200, big, DataType::F16);
  EXPECT_EQ(wgmma, detail::wgmma_tiles(h200, 4096, 4096, 4096, 1, DataType::F16, Math::Tf32));
  EXPECT_EQ(wgmma.at("BN"), 256);
  const GemmShape batch{256, 256, 256, 64};
  EXPECT_EQ(detail::tunable_family("wgmma").rule_tiles(h200, batch, DataType::BF16),
            detail::wgmma_tiles(h200, 256, 256, 256, 64, DataType::BF16, Math::Tf32));
  EXPECT_EQ(detail::tunable_family("xmma").rule_tiles(h200, big, DataType::F32), detail::xmma_tiles(h200, 4096, 4096));
}

// Every plan names the family that runs it, so that nothing infers it from the path and the
// parameters (the tensor path runs two: xmma for floats, dmma for doubles).
TEST(KernelFamilies, PlansNameTheirKernel) {
  const DeviceInfo h200 = fake_h200(), hopper = fake_h200_for_wgmma();
  EXPECT_EQ(plan_gemm(h200, 4096, 4096, 4096, {}, DataType::F64).kernel, "dmma");
  GemmOptions three;
  three.math = Math::Tf32x3;
  const GemmPlan x = plan_gemm(h200, 4096, 4096, 4096, three, DataType::F32);
  EXPECT_EQ(x.path, GemmPath::Tensor);
  EXPECT_EQ(x.kernel, "xmma");
  EXPECT_EQ(plan_gemm(hopper, 4096, 4096, 4096, {}, DataType::F16).kernel, "wgmma");
  EXPECT_EQ(plan_gemm(hopper, 4096, 4096, 4096, three, DataType::F32).kernel, "wgmma");
  for (const GemmPath path : {GemmPath::Packed, GemmPath::Direct, GemmPath::Tall, GemmPath::Tiny}) {
    GemmOptions forced;
    forced.force_path = path;
    const GemmPlan plan = plan_gemm(h200, 64, 8, 64, forced, DataType::F32, path == GemmPath::Tiny ? 100 : 1);
    EXPECT_EQ(plan.path, path);
    const std::string want = path == GemmPath::Packed   ? "xgemm"
                             : path == GemmPath::Direct ? "direct"
                             : path == GemmPath::Tall   ? "tall"
                                                        : "tiny";
    EXPECT_EQ(plan.kernel, want) << plan.describe();
  }
  // The planner's own choice on this device, whichever family it is, is one of them.
  const GemmPlan here = plan_gemm(shared_context().info(), 1000, 1000, 1000, {}, DataType::F32);
  EXPECT_FALSE(here.kernel.empty()) << here.describe();
  if (here.path == GemmPath::Packed || here.path == GemmPath::Direct) {
    EXPECT_EQ(detail::tunable_family(here.kernel).path, here.path);
  }
}

// The launch finds each family's commands by the name its plan carries: a plan of the packed path
// names xgemm and gets its command; one that names no family is an internal error, not a guess.
TEST(KernelFamilies, TheLaunchFindsCommandsByTheFamilysName) {
  const DeviceInfo& dev = shared_context().info();
  detail::GemmPart part;
  part.g.m = 70, part.g.n = 50, part.g.k = 30;
  part.g.a = {nullptr, 0, 30}, part.g.b = {nullptr, 0, 50}, part.g.c = {nullptr, 0, 50};
  GemmOptions packed;
  packed.force_path = GemmPath::Packed;
  part.plan = plan_gemm(dev, 70, 50, 30, packed, DataType::F32);
  const detail::LaunchPlan launch = detail::build_launch_plan(dev, {part});
  ASSERT_FALSE(launch.commands.empty());
  EXPECT_EQ(launch.commands.back().what, "xgemm");
  for (const std::string bad : {"", "nope"}) {
    part.plan.kernel = bad;
    try {
      detail::build_launch_plan(dev, {part});
      ADD_FAILURE() << "a plan naming '" << bad << "' was launched";
    } catch (const Error& e) {
      EXPECT_EQ(e.status(), Status::InternalError);
      EXPECT_NE(std::string(e.what()).find("'" + bad + "'"), std::string::npos) << e.what();
    }
  }
}

TEST(KernelFamilies, AnUnknownNameIsRefusedWithTheFamiliesNamed) {
  EXPECT_FALSE(detail::is_tunable_family("tall"));
  EXPECT_FALSE(detail::is_tunable_family(""));
  try {
    detail::tunable_family("nope");
    FAIL() << "an unknown family was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::InvalidArgument);
    const std::string what = e.what();
    EXPECT_NE(what.find("'nope'"), std::string::npos) << what;
    EXPECT_NE(what.find(detail::tunable_family_names()), std::string::npos) << what;
  }
  EXPECT_EQ(detail::tunable_family_names(), "xgemm, direct, xmma, wgmma, dmma");
}

}  // namespace
}  // namespace clgemm::test
