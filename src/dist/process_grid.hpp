// process_grid.hpp — the process grid of a BLACS context as MPI communicators: one for the whole
// grid (ranks in row-major grid order), one for this process's row (ranks in column order) and
// one for its column (ranks in row order). Made once per layout of the grid and kept.
#pragma once

#include <mpi.h>

namespace clgemm::dist {

struct ProcessGrid {
  int context = -1;
  int rows = -1, cols = -1;     // nprow, npcol; -1 when the context is not valid on this process
  int row = -1, col = -1;       // this process's coordinates
  MPI_Comm all = MPI_COMM_NULL, row_comm = MPI_COMM_NULL, col_comm = MPI_COMM_NULL;
  bool valid() const { return rows > 0 && cols > 0 && row >= 0 && row < rows && col >= 0 && col < cols; }
  int rank_of(int prow, int pcol) const { return prow * cols + pcol; }  // in `all`
};

// The grid of `context` as Cblacs_gridinfo reports it, without communicators (no MPI calls).
ProcessGrid grid_info(int context);

// The grid with its communicators. Every process of the grid must call it for the same context
// at the same point (it is collective over the grid when the layout is new). Throws
// Error(InternalError) when MPI fails.
ProcessGrid process_grid(int context);

}  // namespace clgemm::dist
