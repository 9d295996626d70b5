// direct.cl — the production kernel for small and odd shapes: C = alpha·op(A)·op(B) + beta·C read
// and written in place (no temporaries), with leading dimensions, offsets, transposes and batches.
//
// Design: the register-blocked scheme of ladder rung 6 at a modest size (a work-group computes a
// TM×TN tile of C, each work-item a WM×WN block), with every load guarded instead of padded, so
// any m, n, k works with no copies. Guards cost little here: these shapes are small, or their
// ragged edges are a thin fraction of the work. All work-items take part in every load and
// reach every barrier; only stores inside C happen.
//
// Operands are row-major views (the host turns column-major calls into row-major ones by swapping
// A and B). TRANS_A = 0: A is m×k with element (i, p) at A[i·lda + p]; TRANS_A = 1: A is stored
// k×m, op(A)(i, p) = A[p·lda + i]. Likewise for B (k×n, or n×k when TRANS_B).
//
// Batches run along the third NDRange dimension; common/batch.cl picks each item's offsets and
// alpha/beta (BATCH_ARRAYS). A and B are stored as `in_t`, C as `out_t`, and the work is done in `real`
// (common/vectors.cl). The tile parameters, the multiply-adds and the stores are
// gemm/register_tile.cl's, which the grouped kernel shares.

#ifndef TRANS_A
#define TRANS_A 0
#endif
#ifndef TRANS_B
#define TRANS_B 0
#endif

__kernel __attribute__((reqd_work_group_size(RX, RY, 1)))
void gemm_direct(const int M, const int N, const int K, real alpha, real beta,
                 __global const in_t* restrict A, ulong a_offset, const int lda, const ulong a_stride,
                 __global const in_t* restrict B, ulong b_offset, const int ldb, const ulong b_stride,
                 __global out_t* restrict C, ulong c_offset, const int ldc, const ulong c_stride,
                 __global const real* restrict scalars, __global const ulong* restrict offsets) {
  select_batch_item(get_group_id(2), &alpha, &beta, &a_offset, &b_offset, &c_offset, a_stride, b_stride, c_stride,
                    scalars, offsets);  // common/batch.cl
  A += a_offset;
  B += b_offset;
  C += c_offset;

  const int tx = get_local_id(0), ty = get_local_id(1);
  const int tid = ty * RX + tx;
  const int row0 = get_group_id(1) * TM, col0 = get_group_id(0) * TN;

  REGISTER_TILE_STATE  // gemm/register_tile.cl

  for (int k0 = 0; k0 < K; k0 += TK) {
    // Each work-item loads (TM·TK)/THREADS elements of A. The index split makes consecutive
    // work-items walk the operand's contiguous dimension, so loads coalesce in both layouts.
    for (int e = tid; e < TM * TK; e += THREADS) {
#if TRANS_A
      const int i = e % TM, p = e / TM;  // stored k×m: contiguous along i
      const int gi = row0 + i, gp = k0 + p;
      As[p][i] = (gi < M && gp < K) ? LOAD_IN(A, (size_t)gp * lda + gi) : ZERO;
#else
      const int p = e % TK, i = e / TK;  // stored m×k: contiguous along p
      const int gi = row0 + i, gp = k0 + p;
      As[p][i] = (gi < M && gp < K) ? LOAD_IN(A, (size_t)gi * lda + gp) : ZERO;
#endif
    }
    for (int e = tid; e < TK * TN; e += THREADS) {
#if TRANS_B
      const int p = e % TK, j = e / TK;  // stored n×k: contiguous along p
      const int gp = k0 + p, gj = col0 + j;
      Bs[p][j] = (gp < K && gj < N) ? LOAD_IN(B, (size_t)gj * ldb + gp) : ZERO;
#else
      const int j = e % TN, p = e / TN;  // stored k×n: contiguous along j
      const int gp = k0 + p, gj = col0 + j;
      Bs[p][j] = (gp < K && gj < N) ? LOAD_IN(B, (size_t)gp * ldb + gj) : ZERO;
#endif
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    MULTIPLY_STAGED_TILES
    barrier(CLK_LOCAL_MEM_FENCE);
  }

  STORE_REGISTER_TILE
}
