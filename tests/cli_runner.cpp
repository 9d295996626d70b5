// cli_runner.cpp — the tool found and run through popen, its stderr through a file of its own.
#include "cli_runner.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace clgemm::test {

std::string cli_path() {
  std::vector<std::string> candidates;
  if (const char* env = std::getenv("CLGEMM_CLI")) candidates.push_back(env);
#ifdef CLGEMM_TEST_CLI
  candidates.push_back(CLGEMM_TEST_CLI);
#endif
  char self[4096];
  const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n > 0) {
    const std::string dir = std::filesystem::path(std::string(self, size_t(n))).parent_path().string();
    candidates.push_back(dir + "/clgemm");
    candidates.push_back(dir + "/../clgemm");
  }
  for (const auto& c : candidates)
    if (access(c.c_str(), X_OK) == 0) return c;
  return "";
}

CliRun run_cli(const std::string& args, const std::string& env) {
  CliRun r;
  const std::string tool = cli_path();
  if (tool.empty()) {
    ADD_FAILURE() << "the clgemm tool was not found (set CLGEMM_CLI)";
    return r;
  }
  // One file per process and call: ctest runs each test in its own process, several at once.
  static int calls = 0;
  const std::string err_file = ::testing::TempDir() + "/clgemm_cli_stderr_" + std::to_string(getpid()) + "_" +
                               std::to_string(calls++) + ".txt";
  const std::string cmd = env + (env.empty() ? "" : " ") + tool + " " + args + " 2> " + err_file;
  const auto t0 = std::chrono::steady_clock::now();
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return r;
  char buf[4096];
  size_t got;
  while ((got = fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, got);
  const int rc = pclose(p);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  r.status = WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
  std::ifstream in(err_file);
  r.err.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  in.close();
  std::filesystem::remove(err_file);
  return r;
}

}  // namespace clgemm::test
