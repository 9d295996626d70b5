/* bench/cuda/cublas_plugin.h — the C interface of libclgemm_cublas.so, the optional plugin that
 * runs cuBLAS GEMMs for `clgemm bench`. The bench dlopen()s it, so clgemm's own binaries never
 * need a CUDA library to start; without the plugin, CUDA or a CUDA device, cuBLAS is simply
 * "not available" with the reason.
 *
 * Every function that can fail returns 0 on success, else non-zero with a message in `err`
 * (always NUL-terminated, truncated to err_size). No function throws or prints. */
#ifndef CLGEMM_CUBLAS_PLUGIN_H
#define CLGEMM_CUBLAS_PLUGIN_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bumped whenever a signature below changes; the loader refuses a plugin with another value. */
#define CLGEMM_CUBLAS_PLUGIN_ABI 5

/* Element types of the matrices: the values of clgemm::DataType. */
#define CLGEMM_CUBLAS_F32 0
#define CLGEMM_CUBLAS_F64 1
#define CLGEMM_CUBLAS_F16 2
#define CLGEMM_CUBLAS_BF16 3

typedef struct clgemm_cublas_session clgemm_cublas_session;

int clgemm_cublas_abi(void);

/* Opens CUDA device 0 (after CUDA_VISIBLE_DEVICES) and a cuBLAS handle. tf32 = 0: FP32 math
 * (CUBLAS_DEFAULT_MATH; refused when NVIDIA_TF32_OVERRIDE=1 would turn it into TF32);
 * tf32 = 1: TF32 tensor-core math (CUBLAS_TF32_TENSOR_OP_MATH). NULL on failure. */
clgemm_cublas_session* clgemm_cublas_open(int tf32, char* err, size_t err_size);

/* "NVIDIA H200" and "cuBLAS 13.0.2, CUDA runtime 13000, driver 13000"; valid while the session is. */
const char* clgemm_cublas_device_name(const clgemm_cublas_session* s);
const char* clgemm_cublas_version(const clgemm_cublas_session* s);

/* Uploads one problem: C = alpha·op(A)·op(B) + beta·C with dense operands of a_count and b_count
 * elements of type ab_type and c_count of type c_type (CLGEMM_CUBLAS_*), stored column-major
 * (col_major = 1) or row-major (0), as BLAS describes them. C starts as C0. Frees the previous
 * problem's memory first. The types choose the call that run() makes:
 *   f32, f32    cublasSgemm (the session's math: FP32, or TF32 for a tf32 session)
 *   f64, f64    cublasDgemm
 *   f16, f16    cublasHgemm (CUBLAS_COMPUTE_16F: f16 products and sums)
 *   bf16, bf16; f16, f32; bf16, f32
 *               cublasGemmEx with CUDA_R_16F or CUDA_R_16BF A and B, C of its type, CUBLAS_COMPUTE_32F
 * Other combinations, and any but f32 in a tf32 session, are refused. alpha and beta are used in
 * the call's scalar type (double, float, or half for cublasHgemm). */
int clgemm_cublas_prepare(clgemm_cublas_session* s, int ab_type, int c_type, int col_major, int trans_a, int trans_b,
                          size_t m, size_t n, size_t k, double alpha, const void* a, size_t a_count, size_t lda,
                          const void* b, size_t b_count, size_t ldb, double beta, const void* c0, size_t c_count,
                          size_t ldc, char* err, size_t err_size);

/* Makes the prepared problem a strided batch: `count` items, item i of A, B and C starting
 * i·a_stride, i·b_stride and i·c_stride elements in (the counts given to prepare cover them all).
 * run() then makes the StridedBatched form of its call: cublasSgemmStridedBatched,
 * cublasDgemmStridedBatched, cublasHgemmStridedBatched or cublasGemmStridedBatchedEx. prepare
 * resets the count to 1. */
int clgemm_cublas_batch(clgemm_cublas_session* s, size_t count, size_t a_stride, size_t b_stride, size_t c_stride,
                        char* err, size_t err_size);

/* Makes the prepared problem a grouped one: `count` problems, problem i of ms[i]×ns[i]×ks[i] with
 * its matrices at element offsets a_offsets[i], b_offsets[i], c_offsets[i] and leading dimensions
 * ldas[i], ldbs[i], ldcs[i] in the buffers prepare uploaded (prepare's m, n, k and leading
 * dimensions are then unused). run() then makes one cublasSgemmGroupedBatched,
 * cublasDgemmGroupedBatched or cublasGemmGroupedBatchedEx (16-bit A and B, CUBLAS_COMPUTE_32F)
 * call, a group of one problem each. With one_call_each set, run() instead makes one cublasSgemm,
 * cublasDgemm or cublasGemmEx (the same arithmetic) per problem on the session's stream, skipping
 * problems with no element of C, as a caller without the grouped form would. prepare resets it. */
int clgemm_cublas_grouped(clgemm_cublas_session* s, size_t count, const size_t* ms, const size_t* ns,
                          const size_t* ks, const size_t* a_offsets, const size_t* ldas, const size_t* b_offsets,
                          const size_t* ldbs, const size_t* c_offsets, const size_t* ldcs, int one_call_each,
                          char* err, size_t err_size);

/* C = C0 on the device; returns when done. */
int clgemm_cublas_reset_c(clgemm_cublas_session* s, char* err, size_t err_size);

/* One GEMM, timed with CUDA events recorded around it on the session's stream. */
int clgemm_cublas_run(clgemm_cublas_session* s, double* seconds, char* err, size_t err_size);

/* Copies C (c_count elements of c_type) to the host. */
int clgemm_cublas_read_c(clgemm_cublas_session* s, void* c, char* err, size_t err_size);

/* Frees the problem's device memory (the session stays open). */
void clgemm_cublas_release(clgemm_cublas_session* s);

void clgemm_cublas_close(clgemm_cublas_session* s);

#ifdef __cplusplus
}
#endif

#endif
