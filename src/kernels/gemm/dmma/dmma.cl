// dmma.cl — C = alpha·A·B + beta·C in double on NVIDIA's FP64 tensor cores (sm_80+), through
// inline PTX mma.sync with f64 inputs and accumulators: every product and sum is an IEEE double
// operation, as in the SIMT kernels, only issued many multiply-adds at a time. MMA_K picks the
// instruction: 4, m8n8k4 (sm_80 and newer); 8, m16n8k8, or 16, m16n8k16 (sm_90 and newer). An
// H100 ran m16n8k8 about twice as fast as m8n8k4.
//
// Operands (built with PRECISION=64) are rows of lda_v / ldb_v units, starting a_off_v / b_off_v
// units in, a unit being A_UNIT or B_UNIT doubles (batch.cl): A as At (K×M), or with A_MK as M×K;
// B as K×N, or with B_NK as N×K. An operand of one-double units (rows off 16-byte boundaries) is
// copied a double at a time, one of pairs a pair at a time. Without GUARD every tile the kernel
// reads lies inside the operands (whole tiles, or a zero-padded copy); with GUARD each copy that
// reaches past M, N or K reads only what lies inside and fills the rest with zeros, so that the
// caller's matrices of any size are read in place. C is the caller's (M×N, row stride ldc, offset
// c_offset); stores are guarded, so nothing outside M×N is written.
//
// GROUPED = 1: a grouped call, its problems' tiles of C laid end to end. `offsets` holds
// GROUP_FIELDS numbers per problem (below), `scalars` its alpha and beta, and M the number of
// problems; each work-group finds its problem by a binary search of their first tiles. Copies
// are guarded; with COPY8 they move a double at a time (rows off 16-byte boundaries).
//
// A work-group computes BM×BN of C with (BM/WM)·(BN/WN) warps; each warp computes WM×WN as
// (WM/8)×(WN/8) m8n8 tiles. K goes in tiles of BK through a STAGES-deep cp.async pipeline.
//
// Local layout: each tile is stored as it arrives. K-major (As[k][m], Bs[k][n]): lane 4g+q reads
// A's element (m = g, k = q) and B's (k = q, n = g); with a row length LD ≡ 4 (mod 16) doubles, the
// 16 lanes of a half-warp read 16 different 8-byte bank pairs. M- or N-major (A_MK, B_NK: rows of
// BK doubles, no padding): row r keeps its k-th double at k ^ 4·SWZ(r), which spreads the four
// rows g = 0..3 of a half-warp over the four quarters of the banks.

#ifndef BATCHED
#define BATCHED 0
#endif
#ifndef BM
#define BM 128      // rows of C per work-group
#endif
#ifndef BN
#define BN 128      // columns of C per work-group
#endif
#ifndef BK
#define BK 8        // K-depth of one tile
#endif
#ifndef WM
#define WM 64       // rows of C per warp
#endif
#ifndef WN
#define WN 32       // columns of C per warp
#endif
#ifndef STAGES
#define STAGES 2    // tiles in the cp.async pipeline
#endif
#ifndef MMA_K
#define MMA_K 4     // the instruction: 4 (m8n8k4), 8 (m16n8k8, sm_90) or 16 (m16n8k16, sm_90)
#endif
#ifndef A_MK
#define A_MK 0      // 1: A is M×K (rows along k), read in place
#endif
#ifndef B_NK
#define B_NK 0      // 1: B is N×K (rows along k), read in place
#endif
#ifndef GROUPED
#define GROUPED 0   // 1: a list of problems of any sizes (above)
#endif
#ifndef COPY8
#define COPY8 0     // 1: (grouped calls) copies of one double, for A's and B's rows at any offset
#endif
#ifndef GUARD
#define GUARD GROUPED  // 1: every copy guarded against M, N and K (above)
#endif
// Whether an operand's copies move one double at a time.
#define A_COPY8 (GROUPED ? COPY8 : A_UNIT == 1)
#define B_COPY8 (GROUPED ? COPY8 : B_UNIT == 1)

// A problem's numbers in a grouped call's `offsets`, in this order.
#define GROUP_M 0
#define GROUP_N 1
#define GROUP_K 2
#define GROUP_KP 3        // K rounded up to BK
#define GROUP_A_OFF 4     // in doubles, as all the numbers
#define GROUP_LDA 5
#define GROUP_B_OFF 6
#define GROUP_LDB 7
#define GROUP_C_OFF 8     // in doubles
#define GROUP_LDC 9
#define GROUP_TILES_N 10
#define GROUP_FIRST 11    // the problem's first tile in the whole list
#define GROUP_FIELDS 12

#if PRECISION != 64
#error "dmma multiplies doubles: build it with PRECISION=64"
#endif

#define WARPS_N (BN / WN)
#define THREADS ((BM / WM) * WARPS_N * 32)
#if MMA_K >= 8
#define MMA_M 16
#else
#define MMA_M 8
#endif
#define MT (WM / MMA_M)              // MMA tiles per warp along M
#define NT (WN / 8)                  // n8 tiles per warp
#define LDA (BM + 4)                 // local row length of a k-major A (doubles)
#define LDB (BN + 4)
// Doubles of one stage's tile of A and of B in local memory.
#define A_TILE (A_MK ? BM * BK : BK * LDA)
#define B_TILE (B_NK ? BN * BK : BK * LDB)
// The swizzle of an M- or N-major row r: rows of BK doubles take 16 / BK rows to fill the 16
// 8-byte bank pairs, and row groups 0..3 then land on quarters 0..3 of them.
#define SWZ(r) (((r) / (16 / BK)) % (BK / 4))
#define A_CHUNKS (BK * BM / 2)       // 16-byte copies per A tile
#define B_CHUNKS (BK * BN / 2)

#if BM % WM || BN % WN || WM % MMA_M || WN % 8 || BK % MMA_K || BM % 32 || BN % 32
#error "BM, BN: multiples of 32 and of the warp tile; WM of the MMA's M, WN of 8, BK of MMA_K"
#endif
#if MMA_K != 4 && MMA_K != 8 && MMA_K != 16
#error "MMA_K is 4, 8 or 16"
#endif
#if A_CHUNKS % THREADS || B_CHUNKS % THREADS
#error "each tile must split evenly into 16-byte copies over the work-group"
#endif
#if STAGES < 2 || STAGES > 8
#error "the pipeline has 2-8 stages"
#endif
#if (A_MK || B_NK) && BK != 4 && BK != 8 && BK != 16
#error "M- and N-major tiles swizzle rows of 4, 8 or 16 doubles"
#endif

#if MMA_K == 16
// d += a·b for one m16n8k16 tile: as m16n8k8, with k + 8 and k + 12 after k and k + 4. Lane 4g+q
// holds a: (g, q + 4i) and (g+8, q + 4i) for i = 0..3; b: (q + 4i, g); d as m16n8k8.
#define ACC_PER_TILE 4
#define DMMA(d, a, b) __asm__("mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64 " \
    "{%0,%1,%2,%3}, {%4,%5,%6,%7,%8,%9,%10,%11}, {%12,%13,%14,%15}, {%16,%17,%18,%19};" \
    : "=d"((d)[0]), "=d"((d)[1]), "=d"((d)[2]), "=d"((d)[3]) \
    : "d"((a)[0]), "d"((a)[1]), "d"((a)[2]), "d"((a)[3]), "d"((a)[4]), "d"((a)[5]), "d"((a)[6]), "d"((a)[7]), \
      "d"((b)[0]), "d"((b)[1]), "d"((b)[2]), "d"((b)[3]), "d"((d)[0]), "d"((d)[1]), "d"((d)[2]), "d"((d)[3]))
#elif MMA_K == 8
// d += a·b for one m16n8k8 tile. Lane 4g+q holds a: (g, q), (g+8, q), (g, q+4), (g+8, q+4);
// b: (q, g), (q+4, g); d: (g, 2q), (g, 2q+1), (g+8, 2q), (g+8, 2q+1).
#define ACC_PER_TILE 4
#define DMMA(d, a, b) __asm__("mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64 " \
    "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};" \
    : "=d"((d)[0]), "=d"((d)[1]), "=d"((d)[2]), "=d"((d)[3]) \
    : "d"((a)[0]), "d"((a)[1]), "d"((a)[2]), "d"((a)[3]), "d"((b)[0]), "d"((b)[1]), \
      "d"((d)[0]), "d"((d)[1]), "d"((d)[2]), "d"((d)[3]))
#else
// d += a·b for one m8n8k4 tile. Lane 4g+q holds a: (g, q); b: (q, g); d: (g, 2q), (g, 2q+1).
#define ACC_PER_TILE 2
#define DMMA(d, a, b) __asm__("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%3}, {%4,%5};" \
    : "=d"((d)[0]), "=d"((d)[1]) : "d"((a)[0]), "d"((b)[0]), "d"((d)[0]), "d"((d)[1]))
#endif
#define A_PER_TILE (MMA_K == 4 ? 1 : MMA_K / 2)
#define B_PER_TILE (MMA_K / 4)

// Starts the copy of a pair of doubles, as one 16-byte copy or (`copy8`) two of 8: whole, or with
// GUARD the first `inside` of them (0-2; the rest zeros, nothing read past them). A copy that
// reads nothing names `base`, the tile's first element, which lies inside the operand.
inline void copy_chunk(__local double* dst, __global const double* src, __global const double* base,
                       const int inside, const bool copy8) {
  const int n = GUARD ? clamp(inside, 0, 2) : 2;
  if (copy8) {
    CP_ASYNC8_ZFILL((uint)(size_t)dst, n > 0 ? src : base, n > 0 ? 8 : 0);
    CP_ASYNC8_ZFILL((uint)(size_t)(dst + 1), n > 1 ? src + 1 : base, n > 1 ? 8 : 0);
  } else if (GUARD) {
    CP_ASYNC16_ZFILL((uint)(size_t)dst, n > 0 ? src : base, 8 * n);
  } else {
    CP_ASYNC16(dst, src);
  }
}

// Starts the copies of one operand's K-tile `kt` (`rows` wide) into one pipeline slot: from k-major
// rows (row k, chunks along m or n), or with `along_k` from rows of BK doubles (row m or n, chunks
// along k), which land swizzled. `rows_in` of the tile's rows (m or n) and K of its k lie inside
// the operand (with GUARD).
inline void load_operand(__local double* dst, __global const double* src, const int ld, const int rows,
                         const int ld_local, const bool along_k, const int chunks, const int kt, const int lid,
                         const int rows_in, const int K, const bool copy8) {
#pragma unroll
  for (int i = 0; i < chunks / THREADS; ++i) {
    const int c = i * THREADS + lid;
    if (along_k) {
      const int r = c / (BK / 2), v = c % (BK / 2), k = kt * BK + 2 * v;
      copy_chunk(dst + r * BK + 2 * (v ^ (2 * SWZ(r))), src + (size_t)r * ld + k, src, r < rows_in ? K - k : 0,
                 copy8);
    } else {
      const int r = c / (rows / 2), v = c % (rows / 2), k = kt * BK + r;
      copy_chunk(dst + r * ld_local + v * 2, src + (size_t)k * ld + 2 * v, src, k < K ? rows_in - 2 * v : 0, copy8);
    }
  }
}

inline void load_tile(__local double* as, __local double* bs, __global const double* A, const int lda,
                      __global const double* B, const int ldb, const int kt, const int lid, const int m_in,
                      const int n_in, const int K) {
  load_operand(as, A, lda, BM, LDA, A_MK, A_CHUNKS, kt, lid, m_in, K, A_COPY8);
  load_operand(bs, B, ldb, BN, LDB, B_NK, B_CHUNKS, kt, lid, n_in, K, B_COPY8);
}

__kernel __attribute__((reqd_work_group_size(THREADS, 1, 1)))
void dmma(int M, int N, int K, int Kp, double alpha, double beta,
          __global const double2* restrict A0, ulong a_off_v, const int lda_v, const ulong a_stride_v,
          __global const double2* restrict B0, ulong b_off_v, const int ldb_v, const ulong b_stride_v,
          __global double* restrict C0, ulong c_offset, int ldc, const ulong c_stride, int tiles_n,
          __global const double* restrict scalars, __global const ulong* restrict offsets) {
#if BATCHED
  select_batch_item(get_group_id(1), &alpha, &beta, &a_off_v, &b_off_v, &c_offset, a_stride_v, b_stride_v, c_stride,
                    scalars, offsets);
#endif
  int tile = get_group_id(0);
  // A's and B's offsets and row lengths in doubles.
  ulong a_off = A_UNIT * a_off_v, b_off = B_UNIT * b_off_v;
  int lda = A_UNIT * lda_v, ldb = B_UNIT * ldb_v;
#if GROUPED
  {
    // The last problem whose first tile is at or before this one (problems without tiles share
    // their first tile with the next, which the search passes on to).
    int lo = 0, hi = M - 1;
    while (lo < hi) {
      const int mid = (lo + hi + 1) / 2;
      if (offsets[(size_t)mid * GROUP_FIELDS + GROUP_FIRST] <= (ulong)tile) lo = mid;
      else hi = mid - 1;
    }
    __global const ulong* w = offsets + (size_t)lo * GROUP_FIELDS;
    M = (int)w[GROUP_M], N = (int)w[GROUP_N], K = (int)w[GROUP_K], Kp = (int)w[GROUP_KP];
    a_off = w[GROUP_A_OFF], lda = (int)w[GROUP_LDA], b_off = w[GROUP_B_OFF], ldb = (int)w[GROUP_LDB];
    c_offset = w[GROUP_C_OFF], ldc = (int)w[GROUP_LDC], tiles_n = (int)w[GROUP_TILES_N];
    tile -= (int)w[GROUP_FIRST];
    alpha = scalars[2 * lo], beta = scalars[2 * lo + 1];
  }
#endif
  // double2 arrays: cp.async's 16-byte copies need 16-byte aligned destinations.
  __local double2 As2[STAGES][A_TILE / 2];
  __local double2 Bs2[STAGES][B_TILE / 2];
#define AS(s) ((__local double*)As2[s])
#define BS(s) ((__local double*)Bs2[s])

  const int lid = get_local_id(0);
  const int warp = lid / 32, lane = lid % 32, g = lane / 4, q = lane % 4;
  const int wm = (warp / WARPS_N) * WM, wn = (warp % WARPS_N) * WN;
  const int tm = tile / tiles_n, tn = tile % tiles_n;
  // Rows of A and columns of B of this tile that lie inside the operands.
  const int m_in = M - tm * BM, n_in = N - tn * BN;

  // The tile's first row (M- or N-major) or first column (k-major).
  __global const double* A = (__global const double*)A0 + a_off + (A_MK ? (size_t)tm * BM * lda : (size_t)tm * BM);
  __global const double* B = (__global const double*)B0 + b_off + (B_NK ? (size_t)tn * BN * ldb : (size_t)tn * BN);
  // Each lane's rows of A and B (g, plus multiples of 8) share one swizzle.
  const int ax = A_MK ? 4 * SWZ(g) : 0, bx = B_NK ? 4 * SWZ(g) : 0;
  const int ktiles = Kp / BK;

  double acc[MT][NT][ACC_PER_TILE];
#pragma unroll
  for (int i = 0; i < MT; ++i)
#pragma unroll
    for (int j = 0; j < NT; ++j)
#pragma unroll
      for (int e = 0; e < ACC_PER_TILE; ++e) acc[i][j][e] = 0.0;

#pragma unroll
  for (int s = 0; s < STAGES - 1; ++s) {
    if (s < ktiles) load_tile(AS(s), BS(s), A, lda, B, ldb, s, lid, m_in, n_in, K);
    CP_COMMIT();
  }
  for (int kt = 0; kt < ktiles; ++kt) {
    CP_WAIT(STAGES - 2);           // tile kt has landed (this work-item's copies)...
    barrier(CLK_LOCAL_MEM_FENCE);  // ... and everyone's; the slot of tile kt-1 is free again
    const int next = kt + STAGES - 1;
    if (next < ktiles) load_tile(AS(next % STAGES), BS(next % STAGES), A, lda, B, ldb, next, lid, m_in, n_in, K);
    CP_COMMIT();
    // Element (row x, k) of the lane's rows: k-major tiles step LD per k, M- or N-major ones BK per row.
    __local const double* as = AS(kt % STAGES) + (A_MK ? (wm + g) * BK : wm + g);
    __local const double* bs = BS(kt % STAGES) + (B_NK ? (wn + g) * BK : wn + g);
#define A_AT(x, k) (A_MK ? as[(x) * BK + ((k) ^ ax)] : as[(k) * LDA + (x)])
#define B_AT(x, k) (B_NK ? bs[(x) * BK + ((k) ^ bx)] : bs[(k) * LDB + (x)])
#pragma unroll
    for (int kk = 0; kk < BK; kk += MMA_K) {
      double a[MT][A_PER_TILE], b[NT][B_PER_TILE];
#pragma unroll
      for (int i = 0; i < MT; ++i)
#pragma unroll
        for (int e = 0; e < A_PER_TILE; ++e) a[i][e] = A_AT(i * MMA_M + 8 * (e % 2), kk + q + 4 * (e / 2));
#pragma unroll
      for (int j = 0; j < NT; ++j)
#pragma unroll
        for (int e = 0; e < B_PER_TILE; ++e) b[j][e] = B_AT(j * 8, kk + q + 4 * e);
#pragma unroll
      for (int i = 0; i < MT; ++i)
#pragma unroll
        for (int j = 0; j < NT; ++j) DMMA(acc[i][j], a[i], b[j]);
    }
  }
  CP_WAIT(0);

  // Lane 4g+q holds row g (and g+8 with m16n8k8 and m16n8k16), columns 2q and 2q+1 of each tile.
  const int row0 = tm * BM + wm + g, col0 = tn * BN + wn + 2 * q;
#pragma unroll
  for (int i = 0; i < MT; ++i)
#pragma unroll
    for (int j = 0; j < NT; ++j)
#pragma unroll
      for (int e = 0; e < ACC_PER_TILE; ++e) {
        const int row = row0 + i * MMA_M + 8 * (e / 2), col = col0 + j * 8 + e % 2;
        if (row < M && col < N) {
          __global double* c = C0 + c_offset + (size_t)row * ldc + col;
          const double r = (alpha == 0.0) ? 0.0 : alpha * acc[i][j][e];  // BLAS: alpha = 0 drops A·B
          *c = (beta == 0.0) ? r : r + beta * *c;                         // beta = 0 never reads C
        }
      }
}
