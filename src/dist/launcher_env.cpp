// launcher_env.cpp — the launchers' variables, the first one set to a number in range.
#include "dist/launcher_env.hpp"

#include <cstdlib>
#include <initializer_list>

namespace clgemm::dist {
namespace {

long first_number(std::initializer_list<const char*> names, long at_least) {
  for (const char* name : names) {
    if (const char* v = std::getenv(name)) {
      char* end = nullptr;
      const long n = std::strtol(v, &end, 10);
      if (end != v && n >= at_least) return n;
    }
  }
  return -1;
}

}  // namespace

int launcher_local_rank() {
  return int(first_number({"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "PMI_LOCAL_RANK", "SLURM_LOCALID"}, 0));
}

int launcher_local_size() {
  const long n = first_number({"OMPI_COMM_WORLD_LOCAL_SIZE", "MPI_LOCALNRANKS", "PMI_LOCAL_SIZE", "SLURM_NTASKS_PER_NODE"}, 1);
  return n < 0 ? 0 : int(n);
}

}  // namespace clgemm::dist
