// cli_validation_test.cpp — the CLI refuses bad arguments before any work: sizes past 2^31 - 1
// or past the device's memory, unknown rungs and parameters, NaN and Inf limits, ranges without
// end, unwritable output files. Each refusal exits with status 2 (or CLI11's usage status), names
// the option, says what is allowed, never reads "bad_alloc" or "map::at", and comes before the
// command has measured anything or written any result.
#include <clgemm/device.hpp>

#include "cli_runner.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <unistd.h>

#ifdef CLGEMM_TEST_CLI
namespace {

using clgemm::test::CliRun;
using clgemm::test::run_cli;
namespace fs = std::filesystem;

constexpr int kError = 2;         // clgemm::Error, as main() reports it
constexpr int kUsageError = 105;  // CLI11's ValidationError: a value its validator refuses

// Where this test's files go: one folder per process (ctest runs several at once), removed when
// the process ends.
std::string scratch() {
  static const struct Folder {
    std::string path = ::testing::TempDir() + "/cli_validation_" + std::to_string(getpid());
    Folder() { fs::create_directories(path); }
    ~Folder() {
      std::error_code ec;
      fs::remove_all(path, ec);
    }
  } folder;
  return folder.path;
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// The command failed with `status`, its message names every one of `words`, it is no crash, and
// it came before any measuring: no progress line of the work and no output on stdout.
void expect_refused(const std::string& args, int status, const std::vector<std::string>& words,
                    const std::string& env = "") {
  SCOPED_TRACE("clgemm " + args);
  const CliRun r = run_cli(args, env);
  EXPECT_EQ(r.status, status) << r.err;
  for (const auto& w : words) EXPECT_TRUE(has(r.err, w)) << "'" << w << "' missing from:\n" << r.err;
  for (const char* crash : {"bad_alloc", "map::at", "std::vector", "max_size()", "_M_default_append"})
    EXPECT_FALSE(has(r.err, crash)) << r.err;
  for (const char* work : {"reference", "loading implementations", "building", "generating", "run 1/", "tried"})
    EXPECT_FALSE(has(r.err, work)) << "work began before the refusal:\n" << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_LT(r.seconds, 30.0);
}

// A square side whose A alone is more than the default device holds in one buffer.
size_t side_past_max_alloc() {
  const clgemm::DeviceInfo d = clgemm::choose_device();
  return size_t(std::sqrt(double(d.max_alloc_bytes) / 4.0)) + 2;
}

TEST(CliValidation, SizesPastTheIndexRangeAreRefused) {
  for (const std::string size : {"2147483648", "999999999999"}) {
    expect_refused("ladder --size " + size, kError, {"error (size overflow)", "--size", size, "2^31 - 1"});
    expect_refused("sparse --size " + size, kError, {"error (size overflow)", "--size", "2^31 - 1"});
    expect_refused("plan --m " + size + " --n 16 --k 16", kError, {"error (size overflow)", "--m", "2^31 - 1"});
    expect_refused("bench --sizes " + size, kError, {"error (size overflow)", "--sizes", "2^31 - 1"});
    expect_refused("bench --sizes 16x16x" + size, kError, {"error (size overflow)", "--sizes"});
    expect_refused("bench --sizes square --max-size " + size, kError, {"error (size overflow)", "--max-size"});
    expect_refused("tune --shape " + size + "x16x16 --try MWG=32", kError, {"error (size overflow)", "--shape"});
  }
}

TEST(CliValidation, SizesPastTheDeviceMemoryAreRefusedNamingTheLimit) {
  const std::string side = std::to_string(side_past_max_alloc());
  const std::vector<std::string> limit = {"error (invalid argument)", side, "CL_DEVICE_MAX_MEM_ALLOC_SIZE"};
  auto with = [&limit](std::vector<std::string> words) {
    words.insert(words.end(), limit.begin(), limit.end());
    return words;
  };
  expect_refused("ladder --size " + side, kError, with({"--size"}));
  expect_refused("ladder --m " + side + " --n 2 --k " + side, kError, with({"--m, --n, --k"}));
  expect_refused("sparse --size " + side, kError, with({"--size"}));
  expect_refused("plan --m " + side + " --n " + side + " --k " + side + " --run", kError, with({"--run"}));
  expect_refused("bench --sizes " + side, kError, with({"--sizes"}));
  expect_refused("tune --shape " + side + "x" + side + "x16 --try MWG=32", kError, with({"--shape"}));
  const std::string n = std::to_string(clgemm::choose_device().max_alloc_bytes / 4 + 1);
  expect_refused("reduce --n " + n, kError, {"--n " + n, "CL_DEVICE_MAX_MEM_ALLOC_SIZE"});
  expect_refused("reduce --n 999999999999", kError, {"--n 999999999999"});
}

// `plan` refuses what gemm() refuses (sizes past 2^31 - 1), but plans any size gemm() takes.
TEST(CliValidation, PlanRefusesWhatTheLibraryRefuses) {
  expect_refused("plan --m 16 --n 2147483648 --k 16", kError, {"error (size overflow)", "--n"});
  const CliRun ok = run_cli("plan --m 2147483647 --n 16 --k 2147483647 --json");
  EXPECT_EQ(ok.status, 0) << ok.err;
}

TEST(CliValidation, LadderRefusesUnknownRungsAndParameters) {
  expect_refused("ladder --size 16 --rungs 9", kError, {"--rungs", "no rung 9", "1 (naive)", "8 (async-copy)"});
  expect_refused("ladder --size 16 --rungs 0", kError, {"--rungs", "no rung 0"});
  expect_refused("ladder --size 16 --set 99:X=1", kError, {"--set '99:X=1'", "no rung 99", "1 (naive)"});
  expect_refused("ladder --size 16 --rungs 6 --set 6:NOPE=1", kError, {"--set '6:NOPE=1'", "NOPE", "TSM"});
  expect_refused("ladder --size 16 --rungs 1 --set 6:TSM=64", kError, {"--set '6:TSM=64'", "--rungs leaves out"});
  expect_refused("ladder --size 16 --rungs 6 --set 6:TSM=64x", kError, {"--set '6:TSM=64x'", "integers"});
  // A value the rung's constraints refuse stops the command before the reference is computed.
  expect_refused("ladder --size 16 --rungs 6 --set 6:TSM=0", kError, {"rung 6", "TSM = 0 is outside", "--set"});
}

TEST(CliValidation, NonFiniteAndNegativeLimitsAreRefused) {
  for (const std::string bad : {"nan", "inf", "-1"}) {
    expect_refused("ladder --size 16 --rungs 1 --cpu-limit " + bad, kUsageError, {"--cpu-limit", "finite number"});
    expect_refused("bench --sizes 16 --impl openblas --cpu-limit " + bad, kUsageError, {"--cpu-limit"});
    expect_refused("bench --sizes 16 --impl openblas --time-limit " + bad, kUsageError, {"--time-limit"});
    expect_refused("bench --sizes 16 --impl openblas --peak " + bad, kUsageError, {"--peak", "above 0"});
    expect_refused("tune --budget " + bad, kUsageError, {"--budget", "above 0"});
  }
  expect_refused("reduce --n 16 --repeat 999999999999", kUsageError, {"--repeat"});
  expect_refused("sparse --size 16 --repeat 0", kUsageError, {"--repeat"});
}

TEST(CliValidation, RangesThatDoNotEndAreRefused) {
  expect_refused("bench --sizes 1:999999999999:x1.000001", kError, {"--sizes '1:999999999999:x1.000001'", "2^31 - 1"});
  expect_refused("bench --sizes 1:2000000000:x1.000001", kError, {"--sizes", "more than 1000 sizes"});
  expect_refused("bench --sizes 1:100000:1", kError, {"--sizes '1:100000:1'", "more than 1000 sizes"});
  expect_refused("bench --sizes 1:100:0", kError, {"--sizes '1:100:0'", "step of 0"});
  for (const std::string factor : {"x1", "x0.5", "xinf", "xnan"})
    expect_refused("bench --sizes 1:100:" + factor, kError, {"--sizes '1:100:" + factor + "'", "finite factor above 1"});
}

// --save, --csv, --plot and tune's --database are checked before the run, not after it.
TEST(CliValidation, UnwritableOutputFilesAreRefusedBeforeTheRun) {
  const std::string missing = "/nonexistent-folder-of-clgemm/out";
  expect_refused("bench --sizes 16 --impl openblas --csv " + missing + ".csv", kError, {"--csv", "does not exist"});
  expect_refused("bench --sizes 16 --impl openblas --save " + missing + ".json", kError, {"--save", "does not exist"});
  expect_refused("bench --sizes 16 --impl openblas --plot " + missing + ".png", kError, {"--plot", "does not exist"});
  expect_refused("bench --sizes 16 --impl openblas --csv " + scratch(), kError, {"--csv", "is a folder"});
  expect_refused("ladder --size 16 --rungs 1 --save " + missing + ".json", kError, {"--save"});
  expect_refused("sparse --size 16 --save " + missing + ".json", kError, {"--save"});
  expect_refused("reduce --n 16 --save " + missing + ".json", kError, {"--save"});
  expect_refused("plan --m 16 --n 16 --k 16 --save " + missing + ".json", kError, {"--save"});
  expect_refused("tune --budget 1 --classes small --database " + missing + ".json", kError, {"--database"});
  expect_refused("tune --show --save " + missing + ".json", kError, {"--save"});
}

// The check leaves an existing file as it was, and leaves no file behind where there was none.
TEST(CliValidation, CheckingAnOutputFileNeitherTruncatesNorLeavesOne) {
  const std::string kept = scratch() + "/kept.csv", fresh = scratch() + "/fresh.json";
  std::ofstream(kept) << "earlier results\n";
  fs::remove(fresh);
  expect_refused("bench --sizes 16 --impl openblas --csv " + kept + " --save " + fresh + " --plot /nonexistent-folder/x.png",
                 kError, {"--plot"});
  std::ifstream in(kept);
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line, "earlier results");
  EXPECT_FALSE(fs::exists(fresh));
}

TEST(CliValidation, MissingPlotToolIsRefusedBeforeTheRun) {
  if (std::system("python3 -c 'import matplotlib' > /dev/null 2>&1") == 0) GTEST_SKIP() << "matplotlib is installed";
  expect_refused("bench --sizes 16 --impl openblas --plot " + scratch() + "/x.png --plot-tool matplotlib", kError,
                 {"error (unsupported)", "--plot", "matplotlib"});
}

TEST(CliValidation, TuneRefusesShapeAndKernelWithoutTry) {
  expect_refused("tune --shape 64x64x64", kError, {"--shape", "--try"});
  expect_refused("tune --kernel direct", kError, {"--kernel", "--try"});
}

// Element types: a value that is no type, a combination the library does not compute, and
// options that take f32 only, each refused naming the options and what they allow.
TEST(CliValidation, BadPrecisionsAreRefusedNamingTheTypes) {
  const std::vector<std::string> types = {"f32, f64, f16 and bf16"};
  expect_refused("plan --m 16 --n 16 --k 16 --precision f8", kError, {"--precision 'f8'", types[0]});
  expect_refused("plan --m 16 --n 16 --k 16 --precision bf16 --c-type half", kError, {"--c-type 'half'", types[0]});
  expect_refused("plan --m 16 --n 16 --k 16 --precision f64 --c-type f32", kError,
                 {"--precision f64 --c-type f32", "f64 operands need an f64 C"});
  expect_refused("plan --m 16 --n 16 --k 16 --precision f16 --math 3xtf32", kError, {"--math", "--precision f16"});
  expect_refused("tune --precision F64 --budget 1", kError, {"--precision 'F64'", types[0]});
  expect_refused("tune --try MWG=32 --precision f128", kError, {"--precision 'f128'", types[0]});
  expect_refused("tune --tensor --precision f64 --classes small", kError, {"--tensor", "mid and large", "'small'"});
  expect_refused("tune --try BM=64 --kernel xmma --precision bf16", kError, {"--kernel xmma", "--precision bf16"});
  expect_refused("tune --try BM=64 --kernel wgmma --precision f64", kError, {"wgmma", "f64"});
  expect_refused("tune --try BM=64 --kernel dmma --precision f32", kError, {"dmma", "f32"});
  expect_refused("tune --show --precision f64", kError, {"--show", "--precision"});
}

// NaN or Inf alpha and beta give what float32 arithmetic gives; the float64 check agrees.
TEST(CliValidation, NonFiniteAlphaAndBetaAreNotCalledWrong) {
  for (const std::string args : {"--alpha nan", "--alpha inf", "--beta -inf", "--alpha inf --beta nan"}) {
    SCOPED_TRACE(args);
    const CliRun r = run_cli("bench --sizes 40,70 --impl clgemm,openblas --seed 3 --json " + args);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_FALSE(has(r.err, "internal error")) << r.err;
    const auto doc = nlohmann::json::parse(r.out);
    ASSERT_FALSE(doc["results"].empty());
    for (const auto& res : doc["results"]) EXPECT_EQ(res["status"], "ok") << res.dump();
  }
}

// `reduce --save` and `sparse --save` write their JSON document (they used to ignore --save).
TEST(CliValidation, ReduceAndSparseWriteTheirSaveFile) {
  for (const std::string cmd : {"reduce --n 1000 --repeat 1", "sparse --size 32 --repeat 1"}) {
    SCOPED_TRACE(cmd);
    const std::string file = scratch() + "/saved.json";
    fs::remove(file);
    const CliRun r = run_cli(cmd + " --save " + file);
    ASSERT_EQ(r.status, 0) << r.err;
    std::ifstream in(file);
    ASSERT_TRUE(in.good()) << "no " << file;
    EXPECT_TRUE(nlohmann::json::parse(in).contains("device"));
  }
}

// CLGEMM_CUBLAS_PLUGIN naming a missing file: the reason says so and to fix or unset it.
TEST(CliValidation, MissingCublasPluginFileIsNamed) {
  const CliRun r = run_cli("bench --sizes 16 --impl openblas,cublas --json", "CLGEMM_CUBLAS_PLUGIN=/nonexistent/libx.so");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  ASSERT_EQ(doc["results"].size(), 2u) << r.out;
  const std::string note = doc["results"][1]["note"];
  EXPECT_TRUE(has(note, "CLGEMM_CUBLAS_PLUGIN (\"/nonexistent/libx.so\") does not exist")) << note;
  EXPECT_TRUE(has(note, "unset CLGEMM_CUBLAS_PLUGIN")) << note;
}

}  // namespace
#endif  // CLGEMM_TEST_CLI
