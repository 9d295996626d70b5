// inspect_test.cpp — inspect_call and `clgemm asm`: every kernel a call would run, built apart from
// the program cache, with what the compiler and the runtime report of it.
#include "cli_runner.hpp"
#include "test_support.hpp"

#include <clgemm/error.hpp>
#include <clgemm/gemm.hpp>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <iterator>
#include <string>

namespace clgemm::test {
namespace {

TEST(InspectCall, ReportsEveryCommandOfThePlan) {
  const DeviceInfo& d = shared_context().info();
  GemmCall call;
  call.m = 200, call.n = 300, call.k = 100;
  call.a.ld = 100, call.b.ld = 300, call.c.ld = 300;
  GemmOptions packed;
  packed.force_path = GemmPath::Packed;
  const CallPlan plan = plan_call(planning_device(d), call, packed);
  const std::vector<KernelReport> reports = inspect_call(d, call, packed);
  ASSERT_EQ(reports.size(), plan.commands.size());
  for (size_t i = 0; i < reports.size(); ++i) {
    EXPECT_EQ(reports[i].kernel, plan.commands[i].kernel);
    EXPECT_EQ(reports[i].options, plan.commands[i].options);
    EXPECT_GT(reports[i].work_group_size, 0u) << reports[i].kernel;
    // PoCL's binary is not PTX; NVIDIA's is, and its verbose log names the registers.
    if (reports[i].ptx.empty()) continue;
    EXPECT_NE(reports[i].ptx.find(".entry " + reports[i].kernel), std::string::npos);
    EXPECT_NE(reports[i].log.find("registers"), std::string::npos) << reports[i].log;
  }
  // xgemm stages its tiles in local memory.
  EXPECT_EQ(reports.back().kernel, "xgemm");
  EXPECT_GT(reports.back().local_bytes, 0u);
  // What plan_call refuses, inspect_call refuses alike.
  GemmCall bad = call;
  bad.layout = static_cast<Layout>(7);
  EXPECT_THROW(plan_call(d, bad), Error);
  EXPECT_THROW(inspect_call(d, bad), Error);
}

TEST(InspectCall, AsmCommandPrintsEachKernelAndWritesThePtx) {
  const std::string ptx = ::testing::TempDir() + "clgemm_asm_test.ptx";
  const CliRun r = run_cli("asm --m 100 --n 100 --k 100 --json --ptx " + ptx);
  ASSERT_EQ(r.status, 0) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  ASSERT_TRUE(doc.contains("kernels")) << r.out;
  ASSERT_EQ(doc["kernels"].size(), doc["commands"].size());
  for (const auto& k : doc["kernels"]) {
    EXPECT_GT(k["work_group_size"].get<size_t>(), 0u);
    EXPECT_TRUE(k["compiler"].is_array());
  }
  // The file holds each kernel's PTX where the device has PTX, and is empty where it has none.
  std::ifstream in(ptx);
  const std::string text((std::istreambuf_iterator<char>(in)), {});
  size_t with_ptx = 0;
  for (const auto& k : doc["kernels"]) with_ptx += k["ptx_bytes"].get<size_t>() > 0;
  EXPECT_EQ(text.empty(), with_ptx == 0);
  const CliRun plain = run_cli("asm --m 100 --n 100 --k 100");
  ASSERT_EQ(plain.status, 0) << plain.err;
  EXPECT_NE(plain.out.find("local memory"), std::string::npos) << plain.out;
}

}  // namespace
}  // namespace clgemm::test
