// epilogue.cl — C = alpha·T + beta·C for a strided C, where T is the dense (padded) product a fast
// kernel wrote into a temporary. With HAS_PRODUCT = 0 it computes C = beta·C: the k = 0 and
// alpha = 0 cases, where BLAS semantics say A and B are not read at all.
// beta == 0 never reads C, so NaN or Inf already there does not reach the result.

#ifndef HAS_PRODUCT
#define HAS_PRODUCT 1
#endif
#ifndef WG_X
#define WG_X 32
#endif
#ifndef WG_Y
#define WG_Y 8
#endif

__kernel __attribute__((reqd_work_group_size(WG_X, WG_Y, 1)))
void gemm_epilogue(const int M, const int N, const float alpha, const float beta,
                   __global const float* restrict T, const int ldt,
                   __global float* restrict C, const ulong c_offset, const int ldc) {
  const int j = get_global_id(0), i = get_global_id(1);
  if (i >= M || j >= N) return;
  __global float* c = C + c_offset + (size_t)i * ldc + j;
#if HAS_PRODUCT
  // alpha == 0 drops the product entirely (BLAS semantics), even a NaN in it.
  const float t = (alpha == 0.0f) ? 0.0f : alpha * T[(size_t)i * ldt + j];
#else
  const float t = 0.0f;
#endif
  *c = (beta == 0.0f) ? t : t + beta * *c;
}
