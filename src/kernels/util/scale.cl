// scale.cl — C = beta·C for a strided C: the whole GEMM when k = 0 or alpha = 0, where BLAS
// semantics say A and B are not read. beta == 0 writes zeros without reading C, so NaN or Inf
// already there does not survive. A batch runs in one launch, item get_group_id(2), beta and C's
// offset chosen as common/batch.cl does.

#ifndef WG_X
#define WG_X 32
#endif
#ifndef WG_Y
#define WG_Y 8
#endif

__kernel __attribute__((reqd_work_group_size(WG_X, WG_Y, 1)))
void gemm_scale(const int M, const int N, real beta, __global out_t* restrict C, ulong c_offset, const int ldc,
                const ulong c_stride, __global const real* restrict scalars, __global const ulong* restrict offsets) {
  real alpha = ZERO;
  ulong a_offset = 0, b_offset = 0;  // not read: the item's A and B do not take part
  select_batch_item(get_group_id(2), &alpha, &beta, &a_offset, &b_offset, &c_offset, 0, 0, c_stride, scalars,
                    offsets);
  const int j = get_global_id(0), i = get_global_id(1);
  if (i >= M || j >= N) return;
  __global out_t* c = C + c_offset + (size_t)i * ldc + j;
  STORE_OUT(c, SCALE(real, beta, LOAD_OUT(c)));
}
