// tiny.cl — batches of tiny items (a few hundred elements of C each): one work-item per element of
// C of the whole batch, the items end to end along one NDRange dimension, so that a work-group
// holds many items and nothing waits on a barrier. Comes after common/vectors.cl and
// common/batch.cl.
//
// A work-item reads its row of op(A) and its column of op(B) from global memory; an item's few
// hundred bytes stay in the caches for its other elements. Operands are row-major views as in
// direct.cl: TRANS_A = 1 means A stored k×m, TRANS_B = 1 B stored n×k. The batch may have more
// items than a grid dimension of 65535 groups: the items count along dimension 0, whose limit is
// the 32-bit range the host checks.

#ifndef TRANS_A
#define TRANS_A 0
#endif
#ifndef TRANS_B
#define TRANS_B 0
#endif

__kernel void gemm_tiny(const int M, const int N, const int K, real alpha, real beta,
                        __global const in_t* restrict A, ulong a_offset, const int lda, const ulong a_stride,
                        __global const in_t* restrict B, ulong b_offset, const int ldb, const ulong b_stride,
                        __global out_t* restrict C, ulong c_offset, const int ldc, const ulong c_stride,
                        __global const real* restrict scalars, __global const ulong* restrict offsets, const int count) {
  const size_t id = get_global_id(0), per_item = (size_t)M * N;
  const int item = (int)(id / per_item);
  if (item >= count) return;  // the last work-group's spare work-items
  const int e = (int)(id % per_item), i = e / N, j = e % N;
  select_batch_item(item, &alpha, &beta, &a_offset, &b_offset, &c_offset, a_stride, b_stride, c_stride, scalars,
                    offsets);  // common/batch.cl
  A += a_offset;
  B += b_offset;
  C += c_offset;
  real acc = ZERO;
  for (int p = 0; p < K; ++p) {
#if TRANS_A
    const real a = LOAD_IN(A, (size_t)p * lda + i);
#else
    const real a = LOAD_IN(A, (size_t)i * lda + p);
#endif
#if TRANS_B
    const real b = LOAD_IN(B, (size_t)j * ldb + p);
#else
    const real b = LOAD_IN(B, (size_t)p * ldb + j);
#endif
    acc = FMA(a, b, acc);
  }
  // alpha = 0 drops the product (BLAS), beta = 0 never reads C, as in direct.cl.
  __global out_t* c = C + (size_t)i * ldc + j;
  const real v = SCALE(real, alpha, acc);
  STORE_OUT(c, (beta == ZERO) ? v : MULADD(beta, LOAD_OUT(c), v));
}
