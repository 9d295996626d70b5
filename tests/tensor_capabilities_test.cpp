// tensor_capabilities_test.cpp — the one record of what a device offers the tensor-core families
// (kernels/nvidia_arch.hpp): the instructions of each NVIDIA architecture, the measured facts
// only where the architecture can have them, and the local limits with their fallbacks.
#include "kernels/nvidia_arch.hpp"

#include "test_support.hpp"

#include <gtest/gtest.h>

namespace clgemm::test {
namespace {

DeviceInfo nvidia(const std::string& architecture) {
  DeviceInfo d = fake_h200_for_wgmma();
  d.architecture = architecture;
  d.tensor_maps = true;
  return d;
}

TEST(TensorCapabilities, EachArchitectureHasItsInstructions) {
  const detail::TensorCapabilities hopper = detail::tensor_capabilities(nvidia("sm_90"));
  EXPECT_EQ(hopper.sm, 90);
  EXPECT_TRUE(hopper.cp_async && hopper.f64_m16 && hopper.wgmma);
  EXPECT_TRUE(hopper.sm90a_patching && hopper.tensor_maps);
  EXPECT_EQ(hopper.static_local_bytes, 232444u);
  EXPECT_EQ(hopper.dynamic_local_bytes, 49152u);
  // Ampere and Ada: cp.async and m8n8k4 on doubles; no wgmma, so no patching or maps whatever the
  // description's flags say.
  for (const char* arch : {"sm_80", "sm_86", "sm_89"}) {
    const detail::TensorCapabilities c = detail::tensor_capabilities(nvidia(arch));
    EXPECT_TRUE(c.cp_async) << arch;
    EXPECT_FALSE(c.f64_m16 || c.wgmma || c.sm90a_patching || c.tensor_maps) << arch;
    EXPECT_EQ(detail::has_cp_async(nvidia(arch)), true) << arch;
    EXPECT_FALSE(detail::wgmma_architecture(nvidia(arch))) << arch;
  }
  // Blackwell: sm_90a's wgmma does not run there.
  const detail::TensorCapabilities blackwell = detail::tensor_capabilities(nvidia("sm_100"));
  EXPECT_TRUE(blackwell.cp_async && blackwell.f64_m16);
  EXPECT_FALSE(blackwell.wgmma || blackwell.sm90a_patching);
  // Turing, and a string that is no sm number.
  for (const char* arch : {"sm_75", "sm_x", ""}) {
    const detail::TensorCapabilities c = detail::tensor_capabilities(nvidia(arch));
    EXPECT_FALSE(c.cp_async || c.f64_m16 || c.wgmma) << arch;
  }
}

TEST(TensorCapabilities, OtherDevicesHaveNoneAndTheirReportedLocalMemory) {
  DeviceInfo cpu = shared_context().info();
  cpu.vendor = "The pocl project", cpu.architecture = "sm_90";  // an architecture string is not enough
  cpu.static_local_bytes = 0;
  const detail::TensorCapabilities c = detail::tensor_capabilities(cpu);
  EXPECT_EQ(c.sm, 0);
  EXPECT_FALSE(c.cp_async || c.f64_m16 || c.wgmma || c.sm90a_patching || c.tensor_maps);
  // Unmeasured, the static limit is what the device reports.
  EXPECT_EQ(c.static_local_bytes, cpu.local_mem_bytes);
  EXPECT_EQ(c.dynamic_local_bytes, cpu.local_mem_bytes);
}

}  // namespace
}  // namespace clgemm::test
