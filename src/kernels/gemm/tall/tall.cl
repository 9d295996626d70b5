// tall.cl — C = alpha·A·B + beta·C for C with few columns (N <= NB <= 16) and A's rows contiguous
// along k: tall products such as 4096×16×4096, and the tall strip of a call whose ragged edges
// run apart.
//
// Why a kernel of its own: the tiled kernels want A k-major (packed, or transposed while it is
// staged) and tiles at least 32 columns wide, so on these shapes they either copy the large
// operand or leave most of each tile empty. This kernel streams A once, in place, with no local
// tiles and no barrier in its loop: k is shared out round-robin among the LANES work-items of a
// row group, each of which reads whole real4s (four elements) along k from its RW rows of A
// (neighbouring work-items take neighbouring real4s, so a row group reads 4·LANES contiguous
// elements per row and step) and the matching rows of B, which is small and stays in the caches.
// Each work-item thus holds partial sums over its own share of k for all RW×NB outputs of its
// rows; one reduction through local memory at the end adds the LANES shares. More lanes per row group
// give a call with few rows more warps in flight (the host picks LANES by the rows).
//
// Work-group: GR row groups of LANES work-items, RW rows of C each (GR·RW rows per work-group).
// Rows past M are read from row M-1 (so no load is out of bounds) and never written.
//
// Element (i, p) of A is A[i·lda + p]; element (p, j) of B is B[p·b_ks + j·b_ns]; element (i, j)
// of C is C[i·ldc + j], or C[j·ldc + i] with C_T (all after the offsets), so B and C may be stored
// either way. C_T serves calls run reversed: Cᵀ = op(B)ᵀ·op(A)ᵀ for a C of few rows whose B is
// stored N×K, rows contiguous along k.
//   A_VEC: lda and A's offsets are multiples of 4: real4 loads (else vload4).
//   B_VEC: b_ns = 1, N = NB, b_ks and B's offsets multiples of 4: real4 loads along B's rows.
//   B_KVEC: b_ks = 1, b_ns and B's offsets multiples of 4: real4 loads along B's columns.
//   B_ROWS: b_ns = 1 otherwise (N < NB, or rows not on real4 boundaries): vload4 for each whole
//     four columns of a row, guarded loads for the last few only. (PoCL on a 2-core Xeon,
//     512×13×77: 1.20 ms with a guarded load per element, 0.28 so, 0.65 on the packed path;
//     H200, 4096×13×4096: 71 µs, 53 so.)
//   None of them: one guarded load per element.
// Batches run along the second NDRange dimension; common/batch.cl picks each item's offsets and
// alpha/beta (BATCH_ARRAYS). A and B are stored as `in_t`, C as `out_t`, and the work is done in `real`
// (common/vectors.cl).

#ifndef NB
#define NB 16  // columns of C held per work-item: N <= NB
#endif
#ifndef RW
#define RW 8  // rows of C per row group
#endif
#ifndef GR
#define GR 2  // row groups per work-group
#endif
#ifndef A_VEC
#define A_VEC 0
#endif
#ifndef B_VEC
#define B_VEC 0
#endif
#ifndef B_KVEC
#define B_KVEC 0
#endif
#ifndef B_ROWS
#define B_ROWS 0
#endif
#ifndef C_T
#define C_T 0
#endif

#ifndef LANES
#define LANES 32  // work-items sharing one row group's k (a multiple of 32)
#endif
#define WIDTH 32                 // partial sums added up per round of the reduction
#define VALUES (RW * NB)         // partial sums per work-item
#define CHUNKS ((VALUES + WIDTH - 1) / WIDTH)
#if LANES % WIDTH != 0
#error "LANES must be a multiple of 32"
#endif
#if B_VEC + B_KVEC + B_ROWS > 1
#error "B_VEC, B_KVEC and B_ROWS exclude each other"
#endif
#if B_VEC && NB % 4 != 0
#error "B_VEC needs NB to be a multiple of 4"
#endif

__kernel __attribute__((reqd_work_group_size(LANES * GR, 1, 1)))
void gemm_tall(const int M, const int N, const int K, real alpha, real beta,
               __global const in_t* restrict A, ulong a_offset, const int lda, const ulong a_stride,
               __global const in_t* restrict B, ulong b_offset, const int b_ks, const int b_ns, const ulong b_stride,
               __global out_t* restrict C, ulong c_offset, const int ldc, const ulong c_stride,
               __global const real* restrict scalars, __global const ulong* restrict offsets) {
  select_batch_item(get_group_id(1), &alpha, &beta, &a_offset, &b_offset, &c_offset, a_stride, b_stride, c_stride,
                    scalars, offsets);  // common/batch.cl
  const int lane = get_local_id(0) % LANES, group = get_local_id(0) / LANES;
  const int row0 = get_group_id(0) * (GR * RW) + group * RW;
  __global const in_t* Bk = B + b_offset;

  __global const in_t* a_row[RW];
#pragma unroll
  for (int r = 0; r < RW; ++r) a_row[r] = A + a_offset + (size_t)min(row0 + r, M - 1) * lda;

  real acc[RW][NB];
#pragma unroll
  for (int r = 0; r < RW; ++r)
#pragma unroll
    for (int j = 0; j < NB; ++j) acc[r][j] = ZERO;

  // Whole real4s of k, shared out round-robin among the lanes.
  const int quads = K / 4;
  for (int q = lane; q < quads; q += LANES) {
    const int k = 4 * q;
    real4 a[RW];
#pragma unroll
    for (int r = 0; r < RW; ++r)
#if A_VEC
      a[r] = LOAD_IN4A(a_row[r] + k);
#else
      a[r] = LOAD_IN4(a_row[r] + k, 0);
#endif
    // b[kk][j] = B(k + kk, j)
    real b[4][NB];
#if B_VEC
#pragma unroll
    for (int kk = 0; kk < 4; ++kk)
#pragma unroll
      for (int j4 = 0; j4 < NB / 4; ++j4) {
        const real4 v = LOAD_IN4A(Bk + (size_t)(k + kk) * b_ks + 4 * j4);
        b[kk][4 * j4] = v.x, b[kk][4 * j4 + 1] = v.y, b[kk][4 * j4 + 2] = v.z, b[kk][4 * j4 + 3] = v.w;
      }
#elif B_KVEC
#pragma unroll
    for (int j = 0; j < NB; ++j) {
      const real4 v = j < N ? LOAD_IN4A(Bk + (size_t)j * b_ns + k) : (real4)(ZERO);
      b[0][j] = v.x, b[1][j] = v.y, b[2][j] = v.z, b[3][j] = v.w;
    }
#elif B_ROWS
#pragma unroll
    for (int kk = 0; kk < 4; ++kk)
#pragma unroll
      for (int j4 = 0; j4 < NB / 4; ++j4) {
        __global const in_t* row = Bk + (size_t)(k + kk) * b_ks + 4 * j4;
        real4 v = (real4)(ZERO);
        if (4 * j4 + 4 <= N) {
          v = LOAD_IN4(row, 0);
        } else if (4 * j4 < N) {  // the last 1-3 columns
          v.x = LOAD_IN(row, 0);
          if (4 * j4 + 1 < N) v.y = LOAD_IN(row, 1);
          if (4 * j4 + 2 < N) v.z = LOAD_IN(row, 2);
        }
        b[kk][4 * j4] = v.x, b[kk][4 * j4 + 1] = v.y, b[kk][4 * j4 + 2] = v.z, b[kk][4 * j4 + 3] = v.w;
      }
#else
#pragma unroll
    for (int kk = 0; kk < 4; ++kk)
#pragma unroll
      for (int j = 0; j < NB; ++j) b[kk][j] = j < N ? LOAD_IN(Bk, (size_t)(k + kk) * b_ks + (size_t)j * b_ns) : ZERO;
#endif
#pragma unroll
    for (int r = 0; r < RW; ++r)
#pragma unroll
      for (int j = 0; j < NB; ++j) {
        acc[r][j] = FMA(a[r].x, b[0][j], acc[r][j]);
        acc[r][j] = FMA(a[r].y, b[1][j], acc[r][j]);
        acc[r][j] = FMA(a[r].z, b[2][j], acc[r][j]);
        acc[r][j] = FMA(a[r].w, b[3][j], acc[r][j]);
      }
  }
  // The last K % 4 values of k, one per lane.
  const int k = 4 * quads + lane;
  if (k < K)
#pragma unroll
    for (int j = 0; j < NB; ++j) {
      const real bj = j < N ? LOAD_IN(Bk, (size_t)k * b_ks + (size_t)j * b_ns) : ZERO;
#pragma unroll
      for (int r = 0; r < RW; ++r) acc[r][j] = FMA(LOAD_IN(a_row[r], k), bj, acc[r][j]);
    }

  // Add up the lanes' shares, 32 values at a time: each lane writes 32 of its partial sums, then
  // each of the first 32 lanes adds up one value over all lanes. The +1 keeps both the writes
  // and the reads on 32 banks.
  __local real part[GR][LANES][WIDTH + 1];
  __global out_t* Cb = C + c_offset;
#pragma unroll
  for (int c = 0; c < CHUNKS; ++c) {
#pragma unroll
    for (int t = 0; t < WIDTH; ++t) {
      const int v = c * WIDTH + t;
      if (v < VALUES) part[group][lane][t] = acc[v / NB][v % NB];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    const int v = c * WIDTH + lane;
    const int r = v / NB, j = v % NB, i = row0 + r;
    if (lane < WIDTH && v < VALUES && i < M && j < N) {
      real sum = ZERO;
      for (int l = 0; l < LANES; ++l) sum += part[group][l][lane];
#if C_T
      __global out_t* cij = Cb + (size_t)j * ldc + i;
#else
      __global out_t* cij = Cb + (size_t)i * ldc + j;
#endif
      // alpha == 0: the product does not count; beta == 0: C is not read (BLAS semantics).
      const real prod = SCALE(real, alpha, sum);
      STORE_OUT(cij, beta == ZERO ? prod : MULADD(beta, LOAD_OUT(cij), prod));
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}
