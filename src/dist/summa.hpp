// summa.hpp — SUMMA on one process of the grid: C_local += alpha·A_panel·B_panel over panels of
// k, where each panel of A comes from the processes of this process's row (an all-gather along
// the row) and each panel of B from those of its column. The collectives run several panels ahead
// of the device, and panel uploads run on a queue of their own beside the local GEMMs.
#pragma once

#include "dist/block_cyclic.hpp"
#include "dist/process_grid.hpp"

#include <clgemm/dist.hpp>

namespace clgemm::dist {

// One operand as SUMMA reads it: this process's local array, whose rows (A) or columns (B) are
// already those of C that this process holds, and whose other dimension is k, laid out along the
// grid's columns (A) or rows (B).
struct KOperand {
  const char* host = nullptr;  // the local array in host memory, or
  cl_mem buffer = nullptr;     // in a device buffer of the compute queue's context
  size_t offset = 0, ld = 1;   // in elements; column-major
  size_t fixed_start = 0;      // A: the local row of C's first local row; B: the local column of C's first
  Span k;                      // the k indices as global indices of this array's k dimension
  int k_me = 0;                // this process's coordinate along that dimension
  MPI_Comm comm = MPI_COMM_NULL;  // the processes along it, ranked by their coordinate
};

struct SummaProblem {
  DataType type = DataType::F32;  // F32 or F64
  size_t m = 0, n = 0;            // the rows and columns of C this process holds
  size_t k = 0;                   // global
  double alpha = 1, beta = 0;
  KOperand a, b;
  cl_mem c = nullptr;             // C's local block on the device
  size_t c_offset = 0, c_ld = 1;
  MPI_Comm grid = MPI_COMM_NULL;  // every process of the grid
};

// Runs the problem on `queue` (the local GEMMs) and the copy queue of its workspace
// (host_staging.hpp; the caller holds workspace_lock()). Collective over the processes of the
// grid: every one calls, also those that hold no part of C. Blocks until C is final on the
// device. Allocation failures on any process throw on all of them before the first message.
void run_summa(const SummaProblem& problem, cl_command_queue queue, const Options& options, Stats& stats);

}  // namespace clgemm::dist
