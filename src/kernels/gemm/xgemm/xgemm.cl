// xgemm.cl — the tunable production kernel: C = alpha·A·B + beta·C for the packed path.
//
// It grows out of ladder rung 6 (2D register blocking) with every design choice turned into a
// parameter that the tuner searches (src/tune/) instead of a constant, and written in `real`
// (common/vectors.cl: the precision and its arithmetic). The program is common/vectors.cl,
// common/batch.cl and these parts, in this order (the descriptor's sources, xgemm_kernel.cpp),
// then this file:
//   xgemm/config.cl     the parameters, their defaults and meaning, derived values, #error for
//                       combinations the kernel cannot build;
//   xgemm/staging.cl    the local tiles and how tiles reach them: plain loads, double buffering,
//                       the cp.async pipeline; guarded reads of each operand form;
//   xgemm/multiply.cl   the fragments of a k-step and their multiply-adds; the rotated K loop's steps;
//   xgemm/schedule.cl   which tile and K range a group computes: plain, split-K, stream-K, or a
//                       grouped call's problem and tile;
//   xgemm/epilogue.cl   the slices' sums, alpha and beta, the stores into C, split-K's partial tiles.
// Each part defines macros that this kernel uses in the order below, with a variant per
// configuration (#if in the part, none here but the K loop's two shapes).

// The arguments: the call's (shape, scalars, operands, split-K's workspace, a batch's arrays), or
// for a grouped call the work list its problems come from (GROUPED_PROBLEM, schedule.cl).
#if GROUPED
#define XGEMM_ARGS \
  const int problems, __global const ulong* restrict work, __global const real* restrict scalars, \
      __global const a_t* restrict A0, __global const b_t* restrict B0, __global out_t* restrict C0
#else
#define XGEMM_ARGS \
  const int M, const int N, const int K, const int Kp, real alpha, real beta, \
      __global const a_t* restrict A0, ulong a_off_v, const int lda_v, const ulong a_stride_v, \
      __global const b_t* restrict B0, ulong b_off_v, const int ldb_v, const ulong b_stride_v, \
      __global out_t* restrict C0, ulong c_offset, const int ldc, const ulong c_stride, \
      const int tiles_n, const int full_tiles, const int split_tiles, const int sk_groups, \
      __global realN* restrict ws, __global int* restrict counters, \
      __global const real* restrict scalars, __global const ulong* restrict offsets
#define GROUPED_PROBLEM
#endif

__kernel __attribute__((reqd_work_group_size(NDIMC, MDIMC, KSLICE)))
void xgemm(XGEMM_ARGS) {
  GROUPED_PROBLEM  // schedule.cl: a grouped call's problem (M, N, K, operands, alpha, beta) and tile
#if BATCHED
  // A batch in one launch: item get_group_id(2) (the groups' slices run along that dimension too),
  // its alpha, beta and offsets as common/batch.cl chooses them; with split-K, its own workspace
  // and counts. Built only for batches: in the 128×128 kernel, which has no register to spare,
  // the item's bookkeeping cost single calls 7 % (H100, 4096³ to 8192³).
  const int item = get_group_id(2);
  select_batch_item(item, &alpha, &beta, &a_off_v, &b_off_v, &c_offset, a_stride_v, b_stride_v, c_stride, scalars,
                    offsets);
  ws += (size_t)item * split_tiles * SPLITS * (MWG * NWG / VWN);
  counters += (size_t)item * split_tiles;
#endif
  const int lid2 = get_local_id(1) * NDIMC + get_local_id(0);  // place in the slice
#if KSLICE > 1
  const int slice = get_local_id(2);
#else
  const int slice = 0;  // a constant, so that the one-slice kernel computes nothing for it
#endif
  const int lid = slice * WIS + lid2;  // loads are spread by lid
#if WX
  // Warp w (lanes lid2/32) takes the patch of work-items at row (w / warps per row) * 32/WX and
  // column (w % warps per row) * WX; lane l sits at (l / WX, l % WX) inside it.
  const int warp = lid2 / 32, lane = lid2 % 32;
  const int ty = (warp / (NDIMC / WX)) * (32 / WX) + lane / WX;
  const int tx = (warp % (NDIMC / WX)) * WX + lane % WX;
#else
  const int tx = get_local_id(0), ty = get_local_id(1);
#endif
  LOCAL_TILES    // staging.cl: As, Bs (with KSLICE, in a union with the slices' sums)
  SEGMENT_STATE  // schedule.cl: the split tiles' bookkeeping, in local memory

  FOR_EACH_SEGMENT {
    SEGMENT  // schedule.cl: tile origin m0v, n0v (in vectors) and K range [k_begin, k_end)
    const int MVn = M / VWM, NVn = N / VWN;  // whole vectors in a row (guards)
    A_ORIGIN  // staging.cl: At and B at the tile's origin
    B_ORIGIN
    const int m_left = M - m0v * VWM, n_left = N - n0v * VWN;  // rows / columns of C left from here

    realN acc[MWI][NWIV];
#pragma unroll
    for (int i = 0; i < MWI; ++i)
#pragma unroll
      for (int h = 0; h < NWIV; ++h) acc[i][h] = (realN)(ZERO);

    PROLOGUE  // staging.cl: the first tiles on their way
    int buf = 0;
#if ROTATED
    // multiply.cl: each k-step's fragments loaded while the one before is multiplied, across the
    // barrier too; the last tile peeled off.
    real a0[MWI], a1[MWI];
    realN b0[NWIV], b1[NWIV];
    if (k_begin < k_end) {  // the same for the whole group: the first tile's wait and barrier
      buf = PREV_BUF(0);    // tile k_begin + (ASYNC-1)·KWG goes into the last buffer
      NEXT_TILE(k_begin + (ASYNC - 1) * KWG)
      buf = 0;
    }
    int t = k_begin;
    for (; t + KWG < k_end; t += KWG) {
      KSTEPS_BUT_LAST()
      NEXT_TILE(t + ASYNC * KWG)  // into the buffer of tile t, which every work-item has read
      MULTIPLY(a1, b1)
      buf = NEXT_BUF(buf);
    }
    if (t < k_end) {
      KSTEPS_BUT_LAST()
      MULTIPLY(a1, b1)
    }
#else
    for (int t = k_begin; t < k_end; t += KWG) {
      TILE_ARRIVES(t)  // staging.cl: tile t in buffer buf, the next ones on their way
      MULTIPLY_TILE    // multiply.cl: this slice's k-steps of it
      TILE_DONE        // staging.cl
    }
#endif

    SUM_SLICES  // epilogue.cl: slice 0 adds the other slices' sums
    __global out_t* restrict C = C0 + c_offset;
    STORE_TILE  // epilogue.cl: alpha and beta, guarded stores into C (or the split-K workspace)
  }
}
