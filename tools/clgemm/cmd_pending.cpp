// cmd_pending.cpp — TEMPORARY during development: placeholders removed as the real commands land.
#include "cli_common.hpp"
namespace clgemm::cli {
void add_ladder_command(CLI::App&) {}
void add_sparse_command(CLI::App&) {}
void add_reduce_command(CLI::App&) {}
}  // namespace clgemm::cli
