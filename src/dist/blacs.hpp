// blacs.hpp — the C entry points of BLACS (in Debian's libscalapack-openmpi) that clgemm::dist
// uses to read a process grid; BLACS ships no header of its own.
#pragma once

#include <mpi.h>

extern "C" {
void Cblacs_gridinfo(int context, int* nprow, int* npcol, int* myrow, int* mycol);
int Cblacs_pnum(int context, int prow, int pcol);
void Cblacs_get(int context, int what, int* value);
MPI_Comm Cblacs2sys_handle(int system_context);
}
