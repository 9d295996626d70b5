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
// (common/vectors.cl).

#ifndef TM
#define TM 64       // rows of C per work-group
#endif
#ifndef TN
#define TN 64       // columns of C per work-group
#endif
#ifndef TK
#define TK 16       // depth of the A and B tiles held in local memory
#endif
#ifndef WM
#define WM 4        // rows of C per work-item
#endif
#ifndef WN
#define WN 4        // columns of C per work-item
#endif
#ifndef TRANS_A
#define TRANS_A 0
#endif
#ifndef TRANS_B
#define TRANS_B 0
#endif

#define RX (TN / WN)          // work-items along n
#define RY (TM / WM)          // work-items along m
#define THREADS (RX * RY)
#if TM % WM != 0 || TN % WN != 0
#error "TM must be a multiple of WM and TN of WN"
#endif
#if (TM * TK) % THREADS != 0 || (TK * TN) % THREADS != 0
#error "each work-item must load a whole number of A and B elements per tile"
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

  // As holds op(A) transposed (k-major) so a work-item reads its WM values of one k as neighbours;
  // +1 column of padding keeps the transposing stores from landing in one bank.
  __local real As[TK][TM + 1];
  __local real Bs[TK][TN];

  real acc[WM][WN];
  for (int i = 0; i < WM; ++i)
    for (int j = 0; j < WN; ++j) acc[i][j] = ZERO;

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
#pragma unroll
    for (int p = 0; p < TK; ++p) {
      real a[WM], b[WN];
      // Rows ty, ty+RY, ...: neighbouring work-items read neighbouring words (no bank conflict),
      // and the same holds for columns.
      for (int i = 0; i < WM; ++i) a[i] = As[p][ty + i * RY];
      for (int j = 0; j < WN; ++j) b[j] = Bs[p][tx + j * RX];
      for (int i = 0; i < WM; ++i)
        for (int j = 0; j < WN; ++j) acc[i][j] = FMA(a[i], b[j], acc[i][j]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }

  for (int i = 0; i < WM; ++i) {
    const int gi = row0 + ty + i * RY;
    if (gi >= M) continue;
    for (int j = 0; j < WN; ++j) {
      const int gj = col0 + tx + j * RX;
      if (gj >= N) continue;
      __global out_t* c = C + (size_t)gi * ldc + gj;
      // alpha == 0: the product does not count (BLAS semantics), even if A or B hold Inf or NaN.
      // beta == 0: C is not read, so NaN or Inf left in it cannot leak into the result.
      const real t = SCALE(real, alpha, acc[i][j]);
      STORE_OUT(c, (beta == ZERO) ? t : MULADD(beta, LOAD_OUT(c), t));
    }
  }
}
