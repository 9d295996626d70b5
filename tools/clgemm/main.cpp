// main.cpp — the clgemm command-line tool: parses the subcommand and reports errors.
#include <clgemm/error.hpp>
#include <clgemm/warnings.hpp>

#include "cli_common.hpp"

#include <iostream>

int main(int argc, char** argv) {
  // The library never prints; the tool shows its warnings (a skipped tuning entry, a refused cache
  // folder) where its other diagnostics go.
  clgemm::set_warning_handler([](const std::string& m) { std::cerr << "clgemm: warning: " << m << "\n"; });
  CLI::App app{"clgemm — matrix multiplication on any OpenCL device"};
  app.require_subcommand(1);
  app.set_help_all_flag("--help-all", "help for every subcommand");
  clgemm::cli::add_devices_command(app);
  clgemm::cli::add_ladder_command(app);
  clgemm::cli::add_sparse_command(app);
  clgemm::cli::add_reduce_command(app);
  clgemm::cli::add_plan_command(app);
  clgemm::cli::add_bench_command(app);
  clgemm::cli::add_tune_command(app);
  clgemm::cli::add_dist_bench_command(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);  // usage errors: message and usage on stderr, exit code 105/106/...
  } catch (const clgemm::cli::WrongResult& e) {
    std::cerr << "clgemm: wrong result: " << e.what() << "\n";
    return 1;
  } catch (const clgemm::Error& e) {
    std::cerr << "clgemm: error (" << clgemm::status_name(e.status()) << "): " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "clgemm: error: " << e.what() << "\n";
    return 3;
  }
  return 0;
}
