// 06_register_blocking.cl — rung 6: each work-item computes a WPTM×WPTN block of C from
// fragments of A and B held in registers (2D register blocking).
//
// What changed from rung 5: every k-step becomes a full outer product between register
// fragments. A work-item loads WPTM values of A (its rows, at this k) and WPTN values of B (its
// columns, at this k), WIDTH at a time, and does all WPTM·WPTN multiply-adds between them. Rung 4
// did a small version of this (WPT × WIDTH) but fetched every A value with its own scalar load;
// rung 5 vectorised along K instead, which ties the block width to the vector width. To load
// both fragments as vectors, the A values of one k must be contiguous along M and the B values
// along N — the opposite of rung 5 — so this rung asks the launcher for At (A transposed, K×M;
// one device transpose pass, 2·M·K floats of traffic, under 1 % of the time at 4096³) and takes B
// as stored (K×N): a K-slice of either operand is one contiguous row, and both tiles are loaded
// by the same code. Tiles are rectangular (TSM×TSK of A, TSK×TSN of B), so tile sides and the
// per-work-item block are tuned independently.
//
// Why it should be faster: per k-step a work-item does WPTM·WPTN FMAs for (WPTM + WPTN)/WIDTH
// local vector loads: with 8×8 and float4 that is 64 FMAs for 4 loads (rung 5: 32 FMAs for 3
// loads per k). Local memory stops being the bottleneck; arithmetic is. Each element brought from
// global memory is used TSM (or TSN) times, so a 128×128 tile needs 1/64 of a load per FMA.
//
// Work-item layout (work-group RTSN × RTSM = TSN/WPTN × TSM/WPTM): the block of work-item
// (tx, ty) is not a dense square. Its WPTN columns are WPTN/WIDTH vectors, vector h being vector
// column h·RTSN + tx of the tile; its rows likewise, rows (g·RTSM + ty)·WIDTH + v. With the
// defaults: columns 4tx..4tx+3 and 64+4tx..64+4tx+3, rows the same with ty. So:
//   - in a k-step the 16 work-items of a row read 16 consecutive float4 of Bs[k] (256 contiguous
//     bytes: conflict-free, the minimum two wavefronts), and the two rows of work-items in a warp
//     read two adjacent float4 of As[k] (broadcast, one wavefront);
//   - C is stored as float4, 16 work-items writing 256 contiguous bytes per row: coalesced.
// A dense 8-wide block (columns 8tx..8tx+7) would put neighbouring work-items' float4 loads 32
// bytes apart: each load instruction would span twice the bytes, a 2-way bank conflict on every B
// fragment load, and C stores would be half-used 32-byte pieces.
//
// Local memory: As[TSK][TSM/WIDTH] and Bs[TSK][TSN/WIDTH] in vectors. No padding: every access —
// global-to-local stores (consecutive work-items, consecutive vectors of one row) and the fragment
// reads above — touches consecutive vectors of a single row, which no padding could improve.
// Default footprint 2·16·128·4 = 16 KiB; several work-groups fit on an SM.
//
// Registers (defaults): 64 accumulators + 8 A + 8 B fragment values + addresses, about 100 per
// work-item, below the 128 that lets two 256-item work-groups share an SM's 64K registers.
// Every array is indexed only inside fully unrolled loops, so none of it spills to memory.
//
// Global loads: WIDTH floats at a time through vector-typed pointers (see rung 4); consecutive
// work-items read consecutive vectors of one row of At or B (coalesced).
//
// Sizes: M multiple of TSM, N of TSN, K of TSK (the launcher pads with zeros); no guards.

#ifndef TSM
#define TSM 128    // tile height: rows of C (and of the At tile) per work-group
#endif
#ifndef TSN
#define TSN 128    // tile width: columns of C (and of the B tile) per work-group
#endif
#ifndef TSK
#define TSK 16     // tile depth: the K-slice staged in local memory per step
#endif
#ifndef WPTM
#define WPTM 8     // rows of C per work-item
#endif
#ifndef WPTN
#define WPTN 8     // columns of C per work-item
#endif
#ifndef WIDTH
#define WIDTH 4    // vector width of global loads, local fragment reads and C stores (1,2,4,8)
#endif

#if WIDTH != 1 && WIDTH != 2 && WIDTH != 4 && WIDTH != 8
#error "WIDTH must be 1, 2, 4 or 8"
#endif
#if WPTM % WIDTH != 0 || WPTN % WIDTH != 0
#error "WPTM and WPTN must be multiples of WIDTH"
#endif
#if TSM % WPTM != 0 || TSN % WPTN != 0
#error "TSM must be a multiple of WPTM and TSN a multiple of WPTN"
#endif
#define RTSM (TSM / WPTM)        // work-group height (work-items along M)
#define RTSN (TSN / WPTN)        // work-group width (work-items along N)
#define WG (RTSM * RTSN)         // work-items per work-group
#define TSMV (TSM / WIDTH)       // vectors per row of the At tile
#define TSNV (TSN / WIDTH)       // vectors per row of the B tile
#if (TSK * TSMV) % WG != 0 || (TSK * TSNV) % WG != 0
#error "each tile must split evenly over the work-group: TSK*TSM/WIDTH and TSK*TSN/WIDTH multiples of the work-items"
#endif
#define LPTA (TSK * TSMV / WG)   // vectors of the At tile each work-item loads
#define LPTB (TSK * TSNV / WG)   // vectors of the B tile each work-item loads

typedef VECTOR(WIDTH) floatW;  // common/vectors.cl
#define component LANE(WIDTH)  // lane v of a floatW (common/vectors.cl)

__kernel __attribute__((reqd_work_group_size(RTSN, RTSM, 1)))
void gemm_register_blocking(const int M, const int N, const int K,
                            __global const float* restrict At, __global const float* restrict B,
                            __global float* restrict C) {
  const int tx = get_local_id(0), ty = get_local_id(1);
  const int lid = ty * RTSN + tx;
  const int MV = M / WIDTH, NV = N / WIDTH;  // row lengths of At (K×M), B and C (·×N) in vectors
  const int m0v = get_group_id(1) * TSMV;     // tile origin, in vectors
  const int n0v = get_group_id(0) * TSNV;
  __global const floatW* restrict Atv = (__global const floatW*)At;
  __global const floatW* restrict Bv = (__global const floatW*)B;
  __global floatW* restrict Cv = (__global floatW*)C;

  __local floatW As[TSK][TSMV];  // As[k][m]: the At tile, one K-slice per row
  __local floatW Bs[TSK][TSNV];  // Bs[k][n]

  // Where this work-item's tile loads come from (offsets for the first tile; later tiles are
  // t rows further down) and go to. Work-item lid takes vectors lid, lid + WG, ... of the tile,
  // counted row by row: vector id is row id / TSMV, column id % TSMV of the tile. The stores
  // take the row and column apart (shifts, for the powers of two the tiles are): a flat index
  // into the first row would run past that row, which Oclgrind reports as out of bounds.
  int a_src[LPTA], a_dst[LPTA];
#pragma unroll
  for (int l = 0; l < LPTA; ++l) {
    const int id = l * WG + lid;
    a_src[l] = (id / TSMV) * MV + m0v + id % TSMV;
    a_dst[l] = id;
  }
  int b_src[LPTB], b_dst[LPTB];
#pragma unroll
  for (int l = 0; l < LPTB; ++l) {
    const int id = l * WG + lid;
    b_src[l] = (id / TSNV) * NV + n0v + id % TSNV;
    b_dst[l] = id;
  }

  floatW acc[WPTM][WPTN / WIDTH];
#pragma unroll
  for (int i = 0; i < WPTM; ++i)
#pragma unroll
    for (int h = 0; h < WPTN / WIDTH; ++h) acc[i][h] = (floatW)(0.0f);

  for (int t = 0; t < K; t += TSK) {
#pragma unroll
    for (int l = 0; l < LPTA; ++l) As[a_dst[l] / TSMV][a_dst[l] % TSMV] = Atv[a_src[l] + t * MV];
#pragma unroll
    for (int l = 0; l < LPTB; ++l) Bs[b_dst[l] / TSNV][b_dst[l] % TSNV] = Bv[b_src[l] + t * NV];
    barrier(CLK_LOCAL_MEM_FENCE);

#pragma unroll
    for (int k = 0; k < TSK; ++k) {
      // Fragments: WPTM values of A (unpacked to scalars, each multiplies a whole B vector) and
      // WPTN values of B (kept as vectors).
      float a[WPTM];
#pragma unroll
      for (int g = 0; g < WPTM / WIDTH; ++g) {
        const floatW part = As[k][g * RTSM + ty];
#pragma unroll
        for (int v = 0; v < WIDTH; ++v) a[g * WIDTH + v] = component(part, v);
      }
      floatW b[WPTN / WIDTH];
#pragma unroll
      for (int h = 0; h < WPTN / WIDTH; ++h) b[h] = Bs[k][h * RTSN + tx];
      // The outer product: WPTM·WPTN multiply-adds, all operands in registers.
#pragma unroll
      for (int i = 0; i < WPTM; ++i)
#pragma unroll
        for (int h = 0; h < WPTN / WIDTH; ++h) acc[i][h] += a[i] * b[h];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }

#pragma unroll
  for (int g = 0; g < WPTM / WIDTH; ++g)
#pragma unroll
    for (int v = 0; v < WIDTH; ++v) {
      const int row = (get_group_id(1) * TSMV + g * RTSM + ty) * WIDTH + v;
#pragma unroll
      for (int h = 0; h < WPTN / WIDTH; ++h) Cv[row * NV + n0v + h * RTSN + tx] = acc[g * WIDTH + v][h];
    }
}
