// xmma.cl — C = alpha·A·B + beta·C on NVIDIA tensor cores (sm_80+), through inline PTX
// mma.sync.m16n8k8 with TF32 inputs and float32 accumulators: the tensor path.
//
// TERMS picks the arithmetic (GemmOptions::math):
//   3  3xTF32. Each float x is split into hi = x with its low 13 bits cleared (a TF32 number)
//      and lo = x − hi (exact), which the MMA in turn reads as TF32: x is carried to 2^-20 of
//      itself. The product is a_lo·b_hi + a_hi·b_lo + a_hi·b_hi (a_lo·b_lo is below float32's
//      precision): three tensor-core products stand in for one float32 product.
//   1  TF32: one product of the inputs rounded to nearest TF32 (11 significant bits), as cuBLAS's
//      TF32 mode does.
//
// Accuracy. The MMA adds into its accumulator with truncation, a bias toward zero that grows with
// the size of what it holds. A sum kept there over all of K drifted (H200, 4096³ of uniform
// [-1, 1] inputs: error 1.7e-6 of Σ|a·b|, against 1.3e-7 for a float32 loop), and so did sums of
// 64 k added to a float32 accumulator every 64 (inputs in [0, 1): 1.3e-6 against the float32
// path's 7.9e-8 at 128×128×4096). So with FK = 1 each k8 step's three products go through the
// MMA on their own, small terms first from zero, so that only the last add truncates at the size
// of the result, and the step's sum is added to a float32 accumulator (rounded to nearest). FK > 1
// sums FK steps in the MMA first (faster, less accurate); FK = 0 all of K (TF32, whose input
// rounding dwarfs the bias). The split by truncation rather than rounding to nearest (cvt.rna)
// took 4096³ from 2.84 to 2.41 ms (docs/tuning.md).
//
// Infinities: an infinite input gives lo = ∞ − ∞ = NaN, so 3xTF32 would turn a float32 ±∞
// result into NaN. An element that comes out NaN is therefore computed again as a float32 dot
// product, which gives what float32 arithmetic gives (∞, or NaN where it too has one). This
// costs one comparison per element and nothing in the main loop.
//
// Operands come as the packed path packs them: At (K×M) and B (K×N), rows of lda_v / ldb_v
// float4s, starting a_off_v / b_off_v float4s in. Every tile the kernel reads lies inside them:
// the host pads M to BM, N to BN and K to BK with zeros (Kp), or reads the caller's matrices in
// place where they are already whole tiles. C is the caller's (M×N, row stride ldc, offset
// c_offset); stores are guarded, so nothing outside M×N is written.
//
// A work-group computes BM×BN of C with (BM/WM)·(BN/WN) warps; each warp computes WM×WN as
// (WM/16)×(WN/8) m16n8 tiles. K goes in tiles of BK through a STAGES-deep cp.async pipeline:
// tiles go from global to local memory without passing through registers, STAGES−1 tiles ahead
// of the one being multiplied.
//
// Local layout: both tiles are stored k-major (As[k][m], Bs[k][n]), as they arrive. The fragment
// element (m = g or g+8, k = t or t+4) of lane 4g+t lies at k·LD + m; with a row length LD ≡ 8
// (mod 32) floats the 32 lanes' t·8 + g fall in 32 different banks.

#ifndef BATCHED
#define BATCHED 0   // set by the host for a batch of more than one item, or one given by arrays
#endif
#ifndef BM
#define BM 128      // rows of C per work-group
#endif
#ifndef BN
#define BN 64       // columns of C per work-group
#endif
#ifndef BK
#define BK 16       // K-depth of one tile
#endif
#ifndef WM
#define WM 64       // rows of C per warp
#endif
#ifndef WN
#define WN 32       // columns of C per warp
#endif
#ifndef STAGES
#define STAGES 3    // tiles in the cp.async pipeline
#endif
#ifndef TERMS
#define TERMS 3     // tensor-core products per float32 product: 3 (3xTF32) or 1 (TF32)
#endif
#ifndef FK
#define FK 1        // k8 steps the MMA sums before a float32 add (0: all of K in the MMA)
#endif

#define WARPS_M (BM / WM)
#define WARPS_N (BN / WN)
#define THREADS (WARPS_M * WARPS_N * 32)
#define MT (WM / 16)                 // m16 tiles per warp
#define NT (WN / 8)                  // n8 tiles per warp
#define LDA (BM + 8)                 // local row length of A (floats)
#define LDB (BN + 8)
#define A_CHUNKS (BK * BM / 4)       // float4 copies per A tile
#define B_CHUNKS (BK * BN / 4)

#if BM % WM || BN % WN || WM % 16 || WN % 8 || BK % 8 || BM % 32 || BN % 32
#error "BM, BN: multiples of 32 and of the warp tile; WM of 16, WN of 8, BK of 8"
#endif
#if A_CHUNKS % THREADS || B_CHUNKS % THREADS
#error "each tile must split evenly into float4 copies over the work-group"
#endif
#if TERMS != 1 && TERMS != 3
#error "TERMS is 1 (TF32) or 3 (3xTF32)"
#endif
#if STAGES < 2 || STAGES > 4
#error "the pipeline has 2-4 stages"
#endif
#if FK < 0
#error "FK is 0 or more"
#endif

#if TERMS == 3
#define HI(x) (as_uint(x) & 0xffffe000u)
#define LO(x, hi) as_uint((x) - as_float(hi))
#else
// Round to nearest TF32 (ties away), as the bit pattern mma.sync takes.
inline uint to_tf32(const float x) {
  uint r;
  __asm__("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(x));
  return r;
}
#define HI(x) to_tf32(x)
#endif
// A float's TF32 terms into hi (and, with 3xTF32, lo). With one term `lo` is never expanded, so
// it may name a fragment that does not exist.
#if TERMS == 3
#define TF32_TERMS(x, hi, lo) ((hi) = HI(x), (lo) = LO(x, hi))
#else
#define TF32_TERMS(x, hi, lo) ((hi) = HI(x))
#endif

// d = a·b for one m16n8k8 tile (a: 16×8 row-major, b: 8×8 column-major, in fragments).
#define MMA0(d, a, b) __asm__("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 " \
    "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%10,%10,%10};" \
    : "=f"((d)[0]), "=f"((d)[1]), "=f"((d)[2]), "=f"((d)[3]) \
    : "r"((a)[0]), "r"((a)[1]), "r"((a)[2]), "r"((a)[3]), "r"((b)[0]), "r"((b)[1]), "f"(0.0f))
// d += a·b.
#define MMA(d, a, b) __asm__("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 " \
    "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};" \
    : "=f"((d)[0]), "=f"((d)[1]), "=f"((d)[2]), "=f"((d)[3]) \
    : "r"((a)[0]), "r"((a)[1]), "r"((a)[2]), "r"((a)[3]), "r"((b)[0]), "r"((b)[1]), \
      "f"((d)[0]), "f"((d)[1]), "f"((d)[2]), "f"((d)[3]))

// Starts the copies of K-tile `kt` into one pipeline slot.
inline void load_tile(__local float* as, __local float* bs, __global const float4* A, const int lda_v,
                      __global const float4* B, const int ldb_v, const int kt, const int lid) {
#pragma unroll
  for (int i = 0; i < A_CHUNKS / THREADS; ++i) {
    const int c = i * THREADS + lid, r = c / (BM / 4), v = c % (BM / 4);
    CP_ASYNC16(as + r * LDA + v * 4, A + (size_t)(kt * BK + r) * lda_v + v);
  }
#pragma unroll
  for (int i = 0; i < B_CHUNKS / THREADS; ++i) {
    const int c = i * THREADS + lid, r = c / (BN / 4), v = c % (BN / 4);
    CP_ASYNC16(bs + r * LDB + v * 4, B + (size_t)(kt * BK + r) * ldb_v + v);
  }
}

// Element (row, col) of A·B as a float32 loop over k (for the NaN case above).
inline float dot_fp32(__global const float* At, const int lda, __global const float* B, const int ldb,
                      const int row, const int col, const int K) {
  float s = 0.0f;
  for (int k = 0; k < K; ++k) s = fma(At[(size_t)k * lda + row], B[(size_t)k * ldb + col], s);
  return s;
}

__kernel __attribute__((reqd_work_group_size(THREADS, 1, 1)))
void xmma(const int M, const int N, const int K, const int Kp, float alpha, float beta,
          __global const float4* restrict A0, ulong a_off_v, const int lda_v, const ulong a_stride_v,
          __global const float4* restrict B0, ulong b_off_v, const int ldb_v, const ulong b_stride_v,
          __global float* restrict C0, ulong c_offset, const int ldc, const ulong c_stride, const int tiles_n,
          __global const float* restrict scalars, __global const ulong* restrict offsets) {
#if BATCHED
  // A batch in one launch: item get_group_id(1), its alpha, beta and offsets as common/batch.cl
  // chooses them; built only for batches, so that single calls keep every register.
  select_batch_item(get_group_id(1), &alpha, &beta, &a_off_v, &b_off_v, &c_offset, a_stride_v, b_stride_v, c_stride,
                    scalars, offsets);
#endif
  // float4 arrays: cp.async's 16-byte copies need 16-byte aligned destinations.
  __local float4 As4[STAGES][BK * LDA / 4];
  __local float4 Bs4[STAGES][BK * LDB / 4];
#define AS(s) ((__local float*)As4[s])
#define BS(s) ((__local float*)Bs4[s])

  const int lid = get_local_id(0);
  const int warp = lid / 32, lane = lid % 32, g = lane / 4, t = lane % 4;
  const int wm = (warp / WARPS_N) * WM, wn = (warp % WARPS_N) * WN;
  const int tile = get_group_id(0), tm = tile / tiles_n, tn = tile % tiles_n;

  __global const float4* A = A0 + a_off_v + tm * (BM / 4);
  __global const float4* B = B0 + b_off_v + tn * (BN / 4);
  const int ktiles = Kp / BK;

  float acc[MT][NT][4];
#if FK > 1
  float sum[MT][NT][4];  // what the MMA adds up between two float32 adds into acc
  int steps = 0;         // k8 steps in sum
#endif
#pragma unroll
  for (int i = 0; i < MT; ++i)
#pragma unroll
    for (int j = 0; j < NT; ++j)
#pragma unroll
      for (int e = 0; e < 4; ++e) {
        acc[i][j][e] = 0.0f;
#if FK > 1
        sum[i][j][e] = 0.0f;
#endif
      }

  // Fill the pipeline: tiles 0..STAGES-2, one commit group each (empty past the end, so that
  // every iteration finds the same number of groups in flight).
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

    __local const float* as = AS(kt % STAGES);
    __local const float* bs = BS(kt % STAGES);
#pragma unroll
    for (int kk = 0; kk < BK; kk += 8) {
      uint ahi[MT][4], bhi[NT][2];
#if TERMS == 3
      uint alo[MT][4], blo[NT][2];
#endif
#pragma unroll
      for (int i = 0; i < MT; ++i) {
        const int m = wm + i * 16 + g;
        const float x[4] = {as[(kk + t) * LDA + m], as[(kk + t) * LDA + m + 8], as[(kk + t + 4) * LDA + m],
                            as[(kk + t + 4) * LDA + m + 8]};
#pragma unroll
        for (int e = 0; e < 4; ++e) TF32_TERMS(x[e], ahi[i][e], alo[i][e]);
      }
#pragma unroll
      for (int j = 0; j < NT; ++j) {
        const int n = wn + j * 8 + g;
        const float y[2] = {bs[(kk + t) * LDB + n], bs[(kk + t + 4) * LDB + n]};
#pragma unroll
        for (int e = 0; e < 2; ++e) TF32_TERMS(y[e], bhi[j][e], blo[j][e]);
      }
#pragma unroll
      for (int i = 0; i < MT; ++i)
#pragma unroll
        for (int j = 0; j < NT; ++j) {
#if FK == 1
          float part[4];
#if TERMS == 3
          MMA0(part, alo[i], bhi[j]);
          MMA(part, ahi[i], blo[j]);
          MMA(part, ahi[i], bhi[j]);
#else
          MMA0(part, ahi[i], bhi[j]);
#endif
#pragma unroll
          for (int e = 0; e < 4; ++e) acc[i][j][e] += part[e];
#else
#if FK > 1
#define SUM sum
#else
#define SUM acc
#endif
#if TERMS == 3
          MMA(SUM[i][j], alo[i], bhi[j]);
          MMA(SUM[i][j], ahi[i], blo[j]);
#endif
          MMA(SUM[i][j], ahi[i], bhi[j]);
#undef SUM
#endif
        }
#if FK > 1
      if (++steps == FK) {
        steps = 0;
#pragma unroll
        for (int i = 0; i < MT; ++i)
#pragma unroll
          for (int j = 0; j < NT; ++j)
#pragma unroll
            for (int e = 0; e < 4; ++e) {
              acc[i][j][e] += sum[i][j][e];
              sum[i][j][e] = 0.0f;
            }
      }
#endif
    }
  }
#if FK > 1
#pragma unroll
  for (int i = 0; i < MT; ++i)
#pragma unroll
    for (int j = 0; j < NT; ++j)
#pragma unroll
      for (int e = 0; e < 4; ++e) acc[i][j][e] += sum[i][j][e];  // the last, partial group of steps
#endif
  CP_WAIT(0);

  // Lane 4g+t holds rows g and g+8, columns 2t and 2t+1 of each m16n8 tile.
  const int row0 = tm * BM + wm + g, col0 = tn * BN + wn + 2 * t;
#pragma unroll
  for (int i = 0; i < MT; ++i)
#pragma unroll
    for (int j = 0; j < NT; ++j)
#pragma unroll
      for (int e = 0; e < 4; ++e) {
        const int row = row0 + i * 16 + (e / 2) * 8, col = col0 + j * 8 + (e % 2);
        if (row < M && col < N) {
          float v = acc[i][j][e];
#if TERMS == 3
          if (isnan(v))
            v = dot_fp32((__global const float*)(A0 + a_off_v), lda_v * 4, (__global const float*)(B0 + b_off_v),
                         ldb_v * 4, row, col, K);
#endif
          __global float* c = C0 + c_offset + (size_t)row * ldc + col;
          const float r = (alpha == 0.0f) ? 0.0f : alpha * v;  // BLAS: alpha = 0 drops A·B
          *c = (beta == 0.0f) ? r : r + beta * *c;             // beta = 0 never reads C
        }
      }
}
