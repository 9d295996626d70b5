// 07_double_buffered.cl — rung 7: rung 6 with double-buffered tiles: the next tile is fetched
// from global memory while the current one is multiplied.
//
// What changed from rung 6: local memory holds two copies of each tile (ping-pong buffers). In
// step t the work-items first issue the global loads of tile t+1 into registers, then multiply
// tile t out of one buffer, then store the registers into the other buffer, then meet at ONE
// barrier. Rung 6 needed two barriers per tile (tile loaded → multiply → everyone done → next
// load) and its loads stalled every warp right before a barrier.
//
// Why it should be faster: the latency of the global loads (hundreds of cycles from L2 or DRAM)
// is hidden behind the WPTM·WPTN·TSK multiply-adds of the current tile instead of being exposed
// once per tile; and half the barriers are gone, so warps of a work-group wait for each other
// half as often. The price: a second pair of tile buffers (twice the local memory) and LPTA+LPTB
// vectors of prefetch registers (16 floats with the defaults).
//
// Why one barrier is enough: buffer b is written in step t (with tile t+1) only after the barrier
// that ends step t-1, by which time every work-item has finished multiplying out of it (it held
// tile t-1); and it is read in step t+1 only after the barrier that ends step t, by which time
// every work-item has stored its part of tile t+1.
//
// Everything else — work-item layout, fragments, bank behaviour, vector loads — is rung 6's: see
// 06_register_blocking.cl. Default footprint: 2·2·16·128·4 = 32 KiB of local memory; registers
// about 16 more than rung 6 (still aiming at ≤ 128 for two 256-item work-groups per SM).
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
void gemm_double_buffered(const int M, const int N, const int K,
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

  __local floatW As[2][TSK][TSMV];  // two buffers of As[k][m]
  __local floatW Bs[2][TSK][TSNV];

  // Where this work-item's tile loads come from and go to, as in rung 6; offsets inside one
  // buffer, in vectors.
  int a_src[LPTA], a_dst[LPTA];
#pragma unroll
  for (int l = 0; l < LPTA; ++l) {
    const int id = l * WG + lid;
    a_src[l] = (id / TSMV) * MV + m0v + id % TSMV;
    a_dst[l] = id;  // row id / TSMV, column id % TSMV of a TSK×TSMV buffer
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

  // The prefetch registers: one tile's worth of this work-item's loads.
  floatW ra[LPTA], rb[LPTB];

  // Prologue: tile 0 into buffer 0.
#pragma unroll
  for (int l = 0; l < LPTA; ++l) As[0][a_dst[l] / TSMV][a_dst[l] % TSMV] = Atv[a_src[l]];
#pragma unroll
  for (int l = 0; l < LPTB; ++l) Bs[0][b_dst[l] / TSNV][b_dst[l] % TSNV] = Bv[b_src[l]];
  barrier(CLK_LOCAL_MEM_FENCE);

  int buf = 0;
  for (int t = 0; t < K; t += TSK) {
    const bool more = t + TSK < K;  // the same for the whole work-group
    // 1. Issue the loads of tile t+1; nothing waits for them until step 3.
    if (more) {
#pragma unroll
      for (int l = 0; l < LPTA; ++l) ra[l] = Atv[a_src[l] + (t + TSK) * MV];
#pragma unroll
      for (int l = 0; l < LPTB; ++l) rb[l] = Bv[b_src[l] + (t + TSK) * NV];
    }

    // 2. Multiply tile t (buffer buf), exactly as rung 6.
#pragma unroll
    for (int k = 0; k < TSK; ++k) {
      float a[WPTM];
#pragma unroll
      for (int g = 0; g < WPTM / WIDTH; ++g) {
        const floatW part = As[buf][k][g * RTSM + ty];
#pragma unroll
        for (int v = 0; v < WIDTH; ++v) a[g * WIDTH + v] = component(part, v);
      }
      floatW b[WPTN / WIDTH];
#pragma unroll
      for (int h = 0; h < WPTN / WIDTH; ++h) b[h] = Bs[buf][k][h * RTSN + tx];
#pragma unroll
      for (int i = 0; i < WPTM; ++i)
#pragma unroll
        for (int h = 0; h < WPTN / WIDTH; ++h) acc[i][h] += a[i] * b[h];
    }

    // 3. Store tile t+1 into the other buffer; one barrier publishes it and retires buffer buf.
    if (more) {
#pragma unroll
      for (int l = 0; l < LPTA; ++l) As[buf ^ 1][a_dst[l] / TSMV][a_dst[l] % TSMV] = ra[l];
#pragma unroll
      for (int l = 0; l < LPTB; ++l) Bs[buf ^ 1][b_dst[l] / TSNV][b_dst[l] % TSNV] = rb[l];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    buf ^= 1;
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
