// tensor_tune_space_test.cpp — what `clgemm tune --tensor` searches on an H200 (item 5 of the
// tensor-core issue): the wgmma kernel's large tiles and its warp-specialised schedule, and the
// dmma kernel's deep pipelines, each only where the static local limit the device measured holds
// it; on a device described without that measurement, nothing past 48 KiB.
#include "kernels/gemm/dmma/dmma_kernel.hpp"
#include "kernels/gemm/wgmma/wgmma_kernel.hpp"
#include "tune/param_space.hpp"
#include "tune/tuner.hpp"

#include "test_support.hpp"

#include <gtest/gtest.h>

#include <random>
#include <set>

namespace clgemm::test {
namespace {

struct Seen {
  std::set<long> bn, stages, ws;
  size_t most_local = 0;
};

Seen draws(const detail::GemmKernelDescriptor& d, const DeviceInfo& dev, const KernelParams& fixed, int count) {
  std::mt19937_64 rng(fresh_seed());
  Seen seen;
  const GemmShape shape{4096, 4096, 4096, 1};
  for (int i = 0; i < count; ++i) {
    const auto ps = detail::random_valid(d, dev, shape, fixed, rng);
    if (!ps) continue;
    seen.bn.insert(ps->at("BN"));
    seen.stages.insert(ps->at("STAGES"));
    if (ps->count("WS")) seen.ws.insert(ps->at("WS"));
    seen.most_local = std::max(seen.most_local, d.local_bytes(*ps));
  }
  return seen;
}

TEST(TensorTuneSpace, WgmmaSearchesLargeTilesAndTheScheduleWithinTheMeasuredLimit) {
  DeviceInfo h200 = fake_h200_for_wgmma();
  h200.tensor_maps = true;
  const detail::GemmKernelDescriptor& d = detail::wgmma_descriptor();
  const KernelParams f16 = detail::precision_fixed_params(d, DataType::F16);
  const Seen measured = draws(d, h200, f16, 400);
  EXPECT_TRUE(measured.bn.count(256)) << "128×256 tiles";
  EXPECT_TRUE(measured.ws.count(1)) << "the warp-specialised schedule";
  EXPECT_TRUE(measured.stages.count(6)) << "six slices";
  EXPECT_GT(measured.most_local, 49152u);
  EXPECT_LE(measured.most_local, h200.static_local_bytes);
  // Unmeasured (48 KiB) and without tensor maps: neither the large stages nor WS.
  DeviceInfo plain = fake_h200_for_wgmma();
  plain.static_local_bytes = 49152;
  const Seen small = draws(d, plain, f16, 400);
  EXPECT_FALSE(small.ws.count(1));
  EXPECT_LE(small.most_local, 49152u);
}

TEST(TensorTuneSpace, DmmaSearchesDeepPipelinesWithinTheMeasuredLimit) {
  DeviceInfo h200 = fake_h200();
  h200.static_local_bytes = 232444;
  const detail::GemmKernelDescriptor& d = detail::dmma_descriptor();
  const KernelParams f64 = {{"PRECISION", 64}};
  const Seen measured = draws(d, h200, f64, 400);
  EXPECT_TRUE(measured.stages.count(6));
  EXPECT_GT(measured.most_local, 49152u);
  EXPECT_LE(measured.most_local, h200.static_local_bytes);
  DeviceInfo plain = fake_h200();
  EXPECT_LE(draws(d, plain, f64, 400).most_local, 49152u);
}

}  // namespace
}  // namespace clgemm::test
