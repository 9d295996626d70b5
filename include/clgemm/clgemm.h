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
 *
 * What is checked, and what cannot be: a NULL queue or buffer, an enum value outside its list, a
 * buffer of another context, an image or pipe in place of a buffer, a C created read-only, an A
 * or B created write-only (or a C so, with beta != 0), sizes that do not fit the buffers, and a C
 * that overlaps A, B or another batch item of C each have their own status. A handle that is not
 * a live object of its kind (a released queue, a context passed as the queue, freed memory)
 * cannot be told apart from a valid one: as everywhere in OpenCL, passing one is undefined and
 * may crash inside the OpenCL driver.
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
  clgemmInvalidQueue = -8,             /* queue is NULL, or the driver says it is not a command queue */
  clgemmInvalidBuffer = -9,            /* a buffer is NULL, or the driver says it is not a memory object */
  clgemmInvalidLayout = -10,           /* layout is not clgemmLayoutRowMajor/ColMajor */
  clgemmInvalidTranspose = -11,        /* a transpose is not clgemmTransposeNo/Yes */
  clgemmInvalidLeadingDimension = -12, /* a_ld, b_ld or c_ld is smaller than the matrix needs */
  clgemmBufferTooSmall = -13,          /* offset + extent reaches past the end of a buffer */
  clgemmSizeOverflow = -14,            /* sizes overflow the element-count arithmetic */
  clgemmInvalidBatchCount = -15,       /* batch_count is 0 or above 2^31 - 1 */
  clgemmBufferContextMismatch = -16,   /* a buffer belongs to another context than the queue */
  clgemmNotABuffer = -17,              /* a memory object is an image or a pipe, not a buffer */
  clgemmBufferAccess = -18,            /* C created read-only; A, B (or C with beta != 0) write-only */
  clgemmOverlappingOperands = -19,     /* C overlaps A, B or another batch item of C */
  clgemmInvalidDataType = -20,         /* a type or compute type is not one of its enum's values */
  clgemmUnsupportedTypes = -21,        /* a combination of types clgemm does not compute */
  clgemmNoFp64 = -22,                  /* f64 on a device without cl_khr_fp64 */
  clgemmInvalidQuantFormat = -23,      /* w_format is not one of clgemmQuantFormat's values */
  clgemmQuantBlockMismatch = -24       /* k is not a multiple of the quantized format's block */
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

/* Double precision, with CLBlast's arguments: f64 operands computed in double. Needs a device with
   cl_khr_fp64 (else clgemmNoFp64). */
clgemmStatus clgemmDgemm(clgemmLayout layout, clgemmTranspose a_transpose, clgemmTranspose b_transpose, size_t m,
                         size_t n, size_t k, double alpha, cl_mem a_buffer, size_t a_offset, size_t a_ld,
                         cl_mem b_buffer, size_t b_offset, size_t b_ld, double beta, cl_mem c_buffer, size_t c_offset,
                         size_t c_ld, cl_command_queue* queue, cl_event* event);
clgemmStatus clgemmDgemmBatched(clgemmLayout layout, clgemmTranspose a_transpose, clgemmTranspose b_transpose,
                                size_t m, size_t n, size_t k, const double* alphas, cl_mem a_buffer,
                                const size_t* a_offsets, size_t a_ld, cl_mem b_buffer, const size_t* b_offsets,
                                size_t b_ld, const double* betas, cl_mem c_buffer, const size_t* c_offsets, size_t c_ld,
                                size_t batch_count, cl_command_queue* queue, cl_event* event);
clgemmStatus clgemmDgemmStridedBatched(clgemmLayout layout, clgemmTranspose a_transpose, clgemmTranspose b_transpose,
                                       size_t m, size_t n, size_t k, double alpha, cl_mem a_buffer, size_t a_offset,
                                       size_t a_ld, size_t a_stride, cl_mem b_buffer, size_t b_offset, size_t b_ld,
                                       size_t b_stride, double beta, cl_mem c_buffer, size_t c_offset, size_t c_ld,
                                       size_t c_stride, size_t batch_count, cl_command_queue* queue, cl_event* event);

/* Half precision, with CLBlast's arguments (alpha and beta as cl_half bits): f16 A, B and C,
   computed in float32 (loads through vload_half, stores rounded to nearest even). */
clgemmStatus clgemmHgemm(clgemmLayout layout, clgemmTranspose a_transpose, clgemmTranspose b_transpose, size_t m,
                         size_t n, size_t k, cl_half alpha, cl_mem a_buffer, size_t a_offset, size_t a_ld,
                         cl_mem b_buffer, size_t b_offset, size_t b_ld, cl_half beta, cl_mem c_buffer, size_t c_offset,
                         size_t c_ld, cl_command_queue* queue, cl_event* event);
clgemmStatus clgemmHgemmBatched(clgemmLayout layout, clgemmTranspose a_transpose, clgemmTranspose b_transpose,
                                size_t m, size_t n, size_t k, const cl_half* alphas, cl_mem a_buffer,
                                const size_t* a_offsets, size_t a_ld, cl_mem b_buffer, const size_t* b_offsets,
                                size_t b_ld, const cl_half* betas, cl_mem c_buffer, const size_t* c_offsets, size_t c_ld,
                                size_t batch_count, cl_command_queue* queue, cl_event* event);
clgemmStatus clgemmHgemmStridedBatched(clgemmLayout layout, clgemmTranspose a_transpose, clgemmTranspose b_transpose,
                                       size_t m, size_t n, size_t k, cl_half alpha, cl_mem a_buffer, size_t a_offset,
                                       size_t a_ld, size_t a_stride, cl_mem b_buffer, size_t b_offset, size_t b_ld,
                                       size_t b_stride, cl_half beta, cl_mem c_buffer, size_t c_offset, size_t c_ld,
                                       size_t c_stride, size_t batch_count, cl_command_queue* queue, cl_event* event);

/* Element types and arithmetics of the typed entries (cuBLAS's GemmEx). Supported: all f32
   (compute f32, tf32 or 3xtf32); all f64 (compute f64); A and B both f16 or both bf16 with C of
   their type or f32 (compute f32). clgemmComputeAuto: f64 for f64 operands, else f32 (with
   clgemmSetMath's arithmetic for f32 operands). Other combinations: clgemmUnsupportedTypes. */
typedef enum { clgemmTypeF32 = 0, clgemmTypeF64 = 1, clgemmTypeF16 = 2, clgemmTypeBF16 = 3 } clgemmDataType;
typedef enum {
  clgemmComputeAuto = 0,
  clgemmComputeF32 = 1,
  clgemmComputeF64 = 2,
  clgemmComputeTf32 = 3,
  clgemmComputeTf32x3 = 4
} clgemmComputeType;

/* C = alpha·op(A)·op(B) + beta·C with each matrix of its own type; alpha and beta are used in the
   compute type. Offsets and leading dimensions count elements of each matrix's type. */
clgemmStatus clgemmGemmEx(clgemmLayout layout, clgemmTranspose a_transpose, clgemmTranspose b_transpose, size_t m,
                          size_t n, size_t k, double alpha, cl_mem a_buffer, clgemmDataType a_type, size_t a_offset,
                          size_t a_ld, cl_mem b_buffer, clgemmDataType b_type, size_t b_offset, size_t b_ld,
                          double beta, cl_mem c_buffer, clgemmDataType c_type, size_t c_offset, size_t c_ld,
                          clgemmComputeType compute, cl_command_queue* queue, cl_event* event);
clgemmStatus clgemmGemmBatchedEx(clgemmLayout layout, clgemmTranspose a_transpose, clgemmTranspose b_transpose,
                                 size_t m, size_t n, size_t k, const double* alphas, cl_mem a_buffer,
                                 clgemmDataType a_type, const size_t* a_offsets, size_t a_ld, cl_mem b_buffer,
                                 clgemmDataType b_type, const size_t* b_offsets, size_t b_ld, const double* betas,
                                 cl_mem c_buffer, clgemmDataType c_type, const size_t* c_offsets, size_t c_ld,
                                 size_t batch_count, clgemmComputeType compute, cl_command_queue* queue,
                                 cl_event* event);
clgemmStatus clgemmGemmStridedBatchedEx(clgemmLayout layout, clgemmTranspose a_transpose, clgemmTranspose b_transpose,
                                        size_t m, size_t n, size_t k, double alpha, cl_mem a_buffer,
                                        clgemmDataType a_type, size_t a_offset, size_t a_ld, size_t a_stride,
                                        cl_mem b_buffer, clgemmDataType b_type, size_t b_offset, size_t b_ld,
                                        size_t b_stride, double beta, cl_mem c_buffer, clgemmDataType c_type,
                                        size_t c_offset, size_t c_ld, size_t c_stride, size_t batch_count,
                                        clgemmComputeType compute, cl_command_queue* queue, cl_event* event);

/* Grouped GEMM (clgemm::gemm_grouped): problem_count problems of their own shapes in one call and
   one launch. Every array holds problem_count entries: problem i is C = alphas[i]·op(A)·op(B) +
   betas[i]·C with op given by a_transposes[i] and b_transposes[i], sizes ms[i], ns[i], ks[i], and
   its matrices at a_offsets[i], b_offsets[i], c_offsets[i] (elements) with leading dimensions
   a_lds[i], b_lds[i], c_lds[i], all in the one A, B and C buffer. A failing problem's status comes
   back with "problem i: ..." from clgemmLastErrorMessage. */
clgemmStatus clgemmSgemmGrouped(clgemmLayout layout, const clgemmTranspose* a_transposes,
                                const clgemmTranspose* b_transposes, const size_t* ms, const size_t* ns,
                                const size_t* ks, const float* alphas, cl_mem a_buffer, const size_t* a_offsets,
                                const size_t* a_lds, cl_mem b_buffer, const size_t* b_offsets, const size_t* b_lds,
                                const float* betas, cl_mem c_buffer, const size_t* c_offsets, const size_t* c_lds,
                                size_t problem_count, cl_command_queue* queue, cl_event* event);
/* The same with element types and alphas and betas as doubles (used in the compute type: f32 or
   f64; the tensor-core compute types are refused). */
clgemmStatus clgemmGemmGroupedEx(clgemmLayout layout, const clgemmTranspose* a_transposes,
                                 const clgemmTranspose* b_transposes, const size_t* ms, const size_t* ns,
                                 const size_t* ks, const double* alphas, cl_mem a_buffer, clgemmDataType a_type,
                                 const size_t* a_offsets, const size_t* a_lds, cl_mem b_buffer, clgemmDataType b_type,
                                 const size_t* b_offsets, const size_t* b_lds, const double* betas, cl_mem c_buffer,
                                 clgemmDataType c_type, const size_t* c_offsets, const size_t* c_lds,
                                 size_t problem_count, clgemmComputeType compute, cl_command_queue* queue,
                                 cl_event* event);

/* Quantized weights (clgemm::gemm_quantized): C = alpha·A·dequant(W)ᵀ + beta·C. A is m×k activations
   (a_type f32, f16 or bf16) and C m×n (c_type f32, f16 or bf16), both in `layout`, offsets and
   leading dimensions in elements. W is n rows of k weights in GGUF's block format w_format, the
   first row at byte w_offset_bytes of w_buffer and each w_row_bytes after the one before (at
   least k / block · block bytes): a weight tensor of a GGUF file as it is stored. Products and
   sums are float32; alpha and beta are used in float32. k must be a multiple of the format's
   block (32 for Q8_0 and Q4_0, 256 for Q4_K and Q6_K), else clgemmQuantBlockMismatch. */
typedef enum { clgemmQuantQ8_0 = 0, clgemmQuantQ4_0 = 1, clgemmQuantQ4_K = 2, clgemmQuantQ6_K = 3 } clgemmQuantFormat;
clgemmStatus clgemmGemmQuantized(clgemmLayout layout, size_t m, size_t n, size_t k, double alpha, cl_mem a_buffer,
                                 clgemmDataType a_type, size_t a_offset, size_t a_ld, cl_mem w_buffer,
                                 clgemmQuantFormat w_format, size_t w_offset_bytes, size_t w_row_bytes, double beta,
                                 cl_mem c_buffer, clgemmDataType c_type, size_t c_offset, size_t c_ld,
                                 cl_command_queue* queue, cl_event* event);
/* batch_count such products, item i's A, W and C a_stride elements, w_stride_bytes bytes and
   c_stride elements times i after the first's (a stride of 0 shares A or W among the items). */
clgemmStatus clgemmGemmQuantizedStridedBatched(clgemmLayout layout, size_t m, size_t n, size_t k, double alpha,
                                               cl_mem a_buffer, clgemmDataType a_type, size_t a_offset, size_t a_ld,
                                               size_t a_stride, cl_mem w_buffer, clgemmQuantFormat w_format,
                                               size_t w_offset_bytes, size_t w_row_bytes, size_t w_stride_bytes,
                                               double beta, cl_mem c_buffer, clgemmDataType c_type, size_t c_offset,
                                               size_t c_ld, size_t c_stride, size_t batch_count,
                                               cl_command_queue* queue, cl_event* event);

/* A short, fixed description of a status code. */
const char* clgemmStatusString(clgemmStatus status);

/* The message of the last failed call on this thread (names the argument and values), or "". */
const char* clgemmLastErrorMessage(void);

/* Releases the compiled programs, scratch buffers and references to OpenCL contexts that clgemm
   keeps per context and device. clgemm keeps those of the 8 most recently used contexts; a program
   that is done with a context can release its share at once with this. Safe while other threads
   call clgemm: a call in progress keeps what it uses until it returns. */
clgemmStatus clgemmClearCache(void);

/* Warnings: what the library has to say that is not an error (a tuning database entry it skipped,
   a cache folder it refused). clgemm never prints. With a callback set, each warning is passed to
   it on the thread that raised it (the message is valid during the call); NULL removes it. */
typedef void (*clgemmWarningCallback)(const char* message, void* user_data);
clgemmStatus clgemmSetWarningCallback(clgemmWarningCallback callback, void* user_data);

/* The most recent warning of the process, or "" (valid until this thread calls it again). */
const char* clgemmLastWarning(void);

#ifdef __cplusplus
}
#endif

#endif /* CLGEMM_CLGEMM_H */
