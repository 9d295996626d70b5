// scale.cl — C = beta·C for a strided C: the whole GEMM when k = 0 or alpha = 0, where BLAS
// semantics say A and B are not read. beta == 0 writes zeros without reading C, so NaN or Inf
// already there does not survive.

#ifndef WG_X
#define WG_X 32
#endif
#ifndef WG_Y
#define WG_Y 8
#endif

__kernel __attribute__((reqd_work_group_size(WG_X, WG_Y, 1)))
void gemm_scale(const int M, const int N, const float beta, __global float* restrict C, const ulong c_offset,
                const int ldc) {
  const int j = get_global_id(0), i = get_global_id(1);
  if (i >= M || j >= N) return;
  __global float* c = C + c_offset + (size_t)i * ldc + j;
  *c = (beta == 0.0f) ? 0.0f : beta * *c;
}
