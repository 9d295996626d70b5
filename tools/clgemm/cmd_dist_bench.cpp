// cmd_dist_bench.cpp — `clgemm dist-bench`: runs clgemm-dist-bench, the distributed benchmark,
// from the tool's own folder with the same arguments. It is a program of its own because it links
// MPI, which the tool does not need for anything else; run it under mpirun, as
// `mpirun -np 2 clgemm dist-bench --sizes 16384`.
#include <clgemm/error.hpp>

#include "cli_common.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <limits.h>
#include <string>
#include <vector>

namespace clgemm::cli {
namespace {

std::string own_folder() {
  char path[PATH_MAX];
  const ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
  if (n <= 0) return ".";
  path[n] = '\0';
  std::string p(path);
  const size_t slash = p.rfind('/');
  return slash == std::string::npos ? "." : p.substr(0, slash);
}

}  // namespace

void add_dist_bench_command(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "dist-bench",
      "distributed GEMM over MPI in ScaLAPACK's layout, against one rank alone and ScaLAPACK on the CPUs; run it under "
      "mpirun (`clgemm dist-bench --help` lists its options)");
  cmd->allow_extras();
  cmd->set_help_flag();  // --help goes to the program
  cmd->callback([cmd] {
    const std::string program = own_folder() + "/clgemm-dist-bench";
    if (access(program.c_str(), X_OK) != 0)
      throw Error(Status::Unsupported, "this clgemm was built without its distributed component (" + program +
                                           " is missing): install MPI and ScaLAPACK (libopenmpi-dev, "
                                           "libscalapack-openmpi-dev) and build again");
    std::vector<std::string> args{program};
    for (const auto& a : cmd->remaining()) args.push_back(a);
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    execv(program.c_str(), argv.data());
    throw Error(Status::InternalError, "could not run " + program + ": " + std::strerror(errno));
  });
}

}  // namespace clgemm::cli
