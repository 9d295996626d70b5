// scalapack.hpp — the ScaLAPACK and BLACS entry points that clgemm dist-bench (its peer and its
// grids) and the distributed tests call; Debian's libscalapack-openmpi ships no C header for them.
// Declarations only: the programs that include it link ScaLAPACK themselves.
#pragma once

extern "C" {
void Cblacs_pinfo(int* rank, int* processes);
void Cblacs_get(int context, int what, int* value);
void Cblacs_gridinit(int* context, const char* order, int nprow, int npcol);
void Cblacs_gridinfo(int context, int* nprow, int* npcol, int* myrow, int* mycol);
void Cblacs_gridexit(int context);
int numroc_(const int* n, const int* nb, const int* iproc, const int* isrcproc, const int* nprocs);
void psgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k, const float* alpha,
             const float* a, const int* ia, const int* ja, const int* desca, const float* b, const int* ib,
             const int* jb, const int* descb, const float* beta, float* c, const int* ic, const int* jc,
             const int* descc);
void pdgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k, const double* alpha,
             const double* a, const int* ia, const int* ja, const int* desca, const double* b, const int* ib,
             const int* jb, const int* descb, const double* beta, double* c, const int* ic, const int* jc,
             const int* descc);
}
