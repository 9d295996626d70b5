// grouped.cl — a grouped GEMM in one launch: a list of problems, each with its own m, n, k,
// transposes, leading dimensions, offsets, alpha and beta, all in the same A, B and C buffers.
// Comes after common/vectors.cl (real, in_t, out_t and their loads and stores) and
// gemm/register_tile.cl (the tile parameters, multiply-adds and stores it shares with direct.cl).
//
// The host lays the problems' tiles of C end to end: work-group g serves tile g of the whole list
// and finds its problem by a binary search of the problems' first tiles (WORK_FIRST), so one
// launch covers problems of any sizes with no idle groups. Within a tile it is the direct
// kernel's scheme (gemm/direct/direct.cl): TM×TN tiles of C, WM×WN per work-item, A and B staged in local
// memory a TK slice at a time, every load guarded. A problem's transposes are run-time flags, the
// same for all work-items of a group, so the branches never diverge within one.
//
// Problems are row-major views (the host swaps A and B of column-major calls). `work` holds
// WORK_FIELDS numbers per problem, in the order of the WORK_* indices below; `scalars` its alpha
// and beta.

#define WORK_M 0
#define WORK_N 1
#define WORK_K 2
#define WORK_LDA 3
#define WORK_LDB 4
#define WORK_LDC 5
#define WORK_A 6        // offsets, in elements
#define WORK_B 7
#define WORK_C 8
#define WORK_TRANS 9    // bit 0: A transposed (stored k×m); bit 1: B transposed (stored n×k)
#define WORK_FIRST 10   // the problem's first tile in the whole list
#define WORK_TILES_N 11 // its tiles along n
#define WORK_FIELDS 12

__kernel __attribute__((reqd_work_group_size(RX, RY, 1)))
void gemm_grouped(const int problems, __global const ulong* restrict work, __global const real* restrict scalars,
                  __global const in_t* restrict A0, __global const in_t* restrict B0, __global out_t* restrict C0) {
  const ulong tile = get_group_id(0);
  // The last problem whose first tile is at or before this one (problems without tiles share
  // their first tile with the next problem, which the search passes on to).
  int lo = 0, hi = problems - 1;
  while (lo < hi) {
    const int mid = (lo + hi + 1) / 2;
    if (work[(size_t)mid * WORK_FIELDS + WORK_FIRST] <= tile) lo = mid;
    else hi = mid - 1;
  }
  __global const ulong* w = work + (size_t)lo * WORK_FIELDS;
  const int M = (int)w[WORK_M], N = (int)w[WORK_N], K = (int)w[WORK_K];
  const int lda = (int)w[WORK_LDA], ldb = (int)w[WORK_LDB], ldc = (int)w[WORK_LDC];
  const int trans_a = (int)(w[WORK_TRANS] & 1), trans_b = (int)((w[WORK_TRANS] >> 1) & 1);
  const int own = (int)(tile - w[WORK_FIRST]), tiles_n = (int)w[WORK_TILES_N];  // the problem's own tile
  __global const in_t* A = A0 + w[WORK_A];
  __global const in_t* B = B0 + w[WORK_B];
  __global out_t* C = C0 + w[WORK_C];
  const real alpha = scalars[2 * lo], beta = scalars[2 * lo + 1];

  const int tx = get_local_id(0), ty = get_local_id(1);
  const int tid = ty * RX + tx;
  const int row0 = (own / tiles_n) * TM, col0 = (own % tiles_n) * TN;

  REGISTER_TILE_STATE  // gemm/register_tile.cl

  for (int k0 = 0; k0 < K; k0 += TK) {
    // Consecutive work-items walk the stored operand's contiguous dimension in either layout.
    for (int e = tid; e < TM * TK; e += THREADS) {
      if (trans_a) {
        const int i = e % TM, p = e / TM, gi = row0 + i, gp = k0 + p;
        As[p][i] = (gi < M && gp < K) ? LOAD_IN(A, (size_t)gp * lda + gi) : ZERO;
      } else {
        const int p = e % TK, i = e / TK, gi = row0 + i, gp = k0 + p;
        As[p][i] = (gi < M && gp < K) ? LOAD_IN(A, (size_t)gi * lda + gp) : ZERO;
      }
    }
    for (int e = tid; e < TK * TN; e += THREADS) {
      if (trans_b) {
        const int p = e % TK, j = e / TK, gp = k0 + p, gj = col0 + j;
        Bs[p][j] = (gp < K && gj < N) ? LOAD_IN(B, (size_t)gj * ldb + gp) : ZERO;
      } else {
        const int j = e % TN, p = e / TN, gp = k0 + p, gj = col0 + j;
        Bs[p][j] = (gp < K && gj < N) ? LOAD_IN(B, (size_t)gp * ldb + gj) : ZERO;
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    MULTIPLY_STAGED_TILES
    barrier(CLK_LOCAL_MEM_FENCE);
  }

  STORE_REGISTER_TILE
}
