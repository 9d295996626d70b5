// bench_quant_cli_test.cpp — `clgemm bench --quant` end to end on the default device (PoCL in CI):
// every format checked against its own weights, the dense comparisons checked against the
// weights they receive, the weight bandwidth reported, and bad options refused before any run.
#include "cli_runner.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <string>

#ifdef CLGEMM_TEST_CLI
namespace {

using clgemm::test::CliRun;
using clgemm::test::run_cli;

struct QuantRun {
  std::string format, precision, extra;
};

// M = 1 takes the GEMV kernel (and OpenBLAS's sgemv), M = 19 the tiled one; K spans one block
// and several; N is odd.
TEST(QuantBenchCli, EveryFormatIsCheckedAgainstItsWeights) {
  for (const QuantRun& q : {QuantRun{"q8_0", "f32", ""}, QuantRun{"q4_0", "bf16", "--layout col"},
                            QuantRun{"q4_k", "f16-f32", "--beta 0.5"}, QuantRun{"q6_k", "f32", "--layout col"}}) {
    SCOPED_TRACE(q.format + " " + q.precision + " " + q.extra);
    const std::string sizes = q.format.back() == 'k' ? "1x37x256,19x33x512" : "1x37x32,19x33x160";
    const CliRun o = run_cli("bench --quant " + q.format + " --precision " + q.precision + " --sizes " + sizes +
                             " --impl clgemm,clgemm-dense,openblas --json --seed 11 " + q.extra);
    ASSERT_EQ(o.status, 0) << o.err;
    const auto doc = nlohmann::json::parse(o.out);
    EXPECT_EQ(doc["settings"]["quant"], q.format);
    EXPECT_GT(doc["copy_bandwidth"]["gbs"].get<double>(), 0);
    for (const auto& i : doc["implementations"]) EXPECT_EQ(i["quantized"], i["name"] == "clgemm") << i.dump();
    ASSERT_EQ(doc["results"].size(), 2u * 3u);
    for (const auto& r : doc["results"]) {
      const std::string impl = r["impl"], status = r["status"];
      SCOPED_TRACE(impl + " at M = " + std::to_string(r["m"].get<size_t>()));
      if (impl == "openblas" && q.precision != "f32") {
        EXPECT_EQ(status, "n/a") << r["note"];
        continue;
      }
      ASSERT_EQ(status, "ok") << r["note"];
      EXPECT_LE(r["relative_error"].get<double>(), r["tolerance"].get<double>());
      EXPECT_GT(r["weight_gbs"].get<double>(), 0);
    }
  }
}

TEST(QuantBenchCli, BatchesRunAsOneStridedCall) {
  const CliRun o = run_cli("bench --quant q8_0 --sizes 3x21x64 --batch 3 --impl clgemm,clgemm-dense --json --seed 4");
  ASSERT_EQ(o.status, 0) << o.err;
  const auto doc = nlohmann::json::parse(o.out);
  ASSERT_EQ(doc["results"].size(), 2u);
  for (const auto& r : doc["results"]) {
    EXPECT_EQ(r["batch"], 3);
    EXPECT_EQ(r["status"], "ok") << r["impl"] << ": " << r["note"];
  }
}

// OpenBLAS's GEMV stands in for its GEMM at M = 1 in every layout and transpose; each is checked.
TEST(QuantBenchCli, OpenBlasGemvPeerIsCheckedInEveryLayout) {
  for (const std::string args : {"--layout row", "--layout row --transa t --transb t", "--layout col --transa t",
                                 "--layout col --transb t --beta 0.5"}) {
    SCOPED_TRACE(args);
    const CliRun o = run_cli("bench --sizes 1x45x33 --impl openblas --json --seed 2 " + args);
    ASSERT_EQ(o.status, 0) << o.err;
    const auto doc = nlohmann::json::parse(o.out);
    ASSERT_EQ(doc["results"].size(), 1u);
    EXPECT_EQ(doc["results"][0]["status"], "ok") << doc["results"][0]["note"];
  }
}

TEST(QuantBenchCli, BadOptionsAreRefusedNamingThem) {
  struct Case {
    std::string args, want;
  };
  for (const Case& c : {Case{"--quant q5_1 --sizes 1x8x32", "--quant: no quantized format named 'q5_1'"},
                        Case{"--quant q4_k --sizes 1x8x100", "K must be a multiple of 256, the block of q4_k"},
                        Case{"--quant q4_0 --precision f64 --sizes 1x8x32", "--precision f64"},
                        Case{"--quant q4_0 --transb t --sizes 1x8x32", "--transb does not apply with --quant"},
                        Case{"--quant q8_0 --grouped random", "--grouped does not apply with --quant"}}) {
    SCOPED_TRACE(c.args);
    const CliRun o = run_cli("bench " + c.args + " --impl clgemm");
    EXPECT_EQ(o.status, 2) << o.err;
    EXPECT_NE(o.err.find(c.want), std::string::npos) << o.err;
    EXPECT_TRUE(o.out.empty()) << "nothing is measured: " << o.out;
  }
}

}  // namespace
#endif  // CLGEMM_TEST_CLI
