/* clgemm/dist.h — distributed GEMM over MPI with ScaLAPACK's arguments (the clgemm::dist
 * component, built where MPI and ScaLAPACK are found; link clgemm::dist or -lclgemm_dist).
 *
 * clgemm_psgemm and clgemm_pdgemm take exactly the arguments of ScaLAPACK's psgemm_ and pdgemm_,
 * as pointers in the Fortran manner, so that a program switches by a rename:
 *
 *   sub(C) = alpha·op(sub(A))·op(sub(B)) + beta·sub(C)
 *
 * on matrices in the 2D block-cyclic layout, each rank passing its local blocks in host memory
 * (column-major, leading dimension DESC(LLD_)). sub(X) starts at the 1-based global row and
 * column (IX, JX). TRANSA and TRANSB are "N", "T" or "C" (upper or lower case; "C" is "T" for
 * real numbers). The descriptors' BLACS context gives the process grid; every process of the grid
 * calls, as with ScaLAPACK. Each rank multiplies its share on its own OpenCL device: the one
 * clgemm_dist_set_device names, else $CLGEMM_DEVICE, else the GPU whose index is the rank's
 * local rank on its host (modulo the GPUs there), else the first CPU device.
 *
 * The return value is ScaLAPACK's INFO: 0 on success; -i when the i-th argument is wrong, and
 * -(i·100 + j) when entry j of the descriptor that is argument i is wrong (DESC entries: 1 DTYPE,
 * 2 CTXT, 3 M, 4 N, 5 MB, 6 NB, 7 RSRC, 8 CSRC, 9 LLD). A failure that is not the caller's (no
 * device, an OpenCL or MPI error) returns the clgemmStatus negated, a positive number. In both
 * cases nothing has been written to C, and clgemm_dist_error_message() says what happened.
 * Argument errors are found on every rank before any communication, so all ranks return the
 * same INFO for them.
 */
#ifndef CLGEMM_DIST_H
#define CLGEMM_DIST_H

#ifdef __cplusplus
extern "C" {
#endif

int clgemm_psgemm(const char* transa, const char* transb, const int* m, const int* n, const int* k,
                  const float* alpha, const float* a, const int* ia, const int* ja, const int* desca,
                  const float* b, const int* ib, const int* jb, const int* descb, const float* beta, float* c,
                  const int* ic, const int* jc, const int* descc);

int clgemm_pdgemm(const char* transa, const char* transb, const int* m, const int* n, const int* k,
                  const double* alpha, const double* a, const int* ia, const int* ja, const int* desca,
                  const double* b, const int* ib, const int* jb, const int* descb, const double* beta,
                  double* c, const int* ic, const int* jc, const int* descc);

/* The message of this thread's last failed call ("" after a success). */
const char* clgemm_dist_error_message(void);

/* Chooses this rank's device for the calls that follow: an index of `clgemm devices` or part of
 * a device's name; NULL or "" goes back to the default above. Returns 0, or a positive status
 * (as above) when no device matches. */
int clgemm_dist_set_device(const char* spec);

#ifdef __cplusplus
}
#endif

#endif
