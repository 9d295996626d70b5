// launcher_env.hpp — what MPI launchers tell each process about its host through the environment
// (Open MPI, MPICH and Intel MPI's Hydra, Slurm), without a collective.
#pragma once

namespace clgemm::dist {

// This process's index among the ranks of its host; -1 where no launcher says.
int launcher_local_rank();
// How many ranks share this host; 0 where no launcher says.
int launcher_local_size();

}  // namespace clgemm::dist
