// 08_async_copy.cl — rung 8: the local tiles are filled by async_work_group_copy, double-buffered,
// instead of by explicit loads and stores of the work-items.
//
// What changed from rung 7: no work-item moves tile data itself. The operands arrive packed in
// panels as wide as the tiles (the launcher's preparation pass lays At out as M/TSM panels of
// K×TSM and B as N/TSN panels of K×TSN), so the TSK×TSM tile of At and the TSK×TSN tile of B that
// a step needs are each ONE contiguous block: two async_work_group_copy calls per tile, chained
// on one event, and wait_group_events only when the tile is about to be multiplied. As in rung 7,
// the copy of tile t+1 goes into the other buffer while tile t is multiplied; one barrier per tile.
//
// Why it might be faster: the prefetch registers of rung 7 are gone (fewer registers, possibly
// more work-groups per SM), and the implementation is free to move the data the best way the
// hardware has — a DMA engine, or asynchronous global→shared copies that bypass registers.
// Whether it IS faster depends entirely on the OpenCL implementation: one that runs each copy as
// a plain loop over the work-items followed by a barrier (NVIDIA's does) is no better than rung
// 6. The first versions of this rung ran at under 6 TFLOP/s on an H200 (rung 6: 45), first with
// 2·TSK row copies per tile, then with panel packing; the PTX showed why (see the note at the
// kernel): the copy loop used only the x dimension of a 2D work-group. Measure, and read what the
// compiler made of a built-in (docs/ladder.md has the numbers).
//
// Rules the built-ins impose: every work-item of the group must reach each async_work_group_copy
// and wait_group_events with the same arguments — all arguments here depend only on the group
// and the loop counter, and the one condition around a copy (is there a next tile?) is the same
// for the whole group. wait_group_events says the copies are complete; the barrier after it also
// retires the buffer that the next copy will overwrite (everyone has finished multiplying it).
//
// Everything else — work-item layout, fragments, bank behaviour, vector loads — is rung 6's: see
// 06_register_blocking.cl. The copies write whole rows of the unpadded tiles. Default footprint:
// 2·2·16·128·4 = 32 KiB of local memory.
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
#define TSMV (TSM / WIDTH)       // vectors per row of the At tile
#define TSNV (TSN / WIDTH)       // vectors per row of the B tile

typedef VECTOR(WIDTH) floatW;  // common/vectors.cl
#define component LANE(WIDTH)  // lane v of a floatW (common/vectors.cl)

// Starts the copies of the tile that begins at row t of the At and B panels into one pair of
// buffers: each tile is one contiguous block, so two copies chained on one event.
event_t copy_tile(__local floatW* As, __local floatW* Bs, __global const floatW* At_panel,
                  __global const floatW* B_panel, const int t) {
  const event_t ev = async_work_group_copy(As, At_panel + t * TSMV, TSK * TSMV, 0);
  return async_work_group_copy(Bs, B_panel + t * TSNV, TSK * TSNV, ev);
}

// The work-group is one-dimensional (RTSN·RTSM work-items along x) and each work-item derives its
// 2D position from its flat id. The reason is in NVIDIA's PTX for async_work_group_copy: a copy
// loop over get_local_id(0) with stride get_local_size(0), then a barrier — the y dimension is
// ignored, so with a 16×16 group all 16 rows of work-items copied the same elements (16× the
// loads). The OpenCL spec leaves the distribution to the implementation; a flat group makes every
// implementation spread the copy over all work-items.
__kernel __attribute__((reqd_work_group_size(RTSN * RTSM, 1, 1)))
void gemm_async_copy(const int M, const int N, const int K,
                     __global const float* restrict At, __global const float* restrict B,
                     __global float* restrict C) {
  const int tx = get_local_id(0) % RTSN, ty = get_local_id(0) / RTSN;
  const int NV = N / WIDTH;                // row length of C in vectors
  const int n0v = get_group_id(0) * TSNV;  // first column of this group's C tile, in vectors
  // This group's panels: panel g of At holds columns [g·TSM, (g+1)·TSM) of At for all K rows,
  // stored as K rows of TSM contiguous floats; likewise for B.
  __global const floatW* At_panel = (__global const floatW*)At + (size_t)get_group_id(1) * K * TSMV;
  __global const floatW* B_panel = (__global const floatW*)B + (size_t)get_group_id(0) * K * TSNV;
  __global floatW* restrict Cv = (__global floatW*)C;

  __local floatW As[2][TSK][TSMV];  // two buffers of As[k][m]
  __local floatW Bs[2][TSK][TSNV];

  floatW acc[WPTM][WPTN / WIDTH];
#pragma unroll
  for (int i = 0; i < WPTM; ++i)
#pragma unroll
    for (int h = 0; h < WPTN / WIDTH; ++h) acc[i][h] = (floatW)(0.0f);

  // Prologue: start tile 0 into buffer 0.
  event_t ev = copy_tile(&As[0][0][0], &Bs[0][0][0], At_panel, B_panel, 0);

  int buf = 0;
  for (int t = 0; t < K; t += TSK) {
    // Tile t has arrived; after the barrier everyone sees it, and everyone has finished with
    // buffer buf ^ 1 (tile t-1), so it may be overwritten.
    wait_group_events(1, &ev);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (t + TSK < K)  // the same for the whole work-group
      ev = copy_tile(&As[buf ^ 1][0][0], &Bs[buf ^ 1][0][0], At_panel, B_panel, t + TSK);

    // Multiply tile t (buffer buf), exactly as rung 6, while tile t+1 is on its way.
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
