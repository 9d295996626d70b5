/* clgemm/clgemm.h — the C API of clgemm.
 *
 * Same argument order and enum values as CLBlast's C API (CLBlastSgemm and friends), so switching
 * is a rename. Functions never throw, never print and never exit: they return a status code, and
 * clgemmStatusString() says what it means. When a function returns an error it has enqueued
 * nothing and written nothing.
 *
 * C = alpha·op(A)·op(B) + beta·C, float32. op(A) is m×k, op(B) is k×n, C is m×n. beta = 0 means C
 * is not read; k = 0 gives C = beta·C; m = 0 or n = 0 succeeds without work. `event` may be NULL;
 * otherwise it receives an event (release it with clReleaseEvent) that completes when all of the
 * call's work has finished.
 */
#ifndef CLGEMM_CLGEMM_H
#define CLGEMM_CLGEMM_H

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 300
#endif
#include <CL/cl.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { clgemmLayoutRowMajor = 101, clgemmLayoutColMajor = 102 } clgemmLayout;
typedef enum { clgemmTransposeNo = 111, clgemmTransposeYes = 112 } clgemmTranspose;

typedef enum {
  clgemmSuccess = 0,
  clgemmInvalidArgument = -1,          /* another argument is not valid (the message says which) */
  clgemmDeviceNotFound = -2,           /* no usable OpenCL device */
  clgemmBuildFailure = -3,             /* the OpenCL compiler rejected a kernel */
  clgemmOpenCLError = -4,              /* an OpenCL call failed while running */
  clgemmOutOfResources = -5,           /* device memory or work-group resources exhausted */
  clgemmUnsupportedDevice = -6,        /* the queue's device cannot run clgemm's kernels */
  clgemmInternalError = -7,            /* a bug in clgemm */
  clgemmInvalidQueue = -8,             /* queue is NULL or not a command queue */
  clgemmInvalidBuffer = -9,            /* a buffer is NULL or not a memory object */
  clgemmInvalidLayout = -10,           /* layout is not clgemmLayoutRowMajor/ColMajor */
  clgemmInvalidTranspose = -11,        /* a transpose is not clgemmTransposeNo/Yes */
  clgemmInvalidLeadingDimension = -12, /* a_ld, b_ld or c_ld is smaller than the matrix needs */
  clgemmBufferTooSmall = -13,          /* offset + extent reaches past the end of a buffer */
  clgemmSizeOverflow = -14,            /* sizes overflow the element-count arithmetic */
  clgemmInvalidBatchCount = -15        /* batch_count is 0 */
} clgemmStatus;

/* The arithmetic of later calls on the calling thread (clgemm::Math): clgemmMathFp32, float32
   multiply-adds (the default); clgemmMathTf32x3, 3xTF32 on NVIDIA tensor cores (sm_80+) at about
   float32's accuracy; clgemmMathTf32, TF32 on tensor cores (11 significant bits per input). The
   tensor ones fall back to float32 on other devices and on shapes too small to pay. */
typedef enum { clgemmMathFp32 = 0, clgemmMathTf32x3 = 1, clgemmMathTf32 = 2 } clgemmMath;
clgemmStatus clgemmSetMath(clgemmMath math);
clgemmMath clgemmGetMath(void);

clgemmStatus clgemmSgemm(clgemmLayout layout, clgemmTranspose a_transpose, clgemmTranspose b_transpose, size_t m,
                         size_t n, size_t k, float alpha, cl_mem a_buffer, size_t a_offset, size_t a_ld,
                         cl_mem b_buffer, size_t b_offset, size_t b_ld, float beta, cl_mem c_buffer, size_t c_offset,
                         size_t c_ld, cl_command_queue* queue, cl_event* event);

/* batch_count GEMMs of one shape; alphas, betas and the offsets are arrays of batch_count entries. */
clgemmStatus clgemmSgemmBatched(clgemmLayout layout, clgemmTranspose a_transpose, clgemmTranspose b_transpose,
                                size_t m, size_t n, size_t k, const float* alphas, cl_mem a_buffer,
                                const size_t* a_offsets, size_t a_ld, cl_mem b_buffer, const size_t* b_offsets,
                                size_t b_ld, const float* betas, cl_mem c_buffer, const size_t* c_offsets, size_t c_ld,
                                size_t batch_count, cl_command_queue* queue, cl_event* event);

/* batch_count GEMMs whose operands lie a_stride, b_stride and c_stride elements apart. */
clgemmStatus clgemmSgemmStridedBatched(clgemmLayout layout, clgemmTranspose a_transpose, clgemmTranspose b_transpose,
                                       size_t m, size_t n, size_t k, float alpha, cl_mem a_buffer, size_t a_offset,
                                       size_t a_ld, size_t a_stride, cl_mem b_buffer, size_t b_offset, size_t b_ld,
                                       size_t b_stride, float beta, cl_mem c_buffer, size_t c_offset, size_t c_ld,
                                       size_t c_stride, size_t batch_count, cl_command_queue* queue, cl_event* event);

/* A short, fixed description of a status code. */
const char* clgemmStatusString(clgemmStatus status);

/* The message of the last failed call on this thread (names the argument and values), or "". */
const char* clgemmLastErrorMessage(void);

/* Releases cached programs and the OpenCL contexts they hold. */
clgemmStatus clgemmClearCache(void);

#ifdef __cplusplus
}
#endif

#endif /* CLGEMM_CLGEMM_H */
