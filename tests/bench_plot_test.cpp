// bench_plot_test.cpp — --plot draws a PNG with gnuplot or matplotlib, whichever is installed,
// and says clearly what to install when neither is.
#include <clgemm/error.hpp>

#include "bench/plot.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace clgemm::bench {
namespace {

Report two_groups() {
  Report rep;
  rep.environment = {{"date", "2026-01-01T00:00:00Z"}, {"device", {{"name", "Test 'quoted' device"}}}};
  for (const char* name : {"clgemm", "clblast", "openblas"}) {
    ImplEntry e;
    e.info.name = name;
    rep.impls.push_back(e);
  }
  for (size_t n : {64, 128, 256})
    for (const char* group : {"square", "skinny m=16"})
      for (size_t i = 0; i < rep.impls.size(); ++i) {
        Result r;
        r.shape = {group[0] == 's' && group[1] == 'k' ? 16 : n, n, n, group, n};
        r.impl = rep.impls[i].info.name;
        r.outcome = i == 2 && n == 128 ? Outcome::Wrong : Outcome::Ok;  // a wrong point is left out
        r.times = {1e-3};
        r.gflops = double(n) * (i + 1);
        rep.results.push_back(r);
      }
  return rep;
}

bool is_png(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  char sig[8] = {};
  in.read(sig, 8);
  return in && std::string(sig + 1, 3) == "PNG" && std::filesystem::file_size(path) > 1000;
}

void expect_plot(PlotTool tool, const char* tool_name) {
  const std::string png = ::testing::TempDir() + "/bench_plot_" + tool_name + ".png";
  plot_report(two_groups(), png, tool);
  EXPECT_TRUE(is_png(png)) << png;
  std::filesystem::remove(png);
}

TEST(BenchPlot, GnuplotDrawsAPng) {
  if (system("command -v gnuplot > /dev/null 2>&1") != 0) GTEST_SKIP() << "gnuplot is not installed";
  expect_plot(PlotTool::Gnuplot, "gnuplot");
}

TEST(BenchPlot, MatplotlibDrawsAPng) {
  if (system("python3 -c 'import matplotlib' > /dev/null 2>&1") != 0) GTEST_SKIP() << "matplotlib is not installed";
  expect_plot(PlotTool::Matplotlib, "matplotlib");
}

TEST(BenchPlot, NothingToDrawIsAnError) {
  if (find_plot_tool().empty()) GTEST_SKIP() << "no plotting tool";
  Report rep = two_groups();
  for (auto& r : rep.results) r.outcome = Outcome::Wrong;
  try {
    plot_report(rep, ::testing::TempDir() + "/never.png");
    FAIL() << "plotted nothing";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::InvalidArgument);
  }
}

TEST(BenchPlot, MissingToolSaysWhatToInstall) {
  const std::string old_path = std::getenv("PATH") ? std::getenv("PATH") : "";
  setenv("PATH", "/nonexistent", 1);
  try {
    plot_report(two_groups(), ::testing::TempDir() + "/never.png", PlotTool::Gnuplot);
    ADD_FAILURE() << "no error without gnuplot";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::Unsupported);
    EXPECT_NE(std::string(e.what()).find("gnuplot"), std::string::npos) << e.what();
  }
  setenv("PATH", old_path.c_str(), 1);
}

// What `clgemm bench --plot` checks before it measures anything: the tool, without a report.
TEST(BenchPlot, RequirePlotToolNamesTheToolOrSaysWhatToInstall) {
  if (system("command -v gnuplot > /dev/null 2>&1") == 0) {
    EXPECT_EQ(require_plot_tool(PlotTool::Gnuplot), "gnuplot");
    EXPECT_EQ(require_plot_tool(PlotTool::Auto), "gnuplot");
  }
  const std::string old_path = std::getenv("PATH") ? std::getenv("PATH") : "";
  setenv("PATH", "/nonexistent", 1);
  for (PlotTool tool : {PlotTool::Gnuplot, PlotTool::Matplotlib, PlotTool::Auto}) {
    try {
      require_plot_tool(tool);
      ADD_FAILURE() << "no error without any tool on PATH";
    } catch (const Error& e) {
      EXPECT_EQ(e.status(), Status::Unsupported);
      EXPECT_NE(std::string(e.what()).find("apt-get install"), std::string::npos) << e.what();
    }
  }
  setenv("PATH", old_path.c_str(), 1);
}

}  // namespace
}  // namespace clgemm::bench
