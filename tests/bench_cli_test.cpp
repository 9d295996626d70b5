// bench_cli_test.cpp — `clgemm bench` end to end on the default device (PoCL in CI), small sizes:
// the JSON document, the CSV file and the plot, as a user would get them.
#include <clgemm/device.hpp>

#include "bench/shapes.hpp"
#include "cli_runner.hpp"
#include "test_support.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <unistd.h>

#ifdef CLGEMM_TEST_CLI
namespace {

using clgemm::test::CliRun;
using clgemm::test::run_cli;

TEST(BenchCli, SmallRunGivesCheckedJsonCsvAndPlot) {
  const std::string dir = ::testing::TempDir();
  const std::string csv = dir + "/bench_cli.csv", png = dir + "/bench_cli.png";
  std::filesystem::remove(csv);
  std::filesystem::remove(png);
  const bool plot = std::system("command -v gnuplot > /dev/null 2>&1 || python3 -c 'import matplotlib' "
                                "> /dev/null 2>&1") == 0;
  const CliRun o = run_cli("bench --sizes 64,100 --impl clgemm,openblas,ladder:6,clblast,cublas --json --seed 5 --csv " +
                           csv + (plot ? " --plot " + png : ""));
  ASSERT_EQ(o.status, 0) << o.err;
  const auto doc = nlohmann::json::parse(o.out);

  std::set<std::string> impls;
  for (const auto& i : doc["implementations"]) impls.insert(i["name"].get<std::string>());
  EXPECT_EQ(impls, (std::set<std::string>{"clgemm", "openblas", "ladder:6", "clblast", "cublas"}));
  EXPECT_EQ(doc["settings"]["repeat"], 10);
  EXPECT_EQ(doc["settings"]["seed"], 5);
  EXPECT_NE(doc["environment"]["command"].get<std::string>().find("--sizes 64,100"), std::string::npos);
  EXPECT_FALSE(doc["environment"]["device"]["name"].get<std::string>().empty());

  ASSERT_EQ(doc["results"].size(), 2u * 5u);
  for (const auto& r : doc["results"]) {
    const std::string impl = r["impl"], status = r["status"];
    SCOPED_TRACE(impl + " at " + std::to_string(r["m"].get<size_t>()));
    if (impl == "clgemm" || impl == "openblas" || impl == "ladder:6") {
      EXPECT_EQ(status, "ok") << r["note"];
      EXPECT_EQ(r["times_s"].size(), 10u);
      EXPECT_GT(r["gflops"].get<double>(), 0);
      EXPECT_LE(r["relative_error"].get<double>(), r["tolerance"].get<double>());
      EXPECT_LE(r["min_s"].get<double>(), r["median_s"].get<double>());
    } else {
      // Peers that this build or machine lacks are "n/a" with the reason; present ones are checked.
      EXPECT_TRUE(status == "ok" || status == "n/a") << status << ": " << r["note"];
      if (status == "n/a") {
        EXPECT_NE(r["note"].get<std::string>().find("not available"), std::string::npos);
      }
    }
  }
  ASSERT_EQ(doc["comparisons"].size(), 2u);
  EXPECT_EQ(doc["comparisons"][1]["m"], 100);
  EXPECT_FALSE(doc["comparisons"][0]["best_peer"].get<std::string>().empty());  // openblas at least

  std::ifstream in(csv);
  std::string header, line;
  ASSERT_TRUE(std::getline(in, header));
  EXPECT_EQ(header.rfind("group,x,m,n,k,impl,status,", 0), 0u);
  size_t rows = 0;
  while (std::getline(in, line)) ++rows;
  EXPECT_EQ(rows, 10u);
  if (plot) {
    EXPECT_GT(std::filesystem::file_size(png), 1000u);
  }
}

// --batch and BxMxNxK run strided batches: clgemm and CLBlast (when built in) check every item,
// the implementations without a batched call say so.
TEST(BenchCli, BatchedShapesRunAsOneStridedBatchedCall) {
  const CliRun o = run_cli("bench --sizes 7x9x13,5x33x17x65 --batch 3 --impl clgemm,clblast,openblas --json --seed 7");
  ASSERT_EQ(o.status, 0) << o.err;
  const auto doc = nlohmann::json::parse(o.out);
  ASSERT_EQ(doc["results"].size(), 6u);
  for (const auto& r : doc["results"]) {
    const std::string impl = r["impl"], status = r["status"];
    SCOPED_TRACE(impl + " at batch " + std::to_string(r["batch"].get<size_t>()));
    EXPECT_EQ(r["batch"], 3) << "--batch sets every shape's count";
    if (impl == "clgemm") {
      EXPECT_EQ(status, "ok") << r["note"];
      EXPECT_LE(r["relative_error"].get<double>(), r["tolerance"].get<double>());
    } else if (impl == "openblas") {
      EXPECT_EQ(status, "n/a");
      EXPECT_NE(r["note"].get<std::string>().find("no strided-batched call"), std::string::npos) << r["note"];
    } else {
      EXPECT_TRUE(status == "ok" || status == "n/a") << status << ": " << r["note"];
    }
  }
  const CliRun bad = run_cli("bench --sizes 8 --batch 0");
  EXPECT_NE(bad.status, 0);
}

// --grouped runs one grouped call: clgemm checks every problem; peers without one say so.
TEST(BenchCli, GroupedRunsOneCall) {
  const CliRun o = run_cli("bench --grouped random:5:3:40:2 --impl clgemm,openblas --json --transb t");
  ASSERT_EQ(o.status, 0) << o.err;
  const auto doc = nlohmann::json::parse(o.out);
  ASSERT_EQ(doc["results"].size(), 2u);
  EXPECT_EQ(doc["results"][0]["status"], "ok") << doc["results"][0]["note"];
  EXPECT_EQ(doc["results"][1]["status"], "n/a");
  EXPECT_NE(run_cli("bench --grouped random --sizes 64").status, 0) << "--grouped and --sizes together";
  // A mixture-of-experts layer whose routing leaves some experts without rows: the call with its
  // empty problems checks out.
  const std::string moe = "moe:16:40:24:60:3";
  size_t empty = 0;
  for (const clgemm::GemmShape& p : clgemm::bench::parse_grouped(moe).problems) empty += p.m == 0;
  ASSERT_GT(empty, 0u) << moe << " should leave an expert without rows";
  const CliRun m = run_cli("bench --grouped " + moe + " --impl clgemm --json");
  ASSERT_EQ(m.status, 0) << m.err;
  const auto moe_doc = nlohmann::json::parse(m.out);
  ASSERT_EQ(moe_doc["results"].size(), 1u);
  EXPECT_EQ(moe_doc["results"][0]["status"], "ok") << moe_doc["results"][0]["note"];
  // The JSON lists the problems, empty ones included, as the spec routes them.
  const auto listed = moe_doc["results"][0]["problems"];
  const auto routed = clgemm::bench::parse_grouped(moe).problems;
  ASSERT_EQ(listed.size(), routed.size());
  for (size_t i = 0; i < routed.size(); ++i) {
    EXPECT_EQ(listed[i][0], routed[i].m);
    EXPECT_EQ(listed[i][1], routed[i].n);
    EXPECT_EQ(listed[i][2], routed[i].k);
  }
}

// A grouped call's default peers include one cuBLAS call per problem; --impl alone decides otherwise.
TEST(BenchCli, GroupedDefaultsAddTheCublasLoop) {
  auto impls_of = [](const std::string& args) {
    const CliRun o = run_cli("bench " + args + " --json");
    EXPECT_EQ(o.status, 0) << o.err;
    std::vector<std::string> names;
    const auto doc = nlohmann::json::parse(o.out);
    for (const auto& r : doc["results"]) names.push_back(r["impl"]);
    return names;
  };
  auto has = [](const std::vector<std::string>& v, const char* n) { return std::find(v.begin(), v.end(), n) != v.end(); };
  EXPECT_TRUE(has(impls_of("--grouped random:3:3:20:2"), "cublas-loop"));
  EXPECT_FALSE(has(impls_of("--grouped random:3:3:20:2 --impl clgemm,cublas"), "cublas-loop"));
  EXPECT_FALSE(has(impls_of("--sizes 24 --impl clgemm,openblas"), "cublas-loop"));
}

TEST(BenchCli, TableNamesPeersAndRatios) {
  const CliRun o = run_cli("bench --sizes 48 --impl clgemm,openblas,cpu-loop");
  ASSERT_EQ(o.status, 0) << o.err;
  for (const char* want : {"clgemm", "openblas", "cpu-loop", "GFLOP/s", "vs clgemm", "best peer", "clgemm / peer"})
    EXPECT_NE(o.out.find(want), std::string::npos) << want << " missing from:\n" << o.out;
}

TEST(BenchCli, BadArgumentsFailWithAMessage) {
  CliRun o = run_cli("bench --sizes 64 --impl mkl");
  EXPECT_NE(o.status, 0);
  EXPECT_NE(o.err.find("unknown implementation 'mkl'"), std::string::npos) << o.err;
  o = run_cli("bench --sizes 64:32");
  EXPECT_NE(o.status, 0);
  EXPECT_NE(o.err.find("64:32"), std::string::npos) << o.err;
  o = run_cli("bench --sizes 64 --repeat 3");
  EXPECT_NE(o.status, 0);
}

// --precision end to end: every row carries the precision, clgemm passes the float64 check on odd
// shapes, peers without an entry point for the types are "n/a" with a reason, and CLBlast runs its
// Dgemm where it is built and the device has float64.
TEST(BenchCli, PrecisionRunsAreCheckedAndCarryTheirPrecision) {
  for (const std::string precision : {"f64", "f16", "bf16-f32"}) {
    SCOPED_TRACE(precision);
    const CliRun o = run_cli("bench --precision " + precision +
                             " --sizes 37x53x29,65x7x129 --impl clgemm,clblast,openblas,cpu-loop --json --seed 9");
    if (precision == "f64" && o.status == 2 && o.err.find("cl_khr_fp64") != std::string::npos) continue;
    ASSERT_EQ(o.status, 0) << o.err;
    const auto doc = nlohmann::json::parse(o.out);
    EXPECT_EQ(doc["settings"]["precision"], precision);
    ASSERT_EQ(doc["results"].size(), 2u * 4u);
    for (const auto& r : doc["results"]) {
      const std::string impl = r["impl"], status = r["status"];
      SCOPED_TRACE(impl + " at " + std::to_string(r["m"].get<size_t>()));
      EXPECT_EQ(r["precision"], precision);
      EXPECT_TRUE(status == "ok" || status == "n/a") << status << ": " << r["note"];
      if (status == "ok") {
        EXPECT_LE(r["relative_error"].get<double>(), r["tolerance"].get<double>());
      } else {
        EXPECT_FALSE(r["note"].get<std::string>().empty());
      }
      if (impl == "clgemm") {
        EXPECT_EQ(status, "ok") << r["note"];
      }
      if (impl == "openblas") {
        EXPECT_EQ(status, precision == "f64" ? "ok" : "n/a") << r["note"];
      }
      if (impl == "cpu-loop") {
        EXPECT_EQ(status, "n/a");
      }
      const bool clblast_built = r["note"].get<std::string>().find("built without CLBlast") == std::string::npos;
      if (impl == "clblast" && precision == "f64" && clblast_built) {
        EXPECT_EQ(status, "ok") << r["note"];
      }
    }
    for (const auto& i : doc["implementations"])
      if (i["name"] == "clblast" && i["available"] == true && precision == "f64") {
        EXPECT_NE(i["description"].get<std::string>().find("CLBlastDgemm"), std::string::npos) << i.dump();
        EXPECT_EQ(i["arithmetic"], "fp64");
      }
  }
}

TEST(BenchCli, UnknownPrecisionExitsWith2AndListsTheValues) {
  const CliRun o = run_cli("bench --sizes 16 --impl openblas --precision fp16");
  EXPECT_EQ(o.status, 2) << o.err;
  for (const char* want : {"--precision", "'fp16'", "f32, f64, f16, bf16, f16-f32, bf16-f32"})
    EXPECT_NE(o.err.find(want), std::string::npos) << want << " missing from: " << o.err;
  EXPECT_TRUE(o.out.empty()) << "nothing is measured: " << o.out;
}

// `clgemm tune --try`: given configurations checked and timed, split-K among them; a cube is a
// shape like any other, a range is not.
TEST(TuneCli, TryChecksAndTimesConfigurationsWithSplitK) {
  const std::string cfg = "MWG=32,NWG=32,MDIMC=8,NDIMC=8,VWM=2,VWN=2";
  const CliRun o = run_cli("tune --shape 70x40x100 --try " + cfg + " --try " + cfg + ",SPLIT=3,SPLIT_TILES=2 --json");
  ASSERT_EQ(o.status, 0) << o.err;
  const auto doc = nlohmann::json::parse(o.out);
  ASSERT_EQ(doc["results"].size(), 2u) << o.out;
  for (const auto& r : doc["results"]) EXPECT_EQ(r["outcome"], "ok") << r.dump();
  EXPECT_FALSE(doc["results"][0]["params"].contains("SPLIT"));
  EXPECT_EQ(doc["results"][1]["params"]["SPLIT"], 3) << doc["results"][1].dump();
  EXPECT_EQ(doc["results"][1]["params"]["SPLIT_TILES"], 2) << doc["results"][1].dump();
  const CliRun cube = run_cli("tune --shape 48x48x48 --try " + cfg + " --json");
  EXPECT_EQ(cube.status, 0) << cube.err;
  const CliRun range = run_cli("tune --shape 64:128 --try " + cfg);
  EXPECT_NE(range.status, 0);
  EXPECT_NE(range.err.find("is not MxNxK"), std::string::npos) << range.err;
}

// `clgemm tune --tensor`: only the classes the tensor path serves; on a device without the path a
// clear refusal, on one with it an entry of its tensor kernel in the database.
TEST(TuneCli, TensorTunesTheTensorPathWhereTheDeviceHasIt) {
  CliRun o = run_cli("tune --tensor --classes small --budget 1");
  EXPECT_NE(o.status, 0);
  EXPECT_NE(o.err.find("mid and large"), std::string::npos) << o.err;

  const std::string db = ::testing::TempDir() + "/tensor_tune_" + std::to_string(getpid()) + ".json";
  o = run_cli("tune --tensor --classes large --budget 1 --database " + db + " --json");
  if (o.status != 0) {
    EXPECT_NE(o.err.find("needs the tensor path"), std::string::npos) << o.err;
    EXPECT_FALSE(std::filesystem::exists(db)) << "nothing is saved after a refusal";
    return;
  }
  std::ifstream in(db);
  ASSERT_TRUE(in.good()) << "no database at " << db;
  const auto saved = nlohmann::json::parse(in);
  ASSERT_EQ(saved["entries"].size(), 1u) << saved.dump();
  // Hopper cards that build patched PTX tune their wgmma kernel, other sm_80+ cards xmma.
  const bool wgmma = clgemm::planning_device(clgemm::test::shared_context().info()).sm90a_patching;
  EXPECT_EQ(saved["entries"][0]["kernel"], wgmma ? "wgmma" : "xmma");
  EXPECT_EQ(saved["entries"][0]["shape_class"], "large");
  std::filesystem::remove(db);
}

// `clgemm plan --edges split` shows the interior's plan and each strip's; --run checks the result
// of the three GEMMs against float64 (the command fails on a wrong one).
TEST(PlanCli, EdgesSplitShowsTheStripsAndRunsCorrectly) {
  const CliRun o = run_cli("plan --m 200 --n 170 --k 90 --path packed --edges split --run --repeat 2 --json");
  ASSERT_EQ(o.status, 0) << o.err;
  const auto doc = nlohmann::json::parse(o.out);
  ASSERT_TRUE(doc.contains("interior")) << o.out;
  const size_t im = doc["interior"][0], in = doc["interior"][1];
  EXPECT_LT(im, 200u);
  EXPECT_LT(in, 170u);
  ASSERT_EQ(doc["strips"].size(), 2u) << o.out;
  EXPECT_EQ(doc["strips"][0]["shape"], std::to_string(200 - im) + "x170x90");
  EXPECT_EQ(doc["strips"][1]["shape"], std::to_string(im) + "x" + std::to_string(170 - in) + "x90");
  EXPECT_TRUE(doc["run"]["correct"].get<bool>()) << o.out;
  const CliRun whole = run_cli("plan --m 200 --n 170 --k 90 --path packed --edges whole --json");
  ASSERT_EQ(whole.status, 0) << whole.err;
  EXPECT_FALSE(nlohmann::json::parse(whole.out).contains("strips")) << whole.out;
}

// `clgemm plan --precision bf16 --c-type f32` names the types and plans bf16 operands: the packs
// read them as stored (IN_STORAGE) and widen them, the kernel writes an f32 C; --run checks the
// typed GEMM against float64.
TEST(PlanCli, PrecisionAndCTypeNameTheTypesAndReachTheCommands) {
  const std::string args = "plan --m 96 --n 80 --k 72 --precision bf16 --c-type f32 --path packed";
  const CliRun o = run_cli(args + " --run --repeat 1 --json");
  ASSERT_EQ(o.status, 0) << o.err;
  const auto doc = nlohmann::json::parse(o.out);
  EXPECT_EQ(doc["a_type"], "bf16");
  EXPECT_EQ(doc["b_type"], "bf16");
  EXPECT_EQ(doc["c_type"], "f32");
  EXPECT_EQ(doc["path"], "packed");
  EXPECT_EQ(doc["kernel"], "xgemm");
  size_t packs = 0;
  for (const auto& c : doc["commands"]) {
    const std::string what = c["what"], options = c["options"];
    if (what.rfind("pack", 0) == 0) {
      ++packs;
      EXPECT_NE(options.find("-DIN_STORAGE=STORAGE_BF16"), std::string::npos) << what << ": " << options;
    }
    EXPECT_EQ(options.find("OUT_STORAGE"), std::string::npos) << "C is f32: " << what << ": " << options;
  }
  EXPECT_EQ(packs, 2u) << o.out;
  EXPECT_TRUE(doc["run"]["correct"].get<bool>()) << o.out;
  const CliRun text = run_cli(args);
  ASSERT_EQ(text.status, 0) << text.err;
  EXPECT_NE(text.out.find("96x80x72, A and B bf16, C f32, on "), std::string::npos) << text.out;
}

// `clgemm tune --try --precision f64` measures double-precision kernels, and `--show` prints each
// entry's precision.
TEST(TuneCli, PrecisionReachesTryAndShowNamesEachEntrysPrecision) {
  if (clgemm::choose_device().fp64) {
    // A configuration valid on GPUs and CPUs alike (the defaults of MDIMC and VWM differ).
    const CliRun o = run_cli("tune --try MWG=32,NWG=32,MDIMC=8,NDIMC=8,VWM=2,VWN=2 --shape 40x40x40 --precision f64 --json");
    ASSERT_EQ(o.status, 0) << o.err;
    const auto doc = nlohmann::json::parse(o.out);
    EXPECT_EQ(doc["precision"], "f64");
    ASSERT_EQ(doc["results"].size(), 1u) << o.out;
    EXPECT_EQ(doc["results"][0]["outcome"], "ok") << o.out;
    EXPECT_EQ(doc["results"][0]["params"]["PRECISION"], 64) << o.out;
  }
  const std::string db = ::testing::TempDir() + "/tune_show_precision_" + std::to_string(getpid()) + ".json";
  std::ofstream(db) << R"({"format": 1, "entries": [)"
                    << R"({"device": "d", "shape_class": "small", "kernel": "xgemm", "params": {"MWG": 32}},)"
                    << R"({"device": "d", "shape_class": "small", "kernel": "direct", "precision": "bf16", "params": {}}]})";
  const CliRun show = run_cli("tune --show --database " + db);
  std::filesystem::remove(db);
  ASSERT_EQ(show.status, 0) << show.err;
  EXPECT_NE(show.out.find("precision"), std::string::npos) << show.out;
  EXPECT_NE(show.out.find(" f32 "), std::string::npos) << show.out;
  EXPECT_NE(show.out.find(" bf16 "), std::string::npos) << show.out;
}

}  // namespace
#endif  // CLGEMM_TEST_CLI
