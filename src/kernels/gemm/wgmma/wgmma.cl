// wgmma.cl — C = alpha·A·B + beta·C on Hopper's tensor cores through wgmma (sm_90a), which
// NVIDIA's OpenCL compiler does not emit: the kernel leaves markers in inline-asm comments and the
// host patches the PTX (runtime/ptx_markers.hpp, kernels/gemm/wgmma/wgmma_kernel.cpp for the rules).
//
// A is K-major (M×K rows of lda elements); B is K-major too (N×K rows of ldb: Bᵀ, row-major) or,
// with B_MN, N-major (K×N rows: B as stored). Both stay in their 16-bit storage (f16, bf16), or
// are float32 read as TF32. Rows start on 16-byte boundaries, as cp.async and TMA need (the host
// reads the caller's rows in place only where they start on 128-byte lines, and packs the others:
// plan/wgmma_launch.cpp). Nothing else is assumed: rows past M or N and columns past K are read as
// zeros, and C is written only inside M×N.
//
// wgmma reads a 16-bit N-major B transposed from local memory. TF32 has no such mode, so a float32
// N-major B (B_REGS) goes through registers, which only wgmma's A operand may: the kernel computes
// Cᵀ = Bᵀ·Aᵀ, each warpgroup WM columns of the tile against all its BM rows, with Bᵀ's fragments
// loaded from the N-major slice and A's K-major slice as the descriptor operand, and writes its
// blocks transposed (store_block). It runs about 15 % slower than on a K-major B, but spares
// the copy of B into K-major rows, which costs more under 3072 rows of C (wgmma_launch.cpp);
// 3xTF32, which takes one operand through registers either way, runs about as fast with it.
//
// A work-group is BM/WM warpgroups of 128 work-items; warpgroup w computes rows [WM·w, WM·w + WM)
// of the BM×BN tile of C, WM/64 blocks of 64 rows, each with one wgmma m64nBNk(32 bytes of K)
// per 32 bytes of K. K goes in slices of BK through a STAGES-deep pipeline while the tensor cores
// work on the current slice. The copies are either cp.async, every work-item its share, or (TMA)
// the tensor memory accelerator's, one box per operand started by work-item 0 on tensor maps that
// the host encodes and each work-group completes with the tensors' addresses. TMA moves the
// same bytes with fewer requests, which pays because the loads set the pace: with the wgmma
// removed, the kernel takes as long as with them (H100, f16, 8192³ by TMA: 1.86 against 1.83 ms).
// TMA also writes zeros past the tensors' edges on its own.
//
// The stages are one static `__local` array, which NVIDIA's OpenCL lets grow to 227 KiB on sm_90
// (232,444 bytes; only `__local` arguments stop at 48 KiB: runtime/local_limits.hpp), so a tile of
// 128×256 holds four slices of 64 16-bit elements. This kernel waits at a barrier of the whole
// work-group for every slice, which large tiles pay for in idle tensor cores; the warp-specialised
// kernel of the same name (WS = 1, gemm/wgmma/warp_specialised.cl) takes the large products where
// TMA copies, and this one the rest: 128×128 tiles in three slices of 32, latency hidden by two
// work-groups on each SM as much as by the pipeline. WM = 128 gives one warpgroup two blocks of 64
// rows, for tiles of fewer work-items.
//
// Shared memory holds each slice as rows of BK elements (ROW_BYTES = 32, 64 or 128 bytes) in the
// swizzled layout wgmma's descriptors name: the 16-byte chunk c of row r sits at chunk
// c ^ ((r·ROW_BYTES / 128) mod CHUNKS) of its row, so that the 8 rows an instruction reads
// together fall in different banks. Descriptors advance by 32 bytes for each instruction along K
// inside a row; the hardware applies the swizzle to the address, which is why every tile starts
// on a 1024-byte boundary.
//
// The accumulators stay in registers from the first slice to the end: 64·BN / 128 floats per
// work-item for each block of 64 rows, in wgmma's fragment order (see store_block in
// wgmma/epilogue.cl).
//
// TERMS = 3 computes float32 products as 3xTF32. Each float x is split into hi = x with its low 13
// bits cleared (a TF32 number) and lo = x − hi (exact), which the tensor cores read as TF32:
// a_lo·b_hi + a_hi·b_lo + a_hi·b_hi carries x to about 2^-21 of itself. A's fragments go through
// registers: every k8 step each work-item loads its four elements of A from the slice and splits
// them itself (wgmma's register operand); with B_REGS, B's and A's roles here are swapped. B must
// come from local memory: once a slice has landed, its lo goes into a lo buffer (two in turn where
// two warpgroups share the tile), and x stays as hi, since the tensor cores ignore a float's low 13
// bits (H100: the same results, bit for bit, as with hi written out). Local memory's bandwidth
// binds here: the three products' reads of B alone take half of it at the tensor cores' full
// rate. Each k8 step's three products go into step
// accumulators from zero, small terms first, and the step's sum is added to the float32
// accumulators once the tensor cores are done: they add with truncation, a bias toward zero that
// grows with what the accumulator holds, so a sum kept there over all of K drifts (H100, 8192³: an
// error of 2.6e-6 of the products' magnitudes against 3e-8). An infinite input makes lo = ∞ − ∞ =
// NaN, and ∞·0 where the other operand's lo is 0, so an element that comes out NaN is computed
// again as a float32 dot product in the epilogue, which gives what float32 arithmetic gives (∞, or
// NaN where it too has one).
//
// The program is common/vectors.cl, common/batch.cl, common/cp_async.cl, common/device_fence.cl
// and these parts, in this order (the descriptor's sources, wgmma_kernel.cpp), then this file:
//   wgmma/config.cl     the parameters, their defaults, derived values, #error for combinations
//                       the kernel cannot build;
//   wgmma/markers.cl    the inline-asm markers the host patches into wgmma and setmaxnreg;
//   wgmma/schedule.cl   where each tile of C lies (bands of GROUP_M tile rows);
//   wgmma/staging.cl    the swizzled slices in local memory and their descriptors, the cp.async
//                       and TMA copies, 3xTF32's split;
//   wgmma/epilogue.cl   the accumulators into C through local memory;
//   wgmma/split.cl      split-K of the last round of tiles: the parts' sums in a workspace;
//   wgmma/warp_specialised.cl  the kernel with WS = 1, in place of this file's.

#if !WS  // the warp-specialised kernel of the same name: wgmma/warp_specialised.cl
__kernel __attribute__((reqd_work_group_size(THREADS, 1, 1)))
void wgmma_gemm(const int M, const int N, const int K, float alpha, float beta,
                __global const in_raw* A, ulong a_offset, const int lda, const ulong a_stride,
                __global const in_raw* B, ulong b_offset, const int ldb, const ulong b_stride,
                __global out_t* C, ulong c_offset, const int ldc, const ulong c_stride, const int tiles_n,
                __global const real* scalars, __global const ulong* offsets
#if TMA
                , const tensor_map a_map, const tensor_map b_map, __global ulong* map_slots
#endif
#if SPLITS > 1
                , const int full_tiles, __global float* ws, __global volatile int* counters
#endif
                ) {
#if TMA
  // Where the tensors start: item 0's A and B (3-D maps step through the items themselves).
  const ulong a_tensor = (ulong)(A + a_offset), b_tensor = (ulong)(B + b_offset);
#endif
#if BATCHED
  select_batch_item(get_group_id(1), &alpha, &beta, &a_offset, &b_offset, &c_offset, a_stride, b_stride, c_stride,
                    scalars, offsets);
#endif
  A += a_offset;
  B += b_offset;
  C += c_offset;

  const int tiles_m = (M + BM - 1) / BM;
#if SPLITS > 1
  // Past the whole tiles, SPLITS work-groups per tile, each a part of its slices (wgmma/split.cl).
  const int sk = (int)get_group_id(0) - full_tiles;
  const int tile = sk < 0 ? (int)get_group_id(0) : full_tiles + sk / SPLITS;
  const int part = sk < 0 ? -1 : sk % SPLITS;
#else
  const int tile = get_group_id(0);
#endif
  int m0, n0;
  tile_origin(tile, tiles_m, tiles_n, &m0, &n0);

  __local uint4 smem[LOCAL_BYTES / 16] __attribute__((aligned(1024)));
#if SPLITS > 1
  __local int last_part;  // whether this part adds up its tile's parts
#endif
  const uint base = (uint)(size_t)smem;
  const uint lid = get_local_id(0);
  const uint w = lid / 128;

  // One set of accumulators per block of 64 rows (acc1 unused where WM = 64).
  float acc0[NACC], acc1[NACC];
#pragma unroll
  for (int i = 0; i < NACC; ++i) acc0[i] = acc1[i] = 0.0f;
#if TERMS == 3
  // One k8 step's sums (3xTF32), each block's.
  float part0[NACC], part1[NACC];
#pragma unroll
  for (int i = 0; i < NACC; ++i) part0[i] = part1[i] = 0.0f;
#endif

  // Slice kt lives in stage kt mod STAGES; while it is multiplied, the AHEAD slices after it are
  // on their way. A stage is refilled once every warpgroup has finished the wgmma that read it:
  // with INFLIGHT = 0 each warpgroup waits for its wgmma before the next barrier; with 1 the
  // wgmma of a slice still runs while the next is issued, and a second barrier after the wait
  // for it comes before the refill. With TMA, work-item 0 starts each slice's copies, and the
  // stage's barrier (one arrival with the byte count, then the bytes) says when they have landed.
  // K's slices [first, first + slices): all of them, or a part's share.
#if SPLITS > 1
  const int all_slices = (K + BK - 1) / BK;
  const int first = part < 0 ? 0 : part * all_slices / SPLITS;
  const int slices = part < 0 ? all_slices : (part + 1) * all_slices / SPLITS - first;
#else
  const int first = 0, slices = (K + BK - 1) / BK;
#endif
#if TMA
  __local ulong bars[STAGES];
  const uint bar0 = (uint)(size_t)bars;
  const int item = get_group_id(1);
  __global ulong* maps = map_slots + 32 * ((size_t)item * get_num_groups(0) + get_group_id(0));
  if (lid == 0) {
    for (int s = 0; s < STAGES; ++s) __asm__ volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(bar0 + 8 * s) : "memory");
    __asm__ volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    ADOPT_MAPS(maps, a_map, b_map, a_tensor, b_tensor);
    for (int s = 0; s < AHEAD && s < slices; ++s) load_slice_tma(base + s * STAGE_BYTES, bar0 + 8 * s, maps, m0, n0, first + s, item);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
#else
#pragma unroll
  for (int s = 0; s < AHEAD; ++s) {
    if (s < slices) load_slice(base + s * STAGE_BYTES, A, lda, B, ldb, M, N, K, m0, n0, first + s, lid);
    CP_COMMIT();
  }
#endif
#if B_REGS && TERMS == 1
  uint4 f0[MMAS], f1[MMAS];  // Bᵀ's fragments of each block (f1 unused where WM = 64)
#endif
  const uint a_rows = base + w * WM * ROW_BYTES;
  for (int kt = 0; kt < slices; ++kt) {
    const int next = kt + AHEAD;  // into the stage of slice kt − 1
#if TMA
    // Slice kt has landed, and after the barrier every warpgroup is done with slice kt − 1.
    wait_phase(bar0 + 8 * (kt % STAGES), (kt / STAGES) & 1);
#if TERMS == 3
    split_lo(smem, (kt % STAGES) * STAGE_BYTES, STAGES * STAGE_BYTES + (kt % LO_BUFFERS) * LO_BYTES, lid);
    __asm__ volatile("fence.proxy.async.shared::cta;" ::: "memory");
#endif
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0 && next < slices)
      load_slice_tma(base + (next % STAGES) * STAGE_BYTES, bar0 + 8 * (next % STAGES), maps, m0, n0, first + next, item);
#else
    // This work-item's copies of slice kt have landed; the fence hands them from the generic
    // proxy to the async one that wgmma reads through, and the barrier waits for everyone's.
    CP_WAIT(AHEAD - 1);
#if TERMS == 3
    split_lo(smem, (kt % STAGES) * STAGE_BYTES, STAGES * STAGE_BYTES + (kt % LO_BUFFERS) * LO_BYTES, lid);
#endif
    __asm__ volatile("fence.proxy.async.shared::cta;" ::: "memory");
    barrier(CLK_LOCAL_MEM_FENCE);
#if INFLIGHT == 0
    if (next < slices) load_slice(base + (next % STAGES) * STAGE_BYTES, A, lda, B, ldb, M, N, K, m0, n0, first + next, lid);
    CP_COMMIT();
#endif
#endif
    const uint stage = (kt % STAGES) * STAGE_BYTES;
#if B_REGS && TERMS == 1
    // Bᵀ·Aᵀ: this warpgroup's columns of B as fragments, A's slice on a descriptor (all BM rows).
    b_fragments(f0, f1, smem, stage, w, lid);
    const ulong da = descriptor(base + stage);
    WGMMA_ISSUE_R(acc0, f0, da);
#if MT == 2
    WGMMA_ISSUE_R(acc1, f1, da);
#endif
    WGMMA_DRAIN_R(acc0, f0);
#if MT == 2
    WGMMA_DRAIN_R(acc1, f1);
#endif
#else
#if B_REGS
    const ulong db = descriptor(base + stage);  // A's slice: Bᵀ·Aᵀ's descriptor operand
#elif B_MN
    const ulong db = descriptor_mn(base + stage + A_BYTES);
#else
    const ulong db = descriptor(base + stage + A_BYTES);
#endif
#if TERMS == 3
    // The descriptor operand's lo buffer of this slice; its descriptors advance 32 bytes (2 units)
    // per k8 step. The register operand's fragments: this warpgroup's rows of A from smem's start,
    // or with B_REGS its columns of B.
    const ulong dbl = descriptor(base + STAGES * STAGE_BYTES + (kt % LO_BUFFERS) * LO_BYTES);
    const uint a_at = stage + w * WM * ROW_BYTES;
#pragma unroll
    for (int s = 0; s < MMAS; ++s) {
      uint4 hi0, lo0;
#if B_REGS
      split_tf32(b_fragment(smem, stage + A_BYTES, w * WM, s, lid), &hi0, &lo0);
#else
      split_tf32(a_fragment(smem, a_at, s, lid), &hi0, &lo0);
#endif
      WGMMA_ISSUE3(part0, lo0, hi0, db + 2 * s, dbl + 2 * s);
#if MT == 2
      // The second block is issued before the first one's sum is added.
      uint4 hi1, lo1;
#if B_REGS
      split_tf32(b_fragment(smem, stage + A_BYTES, w * WM + 64, s, lid), &hi1, &lo1);
#else
      split_tf32(a_fragment(smem, a_at + 64 * ROW_BYTES, s, lid), &hi1, &lo1);
#endif
      WGMMA_ISSUE3(part1, lo1, hi1, db + 2 * s, dbl + 2 * s);
      WGMMA_WAIT_ONE_A(part0, lo0, hi0);
      STEP_SUM(acc0, part0);
      WGMMA_DRAIN_A(part1, lo1, hi1);
      STEP_SUM(acc1, part1);
#else
      WGMMA_DRAIN_A(part0, lo0, hi0);
      STEP_SUM(acc0, part0);
#endif
    }
#else
    WGMMA_ISSUE(acc0, descriptor(a_rows + stage), db);
#if MT == 2
    WGMMA_ISSUE(acc1, descriptor(a_rows + stage + 64 * ROW_BYTES), db);
#endif
    WGMMA_WAIT(acc0);
#if MT == 2
    WGMMA_WAIT(acc1);
#endif
#endif
#endif
#if INFLIGHT == 1
    barrier(CLK_LOCAL_MEM_FENCE);
    if (next < slices) load_slice(base + (next % STAGES) * STAGE_BYTES, A, lda, B, ldb, M, N, K, m0, n0, first + next, lid);
    CP_COMMIT();
#endif
  }
  WGMMA_DRAIN(acc0);
#if MT == 2
  WGMMA_DRAIN(acc1);
#endif
#if SPLITS > 1
  if (part >= 0) {
    // This part into the workspace; a release fence, then the barrier, before it counts.
    const int r = sk / SPLITS, split_tiles = ((int)get_num_groups(0) - full_tiles) / SPLITS;
    const size_t at = (size_t)get_group_id(1) * split_tiles + r;  // this item's split tile r
    __global float* tile_ws = ws + at * SPLITS * PART_FLOATS;
    store_part(tile_ws + part * PART_FLOATS, acc0, acc1, lid);
    DEVICE_FENCE();
    barrier(CLK_GLOBAL_MEM_FENCE);
    if (lid == 0) {
      last_part = atomic_inc(counters + at) == SPLITS - 1;
      if (last_part) counters[at] = 0;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (!last_part) return;
    // The other parts' stores, visible to this one after its acquire fence.
    DEVICE_FENCE();
    sum_parts(tile_ws, acc0, 0, lid);
#if MT == 2
    sum_parts(tile_ws, acc1, 1, lid);
#endif
  }
#endif
  // Every warpgroup is done with the slices; their local memory now stages C.
  barrier(CLK_LOCAL_MEM_FENCE);
  __local float* staged = (__local float*)smem + w * PIECE_ROWS * PIECE_STRIDE;
#if B_REGS
  // The blocks are columns of C here: warpgroup w's are [n0 + WM·w, n0 + WM·w + WM).
  store_block(acc0, staged, C, ldc, M, N, m0, n0 + w * WM, lid, alpha, beta, A, lda, B, ldb, K);
#if MT == 2
  store_block(acc1, staged, C, ldc, M, N, m0, n0 + w * WM + 64, lid, alpha, beta, A, lda, B, ldb, K);
#endif
#else
  store_block(acc0, staged, C, ldc, M, N, m0 + w * WM, n0, lid, alpha, beta, A, lda, B, ldb, K);
#if MT == 2
  store_block(acc1, staged, C, ldc, M, N, m0 + w * WM + 64, n0, lid, alpha, beta, A, lda, B, ldb, K);
#endif
#endif
}
#endif
