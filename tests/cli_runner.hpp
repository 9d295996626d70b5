// cli_runner.hpp — runs the clgemm tool as a user would, for the end-to-end tests of the CLI.
#pragma once

#include <string>

namespace clgemm::test {

// The tool: $CLGEMM_CLI, else where this build put it, else beside this test binary or one folder
// up (a packed or copied tree, as on the GPU machine); "" when there is none.
std::string cli_path();

struct CliRun {
  int status = -1;  // the exit status; -1 when it did not exit normally
  std::string out, err;
  double seconds = 0;
};

// Runs `clgemm ARGS` through the shell, with `env` (VAR=value ...) in front.
CliRun run_cli(const std::string& args, const std::string& env = "");

}  // namespace clgemm::test
