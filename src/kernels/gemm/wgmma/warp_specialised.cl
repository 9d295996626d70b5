// wgmma/warp_specialised.cl — the wgmma kernel with WS = 1: warpgroups of two roles, which meet
// only at mbarriers, and work-groups that stay resident and walk the tiles.
//
// The last warpgroup is the producer. One of its work-items starts each slice's TMA boxes into
// stage s once the stage's `empty` barrier says every consumer is done with what it held; the
// boxes complete on the stage's `full` barrier, which counts their bytes. The other BM/WM
// warpgroups are consumers: each waits on `full` for the slice, issues its wgmma, waits until
// only this slice's wgmma still run (so the previous slice's have read their stage), and frees
// that stage with one arrival per warp on its `empty` barrier. No barrier of the whole work-group
// stands in the main loop: the tensor cores always have the next slice's wgmma queued while the
// previous ones finish, and the copies run as far ahead as the stages allow.
//
// Work-group g computes tiles g, g + groups, g + 2·groups, ... of its batch item (the host
// launches about one work-group per SM and resident slot). The producer goes on into the next
// tile's slices while the consumers store the last one's, through an area of local memory of their
// own (WS_EPI_BYTES, config.cl), with barriers among each warpgroup's work-items alone.
//
// A slice's stage and phase follow from a count `it` of slices that both roles keep over all the
// work-group's tiles: stage it mod STAGES, used for the (it / STAGES)-th time. `full` of a stage
// completes its phases 0, 1, 2, ... as slices land; `empty` its phases as they are freed, so the
// producer's u-th refill of a stage (u ≥ 1) waits for empty's phase u − 1.
//
// setmaxnreg (markers.cl) moves registers from the producer, which needs few, to the consumers,
// whose accumulators are 64·BN/128 floats per block of 64 rows; the host gives the budget
// (CONSUMER_REGS, PRODUCER_REGS) and caps the kernel at one work-group per SM's registers at entry
// (.minnctapersm), without which ptxas ignores setmaxnreg.
#if WS

// An mbarrier in local memory expecting `count` arrivals per phase.
inline void bar_init(const uint bar, const uint count) {
  __asm__ volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(bar), "r"(count) : "memory");
}

// One arrival on the mbarrier at `bar` (release: this work-item's reads of the stage come first).
inline void bar_arrive(const uint bar) {
  __asm__ volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" :: "r"(bar) : "memory");
}

__kernel __attribute__((reqd_work_group_size(THREADS, 1, 1)))
void wgmma_gemm(const int M, const int N, const int K, float alpha, float beta,
                __global const in_raw* A, ulong a_offset, const int lda, const ulong a_stride,
                __global const in_raw* B, ulong b_offset, const int ldb, const ulong b_stride,
                __global out_t* C, ulong c_offset, const int ldc, const ulong c_stride, const int tiles_n,
                __global const real* scalars, __global const ulong* offsets,
                const tensor_map a_map, const tensor_map b_map, __global ulong* map_slots) {
  // Where the tensors start: item 0's A and B (3-D maps step through the items themselves).
  const ulong a_tensor = (ulong)(A + a_offset), b_tensor = (ulong)(B + b_offset);
  const int item = get_group_id(1);
#if BATCHED
  select_batch_item(item, &alpha, &beta, &a_offset, &b_offset, &c_offset, a_stride, b_stride, c_stride,
                    scalars, offsets);
#endif
  A += a_offset;
  B += b_offset;
  C += c_offset;
  const int tiles_m = (M + BM - 1) / BM, tiles = tiles_m * tiles_n;
  const int slices = (K + BK - 1) / BK;

  __local uint4 smem[LOCAL_BYTES / 16] __attribute__((aligned(1024)));
  __local ulong bars[2 * STAGES];  // full[s] at s, empty[s] at STAGES + s
  const uint base = (uint)(size_t)smem, full0 = (uint)(size_t)bars, empty0 = full0 + 8 * STAGES;
  const uint lid = get_local_id(0);
  const uint w = lid / 128;
  if (lid == 0) {
    for (int s = 0; s < STAGES; ++s) {
      bar_init(full0 + 8 * s, 1);                 // the producer's arrival with the byte count
      bar_init(empty0 + 8 * s, WARPGROUPS * 4);  // one per consumer warp
    }
    __asm__ volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  barrier(CLK_LOCAL_MEM_FENCE);

  if (w == WARPGROUPS) {
    SETMAXNREG_DEC();
    if (lid != WARPGROUPS * 128) return;
    __global ulong* maps = map_slots + 32 * ((size_t)item * get_num_groups(0) + get_group_id(0));
    ADOPT_MAPS(maps, a_map, b_map, a_tensor, b_tensor);
    uint it = 0;
    for (int tile = get_group_id(0); tile < tiles; tile += get_num_groups(0)) {
      int m0, n0;
      tile_origin(tile, tiles_m, tiles_n, &m0, &n0);
      for (int kt = 0; kt < slices; ++kt, ++it) {
        const uint s = it % STAGES, use = it / STAGES;
        if (use > 0) wait_phase(empty0 + 8 * s, (use - 1) & 1);
        load_slice_tma(base + s * STAGE_BYTES, full0 + 8 * s, maps, m0, n0, kt, item);
      }
    }
    return;
  }

  SETMAXNREG_INC();
  const uint a_rows = base + w * WM * ROW_BYTES;
  __local float* staged = (__local float*)(smem + STAGES * STAGE_BYTES / 16) + w * 64 * EPI_STRIDE;
  uint it = 0;
  for (int tile = get_group_id(0); tile < tiles; tile += get_num_groups(0)) {
    int m0, n0;
    tile_origin(tile, tiles_m, tiles_n, &m0, &n0);
    float acc0[NACC], acc1[NACC];  // acc1 unused where WM = 64
#pragma unroll
    for (int i = 0; i < NACC; ++i) acc0[i] = acc1[i] = 0.0f;
    for (int kt = 0; kt < slices; ++kt, ++it) {
      const uint s = it % STAGES, stage = s * STAGE_BYTES;
      wait_phase(full0 + 8 * s, (it / STAGES) & 1);
#if B_MN
      const ulong db = descriptor_mn(base + stage + A_BYTES);
#else
      const ulong db = descriptor(base + stage + A_BYTES);
#endif
      WGMMA_ISSUE(acc0, descriptor(a_rows + stage), db);
#if MT == 2
      WGMMA_ISSUE(acc1, descriptor(a_rows + stage + 64 * ROW_BYTES), db);
#endif
      // Only this slice's wgmma may still run (rule wgmma_wait: MT groups): the previous slice's
      // stage is free.
      WGMMA_WAIT(acc0);
#if MT == 2
      WGMMA_WAIT(acc1);
#endif
      if (kt > 0 && lid % 32 == 0) bar_arrive(empty0 + 8 * ((it - 1) % STAGES));
    }
    WGMMA_DRAIN(acc0);
#if MT == 2
    WGMMA_DRAIN(acc1);
#endif
    if (slices > 0 && lid % 32 == 0) bar_arrive(empty0 + 8 * ((it - 1) % STAGES));
    store_block(acc0, staged, C, ldc, M, N, m0 + w * WM, n0, lid, alpha, beta, A, lda, B, ldb, K);
#if MT == 2
    store_block(acc1, staged, C, ldc, M, N, m0 + w * WM + 64, n0, lid, alpha, beta, A, lda, B, ldb, K);
#endif
  }
}
#endif
