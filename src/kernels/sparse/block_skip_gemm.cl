// block_skip_gemm.cl — C = A·B (float32, row-major) that never touches the all-zero TS×TS tiles of A.
//
// Work split: a work-group computes a TS×TSN block of C (TS rows = one tile-row of A); each
// work-item a WPTM×WPTN sub-block held in registers. The group walks along K only over the k-tiles
// its tile-row lists as non-zero (lists/counts from tile_map.cl): a zero tile of A costs no load of
// A, no load of B and no multiply-add. Each listed k-tile is consumed in TS/TK steps of depth TK:
// per step the group stages a TK-deep slice of A (transposed, TK×TS) and of B (TK×TSN) in local
// memory and every work-item does WPTM·WPTN·TK multiply-adds from registers.
//
// Work-group row y computes tile-row order[y]: tile_order puts the longest lists first, so that
// the GPU, which starts groups roughly in index order, is not left with a long row at the end.
//
// The dense run is this same kernel with a list holding every k-tile (list_stride = 0,
// count_stride = 0: all rows share one list 0, 1, ..., kt-1) and order 0, 1, ..., so "sparse vs
// dense" compares the skipping and nothing else. Since lists are in increasing order, the
// skipping run adds exactly the same products in the same order, minus products with a zero
// factor: its C equals the dense run's bit for bit (up to the sign of zeros).
//
// Why it is fast on a GPU (the NVIDIA H200 defaults: TS = TSN = 128, TK = 16, 8×8 per work-item,
// 256 work-items):
//  - register blocking: per k, a work-item reads WPTM + WPTN floats from local memory (as float4,
//    LDS.128) and does WPTM·WPTN = 64 FMAs: 4 FMAs per local float instead of 1/2 in the tiled rung;
//  - a work-item's rows are 4-row groups strided by 4·RTM (and columns likewise by 4·RTN), so in a
//    warp the A reads are broadcasts and the B reads are 16 consecutive float4: no bank conflicts;
//  - A is stored transposed in local memory (As[k][m]) so that both operands are read along
//    contiguous local addresses; consecutive work-items store consecutive rows, conflict-free;
//  - double buffering: the global loads for step q+1 are issued into registers before the
//    multiply-adds of step q, and stored to the other local buffer after them: one barrier per
//    step and the global latency hides behind 1024 FMAs per work-item;
//  - float4 global loads and stores on the unguarded path (16 bytes per load instruction);
//  - 32 KiB of local memory and ~128 registers per work-item: two groups (16 warps) per SM.
//
// Sizes: GUARD = 0 needs M % TS == 0, N % TSN == 0, K % TS == 0 (the host checks) and takes the
// float4 path without any bounds checks. GUARD = 1 takes any M, N, K ≥ 1: loads outside A or B
// read 0, every work-item still reaches every barrier, and only elements inside C are stored.

#ifndef TS
#define TS 128    // side of A's skip tiles: rows of C per work-group and width of one k-tile
#endif
#ifndef TSN
#define TSN 128   // columns of C per work-group
#endif
#ifndef TK
#define TK 16     // depth of the A and B slices staged in local memory per step
#endif
#ifndef WPTM
#define WPTM 8    // rows of C per work-item (multiple of 4: read as float4 from local memory)
#endif
#ifndef WPTN
#define WPTN 8    // columns of C per work-item (multiple of 4)
#endif
#ifndef GUARD
#define GUARD 0   // 1: bounds-checked scalar loads and stores for sizes that are not tile multiples
#endif

#define RTM (TS / WPTM)               // work-items along m
#define RTN (TSN / WPTN)              // work-items along n
#define NT (RTM * RTN)                // work-items per group
#define SPT (TS / TK)                 // steps per k-tile
#define A_LOADS (TS * TK / 4 / NT)    // float4 of A each work-item moves per step
#define B_LOADS (TK * TSN / 4 / NT)   // float4 of B each work-item moves per step

#if TS % WPTM != 0 || TSN % WPTN != 0
#error "TS must be a multiple of WPTM and TSN a multiple of WPTN"
#endif
#if WPTM % 4 != 0 || WPTN % 4 != 0
#error "WPTM and WPTN must be multiples of 4 (local memory is read as float4)"
#endif
#if TS % TK != 0 || TK % 4 != 0
#error "TK must divide TS and be a multiple of 4"
#endif
#if (TS * TK / 4) % NT != 0 || (TK * TSN / 4) % NT != 0 || A_LOADS < 1 || B_LOADS < 1
#error "the TK×TS slice of A and the TK×TSN slice of B must split evenly into float4 per work-item"
#endif

// Four floats m[r][c..c+3] of a row-major rows×cols matrix (A with rows = M, cols = K; B with
// rows = K, cols = N); on the guarded path elements outside the matrix read as 0.
inline float4 load4(__global const float* restrict m, const int rows, const int cols, const int r, const int c) {
#if GUARD
  float4 v = (float4)(0.0f);
  if (r < rows) {
    __global const float* p = m + (size_t)r * cols + c;
    if (c + 0 < cols) v.s0 = p[0];
    if (c + 1 < cols) v.s1 = p[1];
    if (c + 2 < cols) v.s2 = p[2];
    if (c + 3 < cols) v.s3 = p[3];
  }
  return v;
#else
  return *(__global const float4*)(m + r * cols + c);
#endif
}

// Loads step q (k-tile list[q / SPT], sub-step q % SPT) into the staging registers. Work-item tid
// moves float4 number e = tid + l·NT of each slice:
//  - A: row e % TS, k-quad e / TS. Consecutive work-items take consecutive rows, so the
//    transposing stores into local memory hit 32 distinct banks. The price is that a warp reads
//    16 bytes from each of 32 rows; the other half of each 32-byte sector is read by another warp
//    of the group moments later and comes from L1 (A is `const restrict`: the read-only path).
//  - B: k-row e / (TSN/4), column quad e % (TSN/4). Consecutive work-items read consecutive
//    16 bytes of a row of B (512 bytes per warp): fully coalesced, and stored as they are.
inline void load_step(const int q, __global const int* restrict list, const int tid, const int row0, const int col0,
                      const int M, const int N, const int K, __global const float* restrict A,
                      __global const float* restrict B, float4* ra, float4* rb) {
  const int k0 = list[q / SPT] * TS + (q % SPT) * TK;
#pragma unroll
  for (int l = 0; l < A_LOADS; ++l) {
    const int e = tid + l * NT, r = e % TS, kq = e / TS;
    ra[l] = load4(A, M, K, row0 + r, k0 + 4 * kq);
  }
#pragma unroll
  for (int l = 0; l < B_LOADS; ++l) {
    const int e = tid + l * NT, kr = e / (TSN / 4), c4 = e % (TSN / 4);
    rb[l] = load4(B, K, N, k0 + kr, col0 + 4 * c4);
  }
}

// Stores the staging registers into one local buffer: A transposed (as[k][m]), B as it is.
inline void store_step(const int tid, const float4* ra, const float4* rb, __local float* as, __local float4* bs) {
#pragma unroll
  for (int l = 0; l < A_LOADS; ++l) {
    const int e = tid + l * NT, r = e % TS, kq = e / TS;
    as[(4 * kq + 0) * TS + r] = ra[l].s0;
    as[(4 * kq + 1) * TS + r] = ra[l].s1;
    as[(4 * kq + 2) * TS + r] = ra[l].s2;
    as[(4 * kq + 3) * TS + r] = ra[l].s3;
  }
#pragma unroll
  for (int l = 0; l < B_LOADS; ++l) {
    const int e = tid + l * NT, kr = e / (TSN / 4), c4 = e % (TSN / 4);
    bs[kr * (TSN / 4) + c4] = rb[l];
  }
}

__kernel __attribute__((reqd_work_group_size(RTN, RTM, 1)))
void block_skip_gemm(const int M, const int N, const int K, __global const float* restrict A,
                     __global const float* restrict B, __global float* restrict C,
                     __global const int* restrict lists, const int list_stride,
                     __global const int* restrict counts, const int count_stride,
                     __global const int* restrict order) {
  const int tx = get_local_id(0), ty = get_local_id(1);
  const int tid = ty * RTN + tx;
  // Tile-rows in the order tile_order chose (longest lists first); the dense run passes 0, 1, ...
  const int bn = get_group_id(0), bm = order[get_group_id(1)];
  const int row0 = bm * TS, col0 = bn * TSN;  // first row and column of this group's C block

  __global const int* list = lists + bm * list_stride;
  const int nsteps = counts[bm * count_stride] * SPT;

  // As[b][k][m/4]: A slice transposed; Bs[b][k][n/4]: B slice as stored. Two buffers each.
  __local float4 As[2][TK][TS / 4];
  __local float4 Bs[2][TK][TSN / 4];

  float acc[WPTM][WPTN];
#pragma unroll
  for (int i = 0; i < WPTM; ++i)
#pragma unroll
    for (int j = 0; j < WPTN; ++j) acc[i][j] = 0.0f;

  float4 ra[A_LOADS], rb[B_LOADS];  // global → local staging registers (the prefetch)

  if (nsteps > 0) {  // the same for the whole group, so the barriers inside are reached by all
    load_step(0, list, tid, row0, col0, M, N, K, A, B, ra, rb);
    store_step(tid, ra, rb, (__local float*)As[0], &Bs[0][0][0]);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int q = 0; q < nsteps; ++q) {
      const int buf = q & 1;
      const bool more = q + 1 < nsteps;
      if (more) load_step(q + 1, list, tid, row0, col0, M, N, K, A, B, ra, rb);  // in flight during the FMAs
#pragma unroll
      for (int k = 0; k < TK; ++k) {
        float a[WPTM], b[WPTN];
#pragma unroll
        for (int i = 0; i < WPTM / 4; ++i) {
          const float4 v = As[buf][k][ty + i * RTM];
          a[4 * i + 0] = v.s0; a[4 * i + 1] = v.s1; a[4 * i + 2] = v.s2; a[4 * i + 3] = v.s3;
        }
#pragma unroll
        for (int j = 0; j < WPTN / 4; ++j) {
          const float4 v = Bs[buf][k][tx + j * RTN];
          b[4 * j + 0] = v.s0; b[4 * j + 1] = v.s1; b[4 * j + 2] = v.s2; b[4 * j + 3] = v.s3;
        }
#pragma unroll
        for (int i = 0; i < WPTM; ++i)
#pragma unroll
          for (int j = 0; j < WPTN; ++j) acc[i][j] += a[i] * b[j];  // contracted to one FMA
      }
      // The other buffer was last read in step q-1, and everyone passed the barrier after it.
      if (more) store_step(tid, ra, rb, (__local float*)As[buf ^ 1], &Bs[buf ^ 1][0][0]);
      barrier(CLK_LOCAL_MEM_FENCE);
    }
  }

  // Work-item rows: (ty + i·RTM)·4 + v; columns: (tx + j·RTN)·4 + w.
#pragma unroll
  for (int i = 0; i < WPTM / 4; ++i)
#pragma unroll
    for (int v = 0; v < 4; ++v) {
      const int row = row0 + (ty + i * RTM) * 4 + v;
#pragma unroll
      for (int j = 0; j < WPTN / 4; ++j) {
        const int col = col0 + (tx + j * RTN) * 4;
        const float4 r = (float4)(acc[4 * i + v][4 * j + 0], acc[4 * i + v][4 * j + 1], acc[4 * i + v][4 * j + 2],
                                  acc[4 * i + v][4 * j + 3]);
#if GUARD
        if (row < M) {
          __global float* c = C + (size_t)row * N + col;
          if (col + 0 < N) c[0] = r.s0;
          if (col + 1 < N) c[1] = r.s1;
          if (col + 2 < N) c[2] = r.s2;
          if (col + 3 < N) c[3] = r.s3;
        }
#else
        *(__global float4*)(C + row * N + col) = r;
#endif
      }
    }
}
