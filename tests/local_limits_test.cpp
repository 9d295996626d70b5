// local_limits_test.cpp — the local memory a work-group may have: the static limit read from
// ptxas's refusal, descriptors checked against the limit of their own kind, and the measurement on
// this device (on NVIDIA GPUs, the probe's kernel of exactly the limit builds and one more word
// does not).
#include "kernels/descriptor.hpp"
#include "ladder/rungs.hpp"
#include "runtime/local_limits.hpp"

#include "test_support.hpp"

#include <clgemm/error.hpp>

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <string>

namespace clgemm::test {
namespace {

using detail::static_local_limit_from_log;

// The log NVIDIA's OpenCL (driver 580.159.04) gave on an H200 for the probe's kernel of 1 MiB.
std::string recorded_refusal() {
  std::ifstream in(std::string(CLGEMM_TEST_DATA) + "/ptxas_static_local_refusal.log");
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST(LocalLimits, ReadFromPtxasRefusal) {
  const std::string log = recorded_refusal();
  ASSERT_FALSE(log.empty()) << "tests/data/ptxas_static_local_refusal.log is missing";
  // 0x38c00 bytes at most, of which the runtime keeps 4: 232,444 for the array.
  EXPECT_EQ(static_local_limit_from_log(log, size_t(1) << 20), std::optional<size_t>(232444));
  // The numbers as the issue quotes them for an array of 232,448 bytes.
  const std::string line = "ptxas error   : Entry function 'stat' uses too much shared data (0x38c04 bytes, 0x38c00 max)";
  EXPECT_EQ(static_local_limit_from_log(line, 232448), std::optional<size_t>(232444));
}

TEST(LocalLimits, OtherLogsGiveNothing) {
  EXPECT_FALSE(static_local_limit_from_log("", 1024));
  EXPECT_FALSE(static_local_limit_from_log("error: use of undeclared identifier 'x'", 1024));
  // Fewer bytes used than the kernel declared, or more kept by the runtime than allowed at all.
  EXPECT_FALSE(static_local_limit_from_log("uses too much shared data (0x100 bytes, 0x38c00 max)", 1024));
  EXPECT_FALSE(static_local_limit_from_log("uses too much shared data (0x50000 bytes, 0x100 max)", 4));
  // A line cut short, or numbers that do not read.
  EXPECT_FALSE(static_local_limit_from_log("uses too much shared data (0x38c04 bytes", 232448));
  EXPECT_FALSE(static_local_limit_from_log("uses too much shared data (many bytes, 0x38c00 max)", 232448));
}

// A kernel whose only concern is its local memory, of the kind asked for.
detail::GemmKernelDescriptor with_local(detail::LocalMemoryKind kind) {
  detail::GemmKernelDescriptor d;
  d.info = {0, "probe", "local memory only", "none.cl", {"BYTES"}};
  d.params = {{"BYTES", 1024, 1024, "bytes of local memory", {}, 1}};
  d.local = [](const KernelParams&) { return cl::NDRange(64); };
  d.local_bytes = [](const KernelParams& ps) { return size_t(ps.at("BYTES")); };
  d.local_kind = kind;
  return d;
}

TEST(LocalLimits, EachKindIsCheckedAgainstItsOwnLimit) {
  // A small device, for parameter values under kMostParamValue: 1 KiB for arguments, 3000 bytes
  // for arrays.
  DeviceInfo h200 = fake_h200();
  h200.local_mem_bytes = 1024, h200.static_local_bytes = 3000;
  const auto fixed = with_local(detail::LocalMemoryKind::Static), argument = with_local(detail::LocalMemoryKind::Dynamic);
  EXPECT_NO_THROW(detail::resolve_params(fixed, h200, {{"BYTES", 2048}}));
  EXPECT_NO_THROW(detail::resolve_params(fixed, h200, {{"BYTES", 3000}}));
  EXPECT_NO_THROW(detail::resolve_params(argument, h200, {{"BYTES", 1024}}));
  for (const auto& [d, bytes] : {std::pair{&fixed, 3004}, std::pair{&argument, 1028}}) {
    try {
      detail::resolve_params(*d, h200, {{"BYTES", bytes}});
      ADD_FAILURE() << bytes << " bytes were accepted";
    } catch (const Error& e) {
      EXPECT_EQ(e.status(), Status::OutOfResources);
      const std::string why = e.what();
      EXPECT_NE(why.find(d == &fixed ? "static" : "dynamic"), std::string::npos) << why;
      EXPECT_NE(why.find(d == &fixed ? "3000" : "1024"), std::string::npos) << why;
    }
  }
  // A device described by hand, without the static limit, keeps CL_DEVICE_LOCAL_MEM_SIZE for both.
  DeviceInfo unmeasured = h200;
  unmeasured.static_local_bytes = 0;
  EXPECT_EQ(detail::local_limit(unmeasured, detail::LocalMemoryKind::Static), 1024u);
  EXPECT_THROW(detail::resolve_params(fixed, unmeasured, {{"BYTES", 2048}}), Error);
}

TEST(LocalLimits, SmallGpusTakeTheSmallerDefaults) {
  // A GPU with 3000 bytes for arrays: the GPU default of 4096 does not fit, the CPU one of 1024
  // does, and is taken. A value the caller gives is never replaced.
  DeviceInfo small = fake_h200();
  small.local_mem_bytes = 1024, small.static_local_bytes = 3000;
  auto d = with_local(detail::LocalMemoryKind::Static);
  d.params = {{"BYTES", 4096, 1024, "bytes of local memory", {}, 1}};
  EXPECT_EQ(detail::resolve_params(d, small, {}).at("BYTES"), 1024);
  EXPECT_EQ(detail::resolve_params(d, fake_h200_for_wgmma(), {}).at("BYTES"), 4096) << "where it fits";
  EXPECT_THROW(detail::resolve_params(d, small, {{"BYTES", 4096}}), Error);
  // Oclgrind's 32 KiB: the ladder's rungs 4 and 5 (TS = 64: 33,792 and 34,816 bytes) take TS = 32.
  DeviceInfo oclgrind = fake_h200();
  oclgrind.local_mem_bytes = oclgrind.static_local_bytes = 32768;
  oclgrind.max_work_group_size = 256;
  for (int rung : {4, 5}) {
    const KernelParams ps = detail::resolve_params(detail::ladder_descriptor(rung), oclgrind, {});
    EXPECT_EQ(ps.at("TS"), 32) << "rung " << rung;
    EXPECT_EQ(detail::resolve_params(detail::ladder_descriptor(rung), fake_h200(), {}).at("TS"), 64) << "rung " << rung;
  }
}

TEST(LocalLimits, MeasuredOnThisDevice) {
  const Context& ctx = shared_context();
  const DeviceInfo& info = ctx.info();
  const size_t limit = detail::static_local_limit(ctx);
  EXPECT_EQ(detail::static_local_limit(ctx), limit);  // remembered
  EXPECT_EQ(detail::with_local_limits(ctx).static_local_bytes, limit);
  EXPECT_EQ(with_measured_local_limits(info).static_local_bytes, limit);
  if (info.vendor.find("NVIDIA") == std::string::npos || info.kind != DeviceKind::GPU) {
    EXPECT_EQ(limit, info.local_mem_bytes);  // PoCL and the rest: what the device reports
    return;
  }
  EXPECT_GE(limit, info.local_mem_bytes);
  // A static array of the limit builds; four bytes more do not.
  const auto builds = [&](size_t bytes) {
    cl::Program p(ctx.context(), "__kernel void k(__global uint* o) { __local uint s[" + std::to_string(bytes / 4) +
                                     "]; s[get_local_id(0)] = 1; barrier(CLK_LOCAL_MEM_FENCE); o[0] = s[3]; }");
    try {
      p.build({ctx.device()});
      return true;
    } catch (const std::exception&) {
      return false;
    }
  };
  EXPECT_TRUE(builds(limit)) << limit;
  EXPECT_FALSE(builds(limit + 4)) << limit;
}

}  // namespace
}  // namespace clgemm::test
