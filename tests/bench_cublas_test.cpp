// bench_cublas_test.cpp — the cuBLAS plugin loader fails cleanly, with a reason, when the plugin,
// CUDA or a CUDA device is missing; where a device exists, cuBLAS is checked like any peer.
#include "bench/cublas_loader.hpp"
#include "bench/impls/factories.hpp"
#include "bench/runner.hpp"
#include "bench/shapes.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace clgemm::bench {
namespace {

TEST(BenchCublas, MissingPluginFileIsAReasonNotACrash) {
  std::string reason;
  EXPECT_EQ(load_cublas_plugin("/nonexistent/libclgemm_cublas.so", reason), nullptr);
  EXPECT_NE(reason.find("no cuBLAS plugin at /nonexistent"), std::string::npos) << reason;
}

TEST(BenchCublas, AFileThatIsNotALibraryIsRefused) {
  const std::string path = ::testing::TempDir() + "/not_a_library.so";
  std::ofstream(path) << "this is not an ELF file";
  std::string reason;
  EXPECT_EQ(load_cublas_plugin(path, reason), nullptr);
  EXPECT_NE(reason.find("cannot load"), std::string::npos) << reason;
}

bool exists(const char* path) { return std::ifstream(path).good(); }

TEST(BenchCublas, ALibraryWithoutThePluginSymbolsIsRefused) {
  if (!exists(CLGEMM_TEST_LIBCLGEMM)) GTEST_SKIP() << "not in the build tree";
  std::string reason;
  EXPECT_EQ(load_cublas_plugin(CLGEMM_TEST_LIBCLGEMM, reason), nullptr);
  EXPECT_NE(reason.find("is not a clgemm cuBLAS plugin"), std::string::npos) << reason;
}

TEST(BenchCublas, EnvironmentVariableOverridesTheSearch) {
  setenv("CLGEMM_CUBLAS_PLUGIN", "/somewhere/else.so", 1);
  const auto c = cublas_plugin_candidates();
  unsetenv("CLGEMM_CUBLAS_PLUGIN");
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0], "/somewhere/else.so");
  EXPECT_GT(cublas_plugin_candidates().size(), 1u);
}

// A CLGEMM_CUBLAS_PLUGIN that names no file: the reason names the variable and its value and
// says to fix or unset it, instead of telling the user to set the variable they did set.
TEST(BenchCublas, MissingFileNamedByTheVariableSaysToFixOrUnsetIt) {
  for (const std::string value : {"/nonexistent/libclgemm_cublas.so", "no_such_plugin.so"}) {
    setenv("CLGEMM_CUBLAS_PLUGIN", value.c_str(), 1);
    std::string reason;
    const auto plugin = find_cublas_plugin(reason);
    unsetenv("CLGEMM_CUBLAS_PLUGIN");
    EXPECT_EQ(plugin, nullptr);
    EXPECT_NE(reason.find("CLGEMM_CUBLAS_PLUGIN (\"" + value + "\") does not exist"), std::string::npos) << reason;
    EXPECT_NE(reason.find("unset CLGEMM_CUBLAS_PLUGIN"), std::string::npos) << reason;
    EXPECT_EQ(reason.find("; set CLGEMM_CUBLAS_PLUGIN to its path"), std::string::npos) << reason;
  }
}

// A name without a slash is a file in the working directory, for the check and for dlopen alike:
// a file there named like a system library is the one loaded (and refused), not the system's.
TEST(BenchCublas, ANameWithoutASlashIsTheFileInTheWorkingDirectory) {
  EXPECT_EQ(plugin_path("libx.so"), "./libx.so");
  EXPECT_EQ(plugin_path("lib/libx.so"), "lib/libx.so");
  EXPECT_EQ(plugin_path("/opt/libx.so"), "/opt/libx.so");
  char old_dir[4096];
  ASSERT_NE(getcwd(old_dir, sizeof old_dir), nullptr);
  const std::string dir = ::testing::TempDir() + "/cublas_cwd_" + std::to_string(getpid());
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/libm.so.6") << "not a library";
  ASSERT_EQ(chdir(dir.c_str()), 0);
  std::string reason;
  const auto plugin = load_cublas_plugin("libm.so.6", reason);
  ASSERT_EQ(chdir(old_dir), 0);
  std::filesystem::remove_all(dir);
  EXPECT_EQ(plugin, nullptr);
  EXPECT_NE(reason.find("cannot load ./libm.so.6"), std::string::npos) << reason;
}

#ifdef CLGEMM_TEST_CUBLAS_PLUGIN
TEST(BenchCublas, BuiltPluginLoadsAndReportsAMissingDeviceCleanly) {
  if (!exists(CLGEMM_TEST_CUBLAS_PLUGIN)) GTEST_SKIP() << "not in the build tree";
  std::string reason;
  const auto plugin = load_cublas_plugin(CLGEMM_TEST_CUBLAS_PLUGIN, reason);
  if (!plugin) {
    // libcublas itself is missing at run time: that too must be a reason.
    EXPECT_NE(reason.find("cannot load"), std::string::npos) << reason;
    return;
  }
  char err[512] = "";
  clgemm_cublas_session* s = plugin->open(0, err, sizeof err);
  if (s) {
    EXPECT_FALSE(std::string(plugin->device_name(s)).empty());
    plugin->close(s);
  } else {
    EXPECT_GT(std::string(err).size(), 5u) << "a failed open must say why";
  }
}
#endif

// Through the implementation: either "not available" with a reason, or right (on a CUDA machine).
TEST(BenchCublas, ImplementationIsUnavailableWithAReasonOrCorrect) {
  for (bool tf32 : {false, true}) {
    ImplList impls;
    impls.push_back(make_cublas(tf32));
    const std::string why = impls[0]->unavailable();
    RunOptions o;
    o.seed = 7;
    CallSettings s;
    s.beta = 0.5f;
    const auto results = run_benchmark({{96, 80, 200, "custom", 100}}, s, impls, o);
    ASSERT_EQ(results.size(), 1u);
    if (!why.empty()) {
      EXPECT_EQ(results[0].outcome, Outcome::NotApplicable);
      EXPECT_EQ(results[0].note, "not available: " + why);
    } else {
      EXPECT_EQ(results[0].outcome, Outcome::Ok) << results[0].note;
      EXPECT_TRUE(results[0].timed());
    }
  }
}

// One call per problem: grouped calls only. Either "not available" with a reason, or right on a
// grouped call with an empty problem and "n/a" on a plain one (on a CUDA machine).
TEST(BenchCublas, LoopPeerTakesGroupedCallsOnly) {
  ImplList impls;
  impls.push_back(make_cublas_loop());
  ASSERT_EQ(impls[0]->info().name, "cublas-loop");
  EXPECT_TRUE(impls[0]->info().peer);
  const std::string why = impls[0]->unavailable();
  RunOptions o;
  o.seed = 5;
  CallSettings s;
  s.beta = 0.5f;
  Shape grouped = parse_grouped("random:4:3:40:2");
  grouped.problems.push_back({0, 17, 9});
  const auto results = run_benchmark({grouped, {96, 80, 200, "custom", 100}}, s, impls, o);
  ASSERT_EQ(results.size(), 2u);
  if (!why.empty()) {
    for (const auto& r : results) {
      EXPECT_EQ(r.outcome, Outcome::NotApplicable);
      EXPECT_EQ(r.note, "not available: " + why);
    }
    return;
  }
  EXPECT_EQ(results[0].outcome, Outcome::Ok) << results[0].note;
  EXPECT_EQ(results[1].outcome, Outcome::NotApplicable);
  EXPECT_NE(results[1].note.find("grouped calls only"), std::string::npos) << results[1].note;
}

}  // namespace
}  // namespace clgemm::bench
