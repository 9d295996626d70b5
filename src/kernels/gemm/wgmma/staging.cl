// wgmma/staging.cl — how slices of A and B reach local memory: the swizzled layout and the
// descriptors that name it, the cp.async and TMA copies, and 3xTF32's split of B and A's fragments.

// Where chunk c of row r of a tile lies, in bytes from the tile's start (see gemm/wgmma/wgmma.cl).
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

// The descriptor of an N-major 16-bit B (B_MN): blocks of 64 columns (ATOM_COLS), each BK rows of
// 128 bytes with the 128-byte swizzle (chunk c of row k at c ^ (k mod 8)); 8-row groups 1024 bytes
// apart (stride byte offset), 64-column blocks B_ATOM_BYTES apart (leading byte offset). A float32
// B has the same layout in blocks of 32 columns, read through registers (b_fragment).
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
      // Row k of the slice, columns n0 + CHUNK_ELEMS·j and the next CHUNK_ELEMS − 1: chunk j % 8
      // of block j / 8 (ATOM_COLS columns).
      const uint rest = copy - A_COPIES, kk = rest / (BN / CHUNK_ELEMS), j = rest % (BN / CHUNK_ELEMS);
      const int k = kt * BK + kk, n = n0 + CHUNK_ELEMS * j;
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
// Writes lo of this work-item's chunks of the descriptor operand — B, or A with B_REGS — in the
// slice at byte `stage` of local memory (the ones it copies with cp.async) at the same place of the
// lo buffer at byte `lo`. x itself stays: the tensor cores read the TF32 part of a float and ignore
// its low 13 bits, which makes it hi.
inline void split_lo(__local uint4* smem, const uint stage, const uint lo, const uint lid) {
#pragma unroll
  for (int i = 0; i < COPIES; ++i) {
    const uint copy = lid + i * THREADS;
    const uint row = copy / CHUNKS, c = copy % CHUNKS;
#if B_REGS
    if (row >= BM) continue;
    const uint at = swizzled(row, c);
    const uint4 x = smem[(stage + at) / 16];
#else
    if (row < BM) continue;
    const uint at = swizzled(row - BM, c);
    const uint4 x = smem[(stage + A_BYTES + at) / 16];
#endif
    smem[(lo + at) / 16] = as_uint4(as_float4(x) - as_float4(x & (uint4)(0xFFFFE000u)));
  }
}

// This work-item's fragment of k8 step `s` of the 64 rows of A from byte `rows` of local memory.
// Work-item t of the warpgroup holds rows 16(t/32) + (t%32)/4 and 8 below, columns t%4 and 4
// further: element (r, c) is word c%4 of 16-byte chunk c/4 of row r.
inline uint4 a_fragment(__local const uint4* smem, const uint rows, const int s, const uint lid) {
  __local const uint* words = (__local const uint*)smem;
  const uint t = lid % 128, r = 16 * (t / 32) + (t % 32) / 4, q = t % 4;
  return (uint4)(words[(rows + swizzled(r, 2 * s)) / 4 + q], words[(rows + swizzled(r + 8, 2 * s)) / 4 + q],
                 words[(rows + swizzled(r, 2 * s + 1)) / 4 + q], words[(rows + swizzled(r + 8, 2 * s + 1)) / 4 + q]);
}

// A fragment x split into *hi (x with its low 13 bits cleared, a TF32 number) and *lo = x − hi.
inline void split_tf32(const uint4 x, uint4* hi, uint4* lo) {
  *hi = x & (uint4)(0xFFFFE000u);
  *lo = as_uint4(as_float4(x) - as_float4(*hi));
}

// Adds one k8 step's sums `part` to the accumulators `acc`.
#define STEP_SUM(acc, part) \
  _Pragma("unroll") for (int i = 0; i < NACC; ++i) acc[i] += part[i]
#endif

#if B_REGS
// The column of B, within its block of 64, that half h of work-item t's fragment rows stands for
// (t of the warpgroup, rows 16(t/32) + (t%32)/4 + 8h). The warp's 8 rows of a half take chunks
// c and c + 4 of their 128-byte rows of the slice, 4 columns each, not 8 neighbours: then its 4
// values of k, whose rows swizzle the chunks by k mod 8, read 8 different chunks, all 32 banks at
// once (neighbouring columns would share 2 chunks between k and k ^ 1, two passes per load).
inline uint b_column(const uint t, const uint h) {
  const uint warp = t / 32, i = (t % 32) / 4;
  return 32 * (warp / 2) + 4 * (2 * (warp % 2) + h + 4 * (i / 4)) + i % 4;
}

// This work-item's fragment of k8 step `s` for the 64 columns of B from column `cols` of the tile,
// as wgmma's A operand (Bᵀ: a row per column of B, in b_column's order), from the N-major slice at
// byte `slice` of local memory: rows b_column(t, 0) and b_column(t, 1), k = 8s + t%4 and 4 further,
// in a_fragment's order. Element (k, n) is word n%4 of chunk (n%32)/4 ^ (k mod 8) of row k of
// block n/32.
inline uint4 b_fragment(__local const uint4* smem, const uint slice, const uint cols, const int s, const uint lid) {
  __local const uint* words = (__local const uint*)smem;
  const uint t = lid % 128, n = cols + b_column(t, 0), k = 8 * s + t % 4;
  const uint at0 = slice + (n / 32) * B_ATOM_BYTES, w0 = n % 4;
  const uint c0 = (n % 32) / 4, c1 = c0 + 1;  // b_column(t, 1) is the next chunk of the same block
  return (uint4)(words[(at0 + k * 128 + ((c0 ^ (k % 8)) << 4)) / 4 + w0],
                 words[(at0 + k * 128 + ((c1 ^ (k % 8)) << 4)) / 4 + w0],
                 words[(at0 + (k + 4) * 128 + ((c0 ^ ((k + 4) % 8)) << 4)) / 4 + w0],
                 words[(at0 + (k + 4) * 128 + ((c1 ^ ((k + 4) % 8)) << 4)) / 4 + w0]);
}

// Every k8 step's fragments of the slice at byte `stage` for this warpgroup's blocks of columns:
// f0 for the first, f1 for the second where WM = 128.
inline void b_fragments(uint4* f0, uint4* f1, __local const uint4* smem, const uint stage, const uint w,
                        const uint lid) {
#pragma unroll
  for (int s = 0; s < MMAS; ++s) f0[s] = b_fragment(smem, stage + A_BYTES, w * WM, s, lid);
#if MT == 2
#pragma unroll
  for (int s = 0; s < MMAS; ++s) f1[s] = b_fragment(smem, stage + A_BYTES, w * WM + 64, s, lid);
#endif
}
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
// (kt·BK, m0), and BN rows × BK of B from (kt·BK, n0), or with B_MN BK rows × ATOM_COLS columns of
// B per block from (n0 + ATOM_COLS·j, kt·BK). The boxes land swizzled as the descriptors expect, with
// zeros for everything past the tensors' edges, and complete on the stage's barrier `bar`, which
// expects all STAGE_BYTES.
inline void load_slice_tma(const uint stage, const uint bar, __global const ulong* maps, const int m0, const int n0,
                           const int kt, const int item) {
  __asm__ volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(bar), "r"(STAGE_BYTES) : "memory");
  TMA_COPY(stage, maps, kt * BK, m0, item, bar);
#if B_MN
#pragma unroll
  for (int j = 0; j < BN / ATOM_COLS; ++j)
    TMA_COPY(stage + A_BYTES + j * B_ATOM_BYTES, maps + 16, n0 + ATOM_COLS * j, kt * BK, item, bar);
#else
  TMA_COPY(stage + A_BYTES, maps + 16, kt * BK, n0, item, bar);
#endif
}

// This work-group's own copy at `maps` of the two maps, given the tensors' addresses
// (tensormap.replace, sm_90a: a marker the host patches), then handed to the tensor-map proxy that
// TMA reads them through. No other work-group touches it. A macro, so that the map arguments are
// read where the kernel has them.
#define ADOPT_MAPS(maps, a_map, b_map, a_tensor, b_tensor) do { \
    for (int i = 0; i < 16; ++i) (maps)[i] = (a_map).word[i], (maps)[16 + i] = (b_map).word[i]; \
    __asm__ volatile("// PATCH:tensormap_address %0 %1" :: "l"((ulong)(maps)), "l"(a_tensor) : "memory"); \
    __asm__ volatile("// PATCH:tensormap_address %0 %1" :: "l"((ulong)((maps) + 16)), "l"(b_tensor) : "memory"); \
    __asm__ volatile("fence.proxy.tensormap::generic.release.gpu;" ::: "memory"); \
    __asm__ volatile("fence.proxy.tensormap::generic.acquire.gpu [%0], 128;" :: "l"(maps) : "memory"); \
    __asm__ volatile("fence.proxy.tensormap::generic.acquire.gpu [%0], 128;" :: "l"((maps) + 16) : "memory"); \
  } while (0)

// Waits until the barrier at `bar` has completed the phase of the given parity.
inline void wait_phase(const uint bar, const uint parity) {
  uint done = 0;
  while (!done)
    __asm__ volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                     : "=r"(done) : "r"(bar), "r"(parity) : "memory");
}
#endif
