// dmma.cl — C = alpha·A·B + beta·C in double on NVIDIA's FP64 tensor cores (sm_80+), through
// inline PTX mma.sync with f64 inputs and accumulators: every product and sum is an IEEE double
// operation, as in the SIMT kernels, only issued many multiply-adds at a time. MMA_K picks the
// instruction: 4, m8n8k4 (sm_80 and newer); 8, m16n8k8, or 16, m16n8k16 (sm_90 and newer). An
// H100 ran m16n8k8 about twice as fast as m8n8k4.
//
// Operands come as the packed path packs them (built with PRECISION=64): At (K×M) and B (K×N),
// rows of lda_v / ldb_v pairs of doubles, starting a_off_v / b_off_v pairs in. Every tile the
// kernel reads lies inside them: the host pads M to BM, N to BN and K to BK with zeros, or reads
// the caller's matrices in place where they are already whole tiles. C is the caller's (M×N, row
// stride ldc, offset c_offset); stores are guarded, so nothing outside M×N is written.
//
// A work-group computes BM×BN of C with (BM/WM)·(BN/WN) warps; each warp computes WM×WN as
// (WM/8)×(WN/8) m8n8 tiles. K goes in tiles of BK through a STAGES-deep cp.async pipeline.
//
// Local layout: both tiles are stored k-major (As[k][m], Bs[k][n]), as they arrive. Lane 4g+q
// reads A's element (m = g, k = q) and B's (k = q, n = g): with a row length LD ≡ 4 (mod 16)
// doubles, the 16 lanes of a half-warp read 16 different 8-byte bank pairs.

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
#define LDA (BM + 4)                 // local row length of A (doubles)
#define LDB (BN + 4)
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
#if STAGES < 2 || STAGES > 4
#error "the pipeline has 2-4 stages"
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

// Starts the copies of K-tile `kt` into one pipeline slot.
inline void load_tile(__local double* as, __local double* bs, __global const double2* A, const int lda_v,
                      __global const double2* B, const int ldb_v, const int kt, const int lid) {
#pragma unroll
  for (int i = 0; i < A_CHUNKS / THREADS; ++i) {
    const int c = i * THREADS + lid, r = c / (BM / 2), v = c % (BM / 2);
    CP_ASYNC16(as + r * LDA + v * 2, A + (size_t)(kt * BK + r) * lda_v + v);
  }
#pragma unroll
  for (int i = 0; i < B_CHUNKS / THREADS; ++i) {
    const int c = i * THREADS + lid, r = c / (BN / 2), v = c % (BN / 2);
    CP_ASYNC16(bs + r * LDB + v * 2, B + (size_t)(kt * BK + r) * ldb_v + v);
  }
}

__kernel __attribute__((reqd_work_group_size(THREADS, 1, 1)))
void dmma(const int M, const int N, const int K, const int Kp, double alpha, double beta,
          __global const double2* restrict A0, ulong a_off_v, const int lda_v, const ulong a_stride_v,
          __global const double2* restrict B0, ulong b_off_v, const int ldb_v, const ulong b_stride_v,
          __global double* restrict C0, ulong c_offset, const int ldc, const ulong c_stride, const int tiles_n,
          __global const double* restrict scalars, __global const ulong* restrict offsets) {
#if BATCHED
  select_batch_item(get_group_id(1), &alpha, &beta, &a_off_v, &b_off_v, &c_offset, a_stride_v, b_stride_v, c_stride,
                    scalars, offsets);
#endif
  // double2 arrays: cp.async's 16-byte copies need 16-byte aligned destinations.
  __local double2 As2[STAGES][BK * LDA / 2];
  __local double2 Bs2[STAGES][BK * LDB / 2];
#define AS(s) ((__local double*)As2[s])
#define BS(s) ((__local double*)Bs2[s])

  const int lid = get_local_id(0);
  const int warp = lid / 32, lane = lid % 32, g = lane / 4, q = lane % 4;
  const int wm = (warp / WARPS_N) * WM, wn = (warp % WARPS_N) * WN;
  const int tile = get_group_id(0), tm = tile / tiles_n, tn = tile % tiles_n;

  __global const double2* A = A0 + a_off_v + tm * (BM / 2);
  __global const double2* B = B0 + b_off_v + tn * (BN / 2);
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
    if (s < ktiles) load_tile(AS(s), BS(s), A, lda_v, B, ldb_v, s, lid);
    CP_COMMIT();
  }
  for (int kt = 0; kt < ktiles; ++kt) {
    CP_WAIT(STAGES - 2);           // tile kt has landed (this work-item's copies)...
    barrier(CLK_LOCAL_MEM_FENCE);  // ... and everyone's; the slot of tile kt-1 is free again
    const int next = kt + STAGES - 1;
    if (next < ktiles) load_tile(AS(next % STAGES), BS(next % STAGES), A, lda_v, B, ldb_v, next, lid);
    CP_COMMIT();
    __local const double* as = AS(kt % STAGES) + wm + g;
    __local const double* bs = BS(kt % STAGES) + wn + g;
#pragma unroll
    for (int kk = 0; kk < BK; kk += MMA_K) {
      double a[MT][A_PER_TILE], b[NT][B_PER_TILE];
#pragma unroll
      for (int i = 0; i < MT; ++i)
#pragma unroll
        for (int e = 0; e < A_PER_TILE; ++e) a[i][e] = as[(kk + q + 4 * (e / 2)) * LDA + i * MMA_M + 8 * (e % 2)];
#pragma unroll
      for (int j = 0; j < NT; ++j)
#pragma unroll
        for (int e = 0; e < B_PER_TILE; ++e) b[j][e] = bs[(kk + q + 4 * e) * LDB + j * 8];
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
