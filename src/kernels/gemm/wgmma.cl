// wgmma.cl — C = alpha·A·B + beta·C on Hopper's tensor cores through wgmma (sm_90a), which
// NVIDIA's OpenCL compiler does not emit: the kernel leaves markers in inline-asm comments and the
// host patches the PTX (runtime/ptx_markers.hpp, kernels/gemm/wgmma_kernel.cpp for the rules).
//
// A is K-major (M×K rows of lda elements); B is K-major too (N×K rows of ldb: Bᵀ, row-major) or,
// with B_MN and 16-bit inputs, N-major (K×N rows: B as stored), which wgmma reads transposed.
// Both stay in their 16-bit storage (f16, bf16), or are float32 read as TF32. Rows start on
// 16-byte boundaries, as cp.async and TMA need (the host
// reads the caller's rows in place only where they start on 128-byte lines, and packs the others:
// plan/wgmma_launch.cpp). Nothing else is assumed: rows past M or N and columns past K are read as
// zeros, and C is written only inside M×N.
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
// Local memory binds everything here: NVIDIA's OpenCL gives a work-group at most 48 KiB, static or
// dynamic (an H100 refused a launch with 48 KiB of dynamic local memory), so a tile of 128×128
// holds 3 slices of 32 16-bit elements, and latency is hidden by two work-groups on each SM as
// much as by the pipeline. WM = 128 gives one warpgroup two blocks of 64 rows, for tiles of fewer
// work-items.
//
// Shared memory holds each slice as rows of BK elements (ROW_BYTES = 32, 64 or 128 bytes) in the
// swizzled layout wgmma's descriptors name: the 16-byte chunk c of row r sits at chunk
// c ^ ((r·ROW_BYTES / 128) mod CHUNKS) of its row, so that the 8 rows an instruction reads
// together fall in different banks. Descriptors advance by 32 bytes for each instruction along K
// inside a row; the hardware applies the swizzle to the address, which is why every tile starts
// on a 1024-byte boundary.
//
// The accumulators stay in registers from the first slice to the end: 64·BN / 128 floats per
// work-item for each block of 64 rows, in wgmma's fragment order (see store_block).
//
// TERMS = 3 computes float32 products as 3xTF32. Each float x is split into hi = x with its low 13
// bits cleared (a TF32 number) and lo = x − hi (exact), which the tensor cores read as TF32:
// a_lo·b_hi + a_hi·b_lo + a_hi·b_hi carries x to about 2^-21 of itself. A's fragments go through
// registers: every k8 step each work-item loads its four elements of A from the slice and splits
// them itself (wgmma's register operand). B must come from local memory: once a slice has landed,
// its lo goes into a lo buffer (two in turn where two warpgroups share the tile), and x stays as
// hi, since the tensor cores ignore a float's low 13 bits (H100: the same results, bit for bit, as
// with hi written out). Local memory's bandwidth binds here: the three products' reads of B alone
// take half of it at the tensor cores' full rate. Each k8 step's three products go into step
// accumulators from zero, small terms first, and the step's sum is added to the float32
// accumulators once the tensor cores are done: they add with truncation, a bias toward zero that
// grows with what the accumulator holds, so a sum kept there over all of K drifts (H100, 8192³: an
// error of 2.6e-6 of the products' magnitudes against 3e-8). An infinite input makes lo = ∞ − ∞ =
// NaN, and ∞·0 where the other operand's lo is 0, so an element that comes out NaN is computed
// again as a float32 dot product in the epilogue, which gives what float32 arithmetic gives (∞, or
// NaN where it too has one).

#ifndef BATCHED
#define BATCHED 0   // set by the host for a batch of more than one item, or one given by arrays
#endif
#ifndef BM
#define BM 128      // rows of C per work-group
#endif
#ifndef WM
#define WM 64       // rows of C per warpgroup: 64 or 128
#endif
#ifndef BN
#define BN 128      // columns of C per work-group: the N of every wgmma (64, 128 or 256)
#endif
#ifndef BK
#define BK 32       // K-depth of one pipeline slice, in elements (32, 64 or 128 bytes of a row)
#endif
#ifndef STAGES
#define STAGES 3    // slices in the cp.async pipeline
#endif
#ifndef INFLIGHT
#define INFLIGHT 0  // 1: a slice's wgmma may still run while the next one is issued
#endif
#ifndef GROUP_M
#define GROUP_M 8   // tiles of C in a band of rows walked column by column (reuse in L2)
#endif
#ifndef TMA
#define TMA 0       // 1: slices come by the tensor memory accelerator, through tensor maps
#endif
#ifndef B_MN
#define B_MN 0      // 1: B comes as K×N rows of ldb (row-major, as stored), staged N-major (16-bit only)
#endif
#ifndef TERMS
#define TERMS 1     // tensor-core products per float32 product: 1, or 3 (3xTF32, float32 inputs)
#endif

#if IN_STORAGE == STORAGE_F16 || IN_STORAGE == STORAGE_BF16
#define ELEM 2
typedef ushort in_raw;
#elif IN_STORAGE == STORAGE_F32
#define ELEM 4
typedef uint in_raw;
#else
#error "wgmma takes f16, bf16 or float32 (as TF32) inputs"
#endif

#define WARPGROUPS (BM / WM)
#define MT (WM / 64)                              // blocks of 64 rows per warpgroup
#define THREADS (WARPGROUPS * 128)
#define ROW_BYTES (BK * ELEM)
#define CHUNKS (ROW_BYTES / 16)                   // 16-byte chunks per row
#define CHUNK_ELEMS (16 / ELEM)
#define MMAS (ROW_BYTES / 32)                     // wgmma per slice
#define A_BYTES (BM * ROW_BYTES)
#define STAGE_BYTES ((BM + BN) * ROW_BYTES)
#define NACC (BN / 2)                             // accumulators per work-item
#define COPIES (((BM + BN) * CHUNKS) / THREADS)   // 16-byte copies per work-item per slice

#if (WM != 64 && WM != 128) || BM % WM || BM / WM > 2
#error "WM is 64 or 128, and BM one or two times WM"
#endif
#if BN != 64 && BN != 128 && BN != 256
#error "BN is 64, 128 or 256"
#endif
#if ROW_BYTES != 32 && ROW_BYTES != 64 && ROW_BYTES != 128
#error "a slice's rows are 32, 64 or 128 bytes (BK of 16, 32 or 64 16-bit elements, 8, 16 or 32 floats)"
#endif
#if INFLIGHT != 0 && INFLIGHT != 1
#error "INFLIGHT is 0 or 1"
#endif
#if STAGES < 2 || STAGES > 8
#error "the pipeline has 2-8 stages"
#endif
#define AHEAD (STAGES - 1)                        // slices being copied while one is multiplied
#if ((BM + BN) * CHUNKS) % THREADS
#error "a slice must split evenly into 16-byte copies over the work-group"
#endif
#if TMA && (INFLIGHT || BATCH_ARRAYS)
#error "the tensor-map path takes INFLIGHT 0 and strided batches"
#endif
#if B_MN && (ELEM != 2 || BK % 16)
#error "an N-major B takes 16-bit inputs and a BK of 16, 32 or 64"
#endif
#if TERMS != 1 && (TERMS != 3 || ELEM != 4 || INFLIGHT)
#error "TERMS is 1, or 3 (3xTF32) with float32 inputs and INFLIGHT 0"
#endif
#define A_COPIES (BM * CHUNKS)
#define B_ATOM_BYTES (BK * 128)                   // an N-major B: 64 columns × BK rows
#define LO_BYTES (TERMS == 3 ? BN * ROW_BYTES : 0)  // one lo buffer of B (3xTF32)
// Two lo buffers in turn where another warpgroup may still read slice kt − 1's while slice kt's is
// written; one warpgroup has finished with it by then.
#define LO_BUFFERS (WARPGROUPS == 1 ? 1 : 2)
#define LOCAL_BYTES (STAGES * STAGE_BYTES + LO_BUFFERS * LO_BYTES)
#if LOCAL_BYTES > 49152
#error "the stages (and lo buffers) must fit the 48 KiB of local memory a work-group has"
#endif

// The register operands of the markers: %0 .. %(NACC-1) are the accumulators.
#define OPS10(t) " %" #t "0 %" #t "1 %" #t "2 %" #t "3 %" #t "4 %" #t "5 %" #t "6 %" #t "7 %" #t "8 %" #t "9"
#define OPS_32 " %0 %1 %2 %3 %4 %5 %6 %7 %8 %9" OPS10(1) OPS10(2) " %30 %31"
#define OPS_64 OPS_32 " %32 %33 %34 %35 %36 %37 %38 %39" OPS10(4) OPS10(5) " %60 %61 %62 %63"
#define OPS_128 OPS_64 " %64 %65 %66 %67 %68 %69" OPS10(7) OPS10(8) OPS10(9) OPS10(10) OPS10(11) \
    " %120 %121 %122 %123 %124 %125 %126 %127"
#define ACC8(x, i) "+f"(x[(i)]), "+f"(x[(i) + 1]), "+f"(x[(i) + 2]), "+f"(x[(i) + 3]), \
    "+f"(x[(i) + 4]), "+f"(x[(i) + 5]), "+f"(x[(i) + 6]), "+f"(x[(i) + 7])
#define ACC_32(x) ACC8(x, 0), ACC8(x, 8), ACC8(x, 16), ACC8(x, 24)
#define ACC_64(x) ACC_32(x), ACC8(x, 32), ACC8(x, 40), ACC8(x, 48), ACC8(x, 56)
#define ACC_128(x) ACC_64(x), ACC8(x, 64), ACC8(x, 72), ACC8(x, 80), ACC8(x, 88), ACC8(x, 96), ACC8(x, 104), \
    ACC8(x, 112), ACC8(x, 120)
#if NACC == 32
#define OPS OPS_32
#define ACC ACC_32
#define OP_DA " %32"
#define OP_DB " %33"
#define OP_R8 " %32 %33 %34 %35 %36 %37 %38 %39"
#define OP_R10 OP_R8 " %40 %41"
#elif NACC == 64
#define OPS OPS_64
#define ACC ACC_64
#define OP_DA " %64"
#define OP_DB " %65"
#define OP_R8 " %64 %65 %66 %67 %68 %69 %70 %71"
#define OP_R10 OP_R8 " %72 %73"
#else
#define OPS OPS_128
#define ACC ACC_128
#define OP_DA " %128"
#define OP_DB " %129"
#define OP_R8 " %128 %129 %130 %131 %132 %133 %134 %135"
#define OP_R10 OP_R8 " %136 %137"
#endif

// Issues the slice's MMAS wgmma into accumulators x on descriptors da and db (rule wgmma_mma:
// fence, the instructions with the descriptors advanced 32 bytes each, commit); waits until at
// most INFLIGHT commit groups of this warpgroup still run (rule wgmma_wait, naming accumulators
// x), or none (wgmma_drain). Each names every accumulator of its block, so the compiler keeps
// them in the same registers throughout and touches none while the tensor cores may write them.
#define WGMMA_ISSUE(x, da, db) __asm__ volatile("// PATCH:wgmma_mma" OPS OP_DA OP_DB : ACC(x) : "l"(da), "l"(db) : "memory")
#define WGMMA_WAIT(x) __asm__ volatile("// PATCH:wgmma_wait" OPS : ACC(x) :: "memory")
#define WGMMA_DRAIN(x) __asm__ volatile("// PATCH:wgmma_drain" OPS : ACC(x) :: "memory")
// 3xTF32 (rule wgmma_mma3): one k8 step's three products into step accumulators x, the first
// from zero — a_lo·b_hi, a_hi·b_lo, a_hi·b_hi, with A's fragments lo and hi (uint4) in registers
// and B's on descriptors dbh and dbl — and one commit. wgmma reads the fragments' registers while
// it runs, so the waits (rules wgmma_wait_one_a: at most one commit group still runs;
// wgmma_drain_a: none) name them too, which keeps the compiler from reusing them before.
#define A_FRAGMENT(f) "r"(f.s0), "r"(f.s1), "r"(f.s2), "r"(f.s3)
#define A_FRAGMENT_KEPT(f) "+r"(f.s0), "+r"(f.s1), "+r"(f.s2), "+r"(f.s3)
#define WGMMA_ISSUE3(x, lo, hi, dbh, dbl) __asm__ volatile("// PATCH:wgmma_mma3" OPS OP_R10 : ACC(x) \
    : A_FRAGMENT(lo), A_FRAGMENT(hi), "l"(dbh), "l"(dbl) : "memory")
#define WGMMA_WAIT_ONE_A(x, lo, hi) __asm__ volatile("// PATCH:wgmma_wait_one_a" OPS OP_R8 \
    : ACC(x), A_FRAGMENT_KEPT(lo), A_FRAGMENT_KEPT(hi) :: "memory")
#define WGMMA_DRAIN_A(x, lo, hi) __asm__ volatile("// PATCH:wgmma_drain_a" OPS OP_R8 \
    : ACC(x), A_FRAGMENT_KEPT(lo), A_FRAGMENT_KEPT(hi) :: "memory")

// Where chunk c of row r of a tile lies, in bytes from the tile's start (see the top).
inline uint swizzled(const uint r, const uint c) {
  return r * ROW_BYTES + ((c ^ ((r * ROW_BYTES / 128) % CHUNKS)) << 4);
}

// A shared-memory matrix descriptor: start address, leading byte offset (unused by swizzled
// K-major layouts, 1 by convention), stride byte offset (8 rows), and the swizzle mode.
inline ulong descriptor(const uint address) {
  const ulong start = (ulong)((address & 0x3FFFF) >> 4);
  const ulong stride = (ulong)((8 * ROW_BYTES) >> 4);
  const ulong mode = ROW_BYTES == 128 ? 1 : ROW_BYTES == 64 ? 2 : 3;  // 128-, 64- or 32-byte swizzle
  return start | (1ul << 16) | (stride << 32) | (mode << 62);
}

// The descriptor of an N-major B (B_MN): blocks of 64 columns, each BK rows of 128 bytes with
// the 128-byte swizzle (chunk c of row k at c ^ (k mod 8)); 8-row groups 1024 bytes apart (stride
// byte offset), 64-column blocks B_ATOM_BYTES apart (leading byte offset).
inline ulong descriptor_mn(const uint address) {
  const ulong start = (ulong)((address & 0x3FFFF) >> 4);
  return start | ((ulong)(B_ATOM_BYTES >> 4) << 16) | ((ulong)(1024 >> 4) << 32) | (1ul << 62);
}

// Starts the copies of slice `kt` into the stage at `stage` (a shared-memory address): rows
// [m0, m0 + BM) of A, then rows [n0, n0 + BN) of B, the columns [kt·BK, kt·BK + BK) of each.
inline void load_slice(const uint stage, __global const in_raw* A, const int lda, __global const in_raw* B,
                       const int ldb, const int M, const int N, const int K, const int m0, const int n0,
                       const int kt, const uint lid) {
#pragma unroll
  for (int i = 0; i < COPIES; ++i) {
    const uint copy = lid + i * THREADS;
#if B_MN
    if (copy >= A_COPIES) {
      // Row k of the slice, columns n0 + 8j .. n0 + 8j + 7: chunk j % 8 of 64-column block j / 8.
      const uint rest = copy - A_COPIES, kk = rest / (BN / 8), j = rest % (BN / 8);
      const int k = kt * BK + kk, n = n0 + 8 * j;
      const int bytes = k < K ? clamp((N - n) * ELEM, 0, 16) : 0;
      __global const in_raw* src = bytes ? B + (size_t)k * ldb + n : A;
      CP_ASYNC16_ZFILL(stage + A_BYTES + (j / 8) * B_ATOM_BYTES + kk * 128 + (((j % 8) ^ (kk % 8)) << 4), src, bytes);
      continue;
    }
#endif
    const uint row = copy / CHUNKS, c = copy % CHUNKS;
    const int k = kt * BK + c * CHUNK_ELEMS;
    const bool in_a = row < BM;
    const int r = in_a ? m0 + row : n0 + (row - BM);
    const int rows = in_a ? M : N;
    int bytes = (K - k) * ELEM;
    bytes = r < rows ? clamp(bytes, 0, 16) : 0;
    __global const in_raw* src = in_a ? A + (size_t)r * lda + k : B + (size_t)r * ldb + k;
    if (bytes == 0) src = A;  // nothing is read, but the address stays a valid one
    const uint dst = stage + (in_a ? swizzled(row, c) : A_BYTES + swizzled(row - BM, c));
    CP_ASYNC16_ZFILL(dst, src, bytes);
  }
}

#if TERMS == 3
// Writes lo of this work-item's chunks of B in the slice at byte `stage` of local memory (the ones
// it copies with cp.async) at the same place of the lo buffer at byte `lo`. x itself stays: the
// tensor cores read the TF32 part of a float and ignore its low 13 bits, which makes it hi.
inline void split_b(__local uint4* smem, const uint stage, const uint lo, const uint lid) {
#pragma unroll
  for (int i = 0; i < COPIES; ++i) {
    const uint copy = lid + i * THREADS;
    const uint row = copy / CHUNKS, c = copy % CHUNKS;
    if (row < BM) continue;
    const uint at = swizzled(row - BM, c);
    const uint4 x = smem[(stage + A_BYTES + at) / 16];
    smem[(lo + at) / 16] = as_uint4(as_float4(x) - as_float4(x & (uint4)(0xFFFFE000u)));
  }
}

// This work-item's fragment of k8 step `s` of the 64 rows of A from byte `rows` of local memory,
// split into *hi and *lo. Work-item t of the warpgroup holds rows 16(t/32) + (t%32)/4 and 8 below,
// columns t%4 and 4 further: element (r, c) is word c%4 of 16-byte chunk c/4 of row r.
inline void a_fragment(__local const uint4* smem, const uint rows, const int s, const uint lid, uint4* hi,
                       uint4* lo) {
  __local const uint* words = (__local const uint*)smem;
  const uint t = lid % 128, r = 16 * (t / 32) + (t % 32) / 4, q = t % 4;
  const uint4 x = (uint4)(words[(rows + swizzled(r, 2 * s)) / 4 + q], words[(rows + swizzled(r + 8, 2 * s)) / 4 + q],
                          words[(rows + swizzled(r, 2 * s + 1)) / 4 + q],
                          words[(rows + swizzled(r + 8, 2 * s + 1)) / 4 + q]);
  *hi = x & (uint4)(0xFFFFE000u);
  *lo = as_uint4(as_float4(x) - as_float4(*hi));
}

// Adds one k8 step's sums `part` to the accumulators `acc`.
#define STEP_SUM(acc, part) \
  _Pragma("unroll") for (int i = 0; i < NACC; ++i) acc[i] += part[i]
#endif

#if TMA
// A tensor map: 128 bytes of plain data that the host encodes (runtime/tensor_maps.hpp) with a
// placeholder for the tensor's address.
typedef struct { ulong word[16]; } tensor_map;

// The box copy: `box` elements of `map`'s tensor from coordinates (x, y) of batch item `item`
// into local memory at `dst`, counted on the barrier at `bar`. A map of a single product is 2-D;
// a strided batch's is 3-D, its items the third dimension, so that no box reads into another item.
#if BATCHED
#define TMA_COPY(dst, map, x, y, item, bar) __asm__ volatile( \
    "cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4}], [%5];" \
    :: "r"(dst), "l"(map), "r"(x), "r"(y), "r"(item), "r"(bar) : "memory")
#else
#define TMA_COPY(dst, map, x, y, item, bar) __asm__ volatile( \
    "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" \
    :: "r"(dst), "l"(map), "r"(x), "r"(y), "r"(bar) : "memory")
#endif

// Starts slice kt by the tensor memory accelerator (work-item 0 alone): BM rows × BK of A from
// (kt·BK, m0), and BN rows × BK of B from (kt·BK, n0), or with B_MN BK rows × 64 columns of B per
// 64-column block from (n0 + 64j, kt·BK). The boxes land swizzled as the descriptors expect, with
// zeros for everything past the tensors' edges, and complete on the stage's barrier `bar`, which
// expects all STAGE_BYTES.
inline void load_slice_tma(const uint stage, const uint bar, __global const ulong* maps, const int m0, const int n0,
                           const int kt, const int item) {
  __asm__ volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(bar), "r"(STAGE_BYTES) : "memory");
  TMA_COPY(stage, maps, kt * BK, m0, item, bar);
#if B_MN
#pragma unroll
  for (int j = 0; j < BN / 64; ++j) TMA_COPY(stage + A_BYTES + j * B_ATOM_BYTES, maps + 16, n0 + 64 * j, kt * BK, item, bar);
#else
  TMA_COPY(stage + A_BYTES, maps + 16, kt * BK, n0, item, bar);
#endif
}

// Waits until the barrier at `bar` has completed the phase of the given parity.
inline void wait_phase(const uint bar, const uint parity) {
  uint done = 0;
  while (!done)
    __asm__ volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                     : "=r"(done) : "r"(bar), "r"(parity) : "memory");
}
#endif

// The epilogue stages each block of 64 rows of C in local memory, EPI_COLS columns at a time, so
// that its reads and writes of C go as rows of whole 4-element vectors; straight from wgmma's
// fragments, a warp's store would cover eight rows with 8 bytes of each (H100: strided f16 batches
// of 256³ and 512³ items run 1.4–1.6× as fast staged, 8192³ 1.08×). A staged row is EPI_COLS + 8
// floats long, which puts the 8 rows of a fragment store into different banks. Every warpgroup has
// its own part of local memory.
#define EPI_ROW(cols) ((cols) + 8)
#if WARPGROUPS * 64 * EPI_ROW(64) * 4 <= LOCAL_BYTES
#define EPI_COLS 64
#elif WARPGROUPS * 64 * EPI_ROW(32) * 4 <= LOCAL_BYTES
#define EPI_COLS 32
#elif WARPGROUPS * 64 * EPI_ROW(16) * 4 <= LOCAL_BYTES
#define EPI_COLS 16
#else
#define EPI_COLS 8
#endif
#define EPI_STRIDE EPI_ROW(EPI_COLS)
#if WARPGROUPS * 64 * EPI_STRIDE * 4 > LOCAL_BYTES
#error "the epilogue's staged rows must fit the stages' local memory"
#endif

// alpha·x + beta·C into C at dst, element (r, c) of C. 3xTF32 computes an element that comes out
// NaN again from A's row and B's (K-major) row in float32 (see the top).
inline void store_element(float x, __global out_t* dst, const int r, const int c, const float alpha,
                          const float beta, __global const in_raw* A, const int lda, __global const in_raw* B,
                          const int ldb, const int K) {
#if TERMS == 3
  if (isnan(x)) {
    x = 0.0f;
    for (int p = 0; p < K; ++p) x = fma(as_float(A[(size_t)r * lda + p]), as_float(B[(size_t)c * ldb + p]), x);
  }
#endif
  float v = SCALE(float, alpha, x);
  if (beta != 0.0f) v = MULADD(beta, LOAD_OUT(dst), v);
  STORE_OUT(dst, v);
}

// alpha·acc + beta·C into C, inside M×N, for the block of 64 rows starting at row m0, through this
// warpgroup's part of local memory at `staged`. Work-item t of the warpgroup holds, for each group
// j of 8 columns, acc[4j], acc[4j+1] at row 16(t/32) + (t%32)/4 of the block, columns 8j + 2(t%4)
// and the next, and acc[4j+2], acc[4j+3] eight rows further down. Every work-item of the
// work-group calls it the same number of times: it holds barriers.
inline void store_block(const float* acc, __local float* staged, __global out_t* C, const int ldc, const int M,
                        const int N, const int m0, const int n0, const uint lid, const float alpha, const float beta,
                        __global const in_raw* A, const int lda, __global const in_raw* B, const int ldb,
                        const int K) {
  const uint t = lid % 128;
  const uint fragment = (16 * (t / 32) + (t % 32) / 4) * EPI_STRIDE + 2 * (t % 4);
#pragma unroll
  for (int piece = 0; piece < BN / EPI_COLS; ++piece) {
#pragma unroll
    for (int j = 0; j < EPI_COLS / 8; ++j) {
      const int i = 4 * (piece * (EPI_COLS / 8) + j);
      vstore2((float2)(acc[i], acc[i + 1]), 0, staged + fragment + 8 * j);
      vstore2((float2)(acc[i + 2], acc[i + 3]), 0, staged + fragment + 8 * EPI_STRIDE + 8 * j);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    // Rows of EPI_COLS / 4 vectors, 128 vectors per pass.
#pragma unroll
    for (int pass = 0; pass < EPI_COLS / 8; ++pass) {
      const uint v = pass * 128 + t, r = v / (EPI_COLS / 4), q = v % (EPI_COLS / 4);
      const float4 x = vload4(0, staged + r * EPI_STRIDE + 4 * q);
      const int row = m0 + (int)r, col = n0 + piece * EPI_COLS + 4 * (int)q;
      if (row >= M || col >= N) continue;
      __global out_t* dst = C + (size_t)row * ldc + col;
      bool whole = col + 4 <= N && (size_t)dst % (4 * sizeof(out_t)) == 0;
#if TERMS == 3
      whole = whole && !any(isnan(x));
#endif
      if (whole) {
        float4 y = alpha == 0.0f ? (float4)(0.0f) : alpha * x;
        if (beta != 0.0f) y = MULADD(beta, LOAD_OUT4A(dst), y);
        STORE_OUT4A(dst, y);
      } else {
        const float xs[4] = {x.s0, x.s1, x.s2, x.s3};
        for (int e = 0; e < 4 && col + e < N; ++e)
          store_element(xs[e], dst + e, row, col + e, alpha, beta, A, lda, B, ldb, K);
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}

__kernel __attribute__((reqd_work_group_size(THREADS, 1, 1)))
void wgmma_gemm(const int M, const int N, const int K, float alpha, float beta,
                __global const in_raw* A, ulong a_offset, const int lda, const ulong a_stride,
                __global const in_raw* B, ulong b_offset, const int ldb, const ulong b_stride,
                __global out_t* C, ulong c_offset, const int ldc, const ulong c_stride, const int tiles_n,
                __global const real* scalars, __global const ulong* offsets
#if TMA
                , const tensor_map a_map, const tensor_map b_map, __global ulong* map_slots
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

  // Tiles in bands of GROUP_M rows, each band walked column by column: the work-groups running
  // together share their slices of A and B in L2.
  const int tiles_m = (M + BM - 1) / BM;
  const int tile = get_group_id(0);
  const int band = tile / (GROUP_M * tiles_n);
  const int first_m = band * GROUP_M;
  const int band_rows = min(GROUP_M, tiles_m - first_m);
  const int in_band = tile % (GROUP_M * tiles_n);
  const int m0 = (first_m + in_band % band_rows) * BM;
  const int n0 = (in_band / band_rows) * BN;

  __local uint4 smem[LOCAL_BYTES / 16] __attribute__((aligned(1024)));
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
  const int slices = (K + BK - 1) / BK;
#if TMA
  __local ulong bars[STAGES];
  const uint bar0 = (uint)(size_t)bars;
  const int item = get_group_id(1);
  __global ulong* maps = map_slots + 32 * ((size_t)item * get_num_groups(0) + get_group_id(0));
  if (lid == 0) {
    for (int s = 0; s < STAGES; ++s) __asm__ volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(bar0 + 8 * s) : "memory");
    __asm__ volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    // This work-group's own copy of the two maps, given the tensors' addresses (tensormap.replace,
    // sm_90a: a marker the host patches), then handed to the tensor-map proxy that TMA reads
    // them through. No other work-group touches it.
    for (int i = 0; i < 16; ++i) maps[i] = a_map.word[i], maps[16 + i] = b_map.word[i];
    __asm__ volatile("// PATCH:tensormap_address %0 %1" :: "l"((ulong)maps), "l"(a_tensor) : "memory");
    __asm__ volatile("// PATCH:tensormap_address %0 %1" :: "l"((ulong)(maps + 16)), "l"(b_tensor) : "memory");
    __asm__ volatile("fence.proxy.tensormap::generic.release.gpu;" ::: "memory");
    __asm__ volatile("fence.proxy.tensormap::generic.acquire.gpu [%0], 128;" :: "l"(maps) : "memory");
    __asm__ volatile("fence.proxy.tensormap::generic.acquire.gpu [%0], 128;" :: "l"(maps + 16) : "memory");
    for (int s = 0; s < AHEAD && s < slices; ++s) load_slice_tma(base + s * STAGE_BYTES, bar0 + 8 * s, maps, m0, n0, s, item);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
#else
#pragma unroll
  for (int s = 0; s < AHEAD; ++s) {
    if (s < slices) load_slice(base + s * STAGE_BYTES, A, lda, B, ldb, M, N, K, m0, n0, s, lid);
    CP_COMMIT();
  }
#endif
  const uint a_rows = base + w * WM * ROW_BYTES;
  for (int kt = 0; kt < slices; ++kt) {
    const int next = kt + AHEAD;  // into the stage of slice kt − 1
#if TMA
    // Slice kt has landed, and after the barrier every warpgroup is done with slice kt − 1.
    wait_phase(bar0 + 8 * (kt % STAGES), (kt / STAGES) & 1);
#if TERMS == 3
    split_b(smem, (kt % STAGES) * STAGE_BYTES, STAGES * STAGE_BYTES + (kt % LO_BUFFERS) * LO_BYTES, lid);
    __asm__ volatile("fence.proxy.async.shared::cta;" ::: "memory");
#endif
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0 && next < slices)
      load_slice_tma(base + (next % STAGES) * STAGE_BYTES, bar0 + 8 * (next % STAGES), maps, m0, n0, next, item);
#else
    // This work-item's copies of slice kt have landed; the fence hands them from the generic
    // proxy to the async one that wgmma reads through, and the barrier waits for everyone's.
    CP_WAIT(AHEAD - 1);
#if TERMS == 3
    split_b(smem, (kt % STAGES) * STAGE_BYTES, STAGES * STAGE_BYTES + (kt % LO_BUFFERS) * LO_BYTES, lid);
#endif
    __asm__ volatile("fence.proxy.async.shared::cta;" ::: "memory");
    barrier(CLK_LOCAL_MEM_FENCE);
#if INFLIGHT == 0
    if (next < slices) load_slice(base + (next % STAGES) * STAGE_BYTES, A, lda, B, ldb, M, N, K, m0, n0, next, lid);
    CP_COMMIT();
#endif
#endif
    const uint stage = (kt % STAGES) * STAGE_BYTES;
#if B_MN
    const ulong db = descriptor_mn(base + stage + A_BYTES);
#else
    const ulong db = descriptor(base + stage + A_BYTES);
#endif
#if TERMS == 3
    // B's lo buffer of this slice; B's descriptors advance 32 bytes (2 units) per k8 step.
    const ulong dbl = descriptor(base + STAGES * STAGE_BYTES + (kt % LO_BUFFERS) * LO_BYTES);
    const uint a_at = stage + w * WM * ROW_BYTES;  // this warpgroup's rows of A, from smem's start
#pragma unroll
    for (int s = 0; s < MMAS; ++s) {
      uint4 hi0, lo0;
      a_fragment(smem, a_at, s, lid, &hi0, &lo0);
      WGMMA_ISSUE3(part0, lo0, hi0, db + 2 * s, dbl + 2 * s);
#if MT == 2
      // The second block is issued before the first one's sum is added.
      uint4 hi1, lo1;
      a_fragment(smem, a_at + 64 * ROW_BYTES, s, lid, &hi1, &lo1);
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
#if INFLIGHT == 1
    barrier(CLK_LOCAL_MEM_FENCE);
    if (next < slices) load_slice(base + (next % STAGES) * STAGE_BYTES, A, lda, B, ldb, M, N, K, m0, n0, next, lid);
    CP_COMMIT();
#endif
  }
  WGMMA_DRAIN(acc0);
#if MT == 2
  WGMMA_DRAIN(acc1);
#endif
  // Every warpgroup is done with the slices; their local memory now stages C.
  barrier(CLK_LOCAL_MEM_FENCE);
  __local float* staged = (__local float*)smem + w * 64 * EPI_STRIDE;
  store_block(acc0, staged, C, ldc, M, N, m0 + w * WM, n0, lid, alpha, beta, A, lda, B, ldb, K);
#if MT == 2
  store_block(acc1, staged, C, ldc, M, N, m0 + w * WM + 64, n0, lid, alpha, beta, A, lda, B, ldb, K);
#endif
}
