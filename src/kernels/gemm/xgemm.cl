// xgemm.cl — the tunable production kernel: C = alpha·A·B + beta·C for the packed path.
//
// It grows out of ladder rung 6 (2D register blocking) with every design choice turned into a
// parameter that the tuner searches (src/tune/) instead of a constant:
//   MWG×NWG×KWG   the tile of C a work-group computes and the K-depth staged per step;
//   MDIMC×NDIMC   the work-group shape; each work-item computes (MWG/MDIMC)×(NWG/NDIMC) of C;
//   VWM, VWN      vector widths of A and B loads and local reads (VWN also for C);
//   SA, SB        stage A / B tiles in local memory (1) or read fragments from global (0, relying
//                 on the cache: pays when local memory or barriers are the bottleneck);
//   PADA, PADB    extra vectors at the end of each local row (bank-conflict padding);
//   DB            double buffering: the next tile is loaded into registers while this one is
//                 multiplied, two local buffers, one barrier per tile instead of two;
//   KUNROLL       unroll factor of the loop over one tile's K-depth;
//   STRM, STRN    a work-item's vectors strided across the tile (1: neighbours read neighbouring
//                 vectors — conflict-free, coalesced C stores) or contiguous (0);
//   WX            0, or the work-items along N in one warp of 32 (2, 4, 8, 16): renumbers the
//                 work-items so that each warp computes a compact (32/WX)×WX patch of work-items
//                 instead of 32/NDIMC whole rows of them. Fewer distinct A and B vectors per warp
//                 and k-step means fewer local-memory transactions (warp tiling);
//   ASYNC         0, or the stages (2-4) of a copy pipeline built on PTX cp.async (NVIDIA sm_80+,
//                 inline assembly): tiles go from global to local memory without passing through
//                 registers, ASYNC-1 tiles ahead of the one being multiplied. That is double (or
//                 triple...) buffering without DB's prefetch registers, so a 128-register kernel
//                 keeps two work-groups per SM and still overlaps its loads with its arithmetic;
//   KSLICE        1, 2 or 4 slices of MDIMC×NDIMC work-items (sliced K): every slice computes the
//                 whole tile of C over its own part of each tile's K-depth, and at the end slices
//                 1.. hand their sums to slice 0 through local memory. Small tiles run one
//                 work-group per SM with one warp per scheduler, which waits on every load and
//                 every dependent instruction (H200, 258³ on 24×24 tiles: the copies and the
//                 arithmetic each took about 3 µs and did not overlap); slices give the scheduler
//                 more warps without more instructions per work-item.
// ROTATE (a preprocessor default, on with 3-4 stages): the K loop rotated across its barrier, see
// ROTATED below.
// Two tunables are the host's and never read here: PACKA (pack a row-major A first) and MINWG
// (on NVIDIA, the work-groups per SM that the assembler must leave registers for: PTX
// .minnctapersm, added to the compiled program by the program cache).
//
// Operands (the host picks the form per call, not the tuner):
//   A_KM = 1: A arrives transposed, At (K×M), rows of lda_v vectors of VWM floats: either the
//             caller's matrix stored that way or a packed copy;
//   A_KM = 0: A as the caller stores it (M×K row-major, lda floats per row), read along K and
//             transposed on its way into local memory (needs SA = 1; PADA spreads the transposing
//             stores over the banks);
//   B is K×N, rows of ldb_v vectors of VWN floats.
// With the cp.async pipeline (ASYNC) every operand is read in place, in whatever form it comes:
//   A_VEC = 0: At element by element (M, lda or the offset not on VWM boundaries);
//   A_KM = 0:  A (M×K) element by element, each float copied to its transposed place (or, with
//              ALK, kept as it is stored: see below);
//   B_VEC = 0: B (K×N) element by element, or in pairs of floats (B_PAIRS = 1: N, ldb and the
//             offset even, as at 258 or 774 columns, where VWN = 4 vectors do not fit);
//   B_KN = 0:  B stored N×K (op(B) = Bᵀ), transposed so.
//   Element by element means 4-byte copies: more instructions than 16-byte ones, but no packing
//   kernel before the GEMM (which at mid sizes cost more than the copies; docs/tuning.md).
//   A transposing copy moves 4 rows × 8 k per warp: 32-byte pieces of 4 rows from global memory,
//   and, with a local row length of 4 (mod 32) floats (PADA = 1 with VWM = 4), 32 different banks.
// ALK (2 or 4; tunable, with A_KM = 0 only): A's tile stays in local memory as the caller stores
// it, a row of KWG k (plus 4·PADA floats of padding) per m, so that it arrives in 16-byte pieces
// along K (A_VEC = 1: lda and the offsets on 4-float boundaries; element by element otherwise)
// instead of being transposed on its way. The K loop then reads ALK k of each of a work-item's
// rows at once and multiplies them over ALK steps: as many bytes of local memory per multiply-add
// as the transposed layout, in as many loads for ALK = 4, without a packing kernel before the GEMM
// and without 4-byte copies, but with more live registers. On the H200 that paid for the small
// tiles only: the 128×128 tiles took 160-172 registers with it and ran 24-29 % slower than with
// A packed (docs/tuning.md).
// GUARD_M, GUARD_N, GUARD_K: loads outside M, N or K read zero, so operands need no padding when
// the shape is not a multiple of the tile (the host sets them only then). C is the caller's
// matrix: M×N inside a buffer with leading dimension ldc and offset c_offset; stores are guarded,
// so C is never written outside M×N. beta == 0 never reads C; alpha == 0 drops the product (BLAS
// semantics).
//
// SPLIT = 1 (set by the host): the last `split_tiles` tiles are shared out along K (stream-K), so
// that a wave that would leave most compute units idle spreads over all of them. Group b <
// full_tiles computes tile b over all of K, as without SPLIT; the `sk_groups` groups after them
// each take an equal share of the split tiles' K-steps, in tile order. A share may end inside a
// tile and go on in the next, so such a group computes several segments, each a whole tile or a
// part of one. (With sk_groups = S · split_tiles every share lies in one tile, and every tile is
// cut into S parts: plain split-K, built without the loop over segments.) Every part stores its partial tile in the workspace `ws`; the
// last part of a tile to finish (an atomic count per tile) adds the parts in part order — the
// result does not depend on which finished last — and writes C through the usual epilogue.

#ifndef MWG
#define MWG 128     // rows of C per work-group
#endif
#ifndef NWG
#define NWG 128     // columns of C per work-group
#endif
#ifndef KWG
#define KWG 16      // K-depth of one tile
#endif
#ifndef MDIMC
#define MDIMC 16    // work-items along M
#endif
#ifndef NDIMC
#define NDIMC 16    // work-items along N
#endif
#ifndef VWM
#define VWM 4       // vector width along M (A)
#endif
#ifndef VWN
#define VWN 4       // vector width along N (B and C)
#endif
#ifndef SA
#define SA 1        // stage A in local memory
#endif
#ifndef SB
#define SB 1        // stage B in local memory
#endif
#ifndef PADA
#define PADA 0      // padding vectors per local row of A
#endif
#ifndef PADB
#define PADB 0      // padding vectors per local row of B
#endif
#ifndef DB
#define DB 0        // double-buffered local tiles
#endif
#ifndef KUNROLL
#define KUNROLL KWG // unroll factor of the K loop inside a tile
#endif
#ifndef STRM
#define STRM 1      // strided (1) or contiguous (0) rows per work-item
#endif
#ifndef STRN
#define STRN 1      // strided (1) or contiguous (0) columns per work-item
#endif
#ifndef ASYNC
#define ASYNC 0     // stages of the cp.async pipeline (0: off)
#endif
#ifndef ALK
#define ALK 0       // A (M×K) kept in local memory as stored, read ALK k at a time (0: transposed)
#endif
#ifndef KSLICE
#define KSLICE 1    // slices of work-items sharing each tile's K-depth (sliced K)
#endif
#ifndef WX
#define WX 0        // work-items along N per warp of 32 (0: plain row-major numbering)
#endif
#ifndef C_VEC
#define C_VEC 0     // set by the host when C's offset and ldc allow VWN-wide stores
#endif
#ifndef A_KM
#define A_KM 1      // set by the host: A given as At (K×M) = 1, or as A (M×K) = 0
#endif
#ifndef A_VEC
#define A_VEC 1     // set by the host: A arrives in whole VWM vectors (0: element by element)
#endif
#ifndef B_KN
#define B_KN 1      // set by the host: B given as K×N = 1, or stored N×K = 0
#endif
#ifndef B_VEC
#define B_VEC 1     // set by the host: B arrives in whole VWN vectors (0: element by element)
#endif
#ifndef B_PAIRS
#define B_PAIRS 0   // set by the host with ASYNC, B_KN = 1 and B_VEC = 0: B arrives in float pairs
#endif
#ifndef GUARD_M
#define GUARD_M 0   // set by the host when M is not a multiple of MWG
#endif
#ifndef GUARD_N
#define GUARD_N 0   // set by the host when N is not a multiple of NWG
#endif
#ifndef GUARD_K
#define GUARD_K 0   // set by the host when K is not a multiple of KWG
#endif
#ifndef SPLIT
#define SPLIT 0     // set by the host when some tiles are split along K
#endif
#ifndef SPLITS
#define SPLITS 1    // set by the host with SPLIT: the most parts any split tile has
#endif
#ifndef SK_LOOP
#define SK_LOOP 0   // set by the host with SPLIT when a stream-K share spans tiles
#endif
#ifndef NV_FENCE
#define NV_FENCE 0  // set by the host on NVIDIA GPUs: device-wide fences in PTX (membar.gl)
#endif

#define MWI (MWG / MDIMC)   // rows of C per work-item
#define NWI (NWG / NDIMC)   // columns of C per work-item
#define MWIV (MWI / VWM)    // ... in vectors
#define NWIV (NWI / VWN)
#define MWGV (MWG / VWM)    // vectors per row of the A tile
#define NWGV (NWG / VWN)
#define WIS (MDIMC * NDIMC) // work-items of one slice: one per block of C
#define WGS (WIS * KSLICE)  // work-items per group: all of them copy tiles
#define KSL (KWG / KSLICE)  // k of each tile that one slice multiplies
#define A_MK (!A_KM && ALK)  // A's local tile is M×K, rows of AROW floats
#define AROW (KWG + 4 * PADA)
#if A_MK && A_VEC
#define AW 4                 // floats per A load along K (a whole vector)
#else
#define AW 1
#endif

#if MWG % (MDIMC * VWM) != 0 || NWG % (NDIMC * VWN) != 0
#error "MWG must be a multiple of MDIMC*VWM and NWG of NDIMC*VWN"
#endif
#if KWG % KUNROLL != 0
#error "KUNROLL must divide KWG"
#endif
#if (KSLICE != 1 && KSLICE != 2 && KSLICE != 4) || KWG % (KSLICE * KUNROLL) != 0
#error "KSLICE must be 1, 2 or 4 and split KWG into whole chunks of KUNROLL"
#endif
#if SA && (KWG * MWGV) % WGS != 0
#error "the A tile must split evenly over the work-items"
#endif
#if SB && (KWG * NWGV) % WGS != 0
#error "the B tile must split evenly over the work-items"
#endif
#if DB && !(SA || SB)
#error "double buffering needs a staged operand"
#endif
#if ASYNC && (ASYNC < 2 || ASYNC > 4 || !SA || !SB || DB)
#error "the cp.async pipeline has 2-4 stages, stages both operands (SA = SB = 1) and replaces DB"
#endif
#if ALK && (ALK != 2 && ALK != 4 || KUNROLL % ALK != 0 || KWG % 4 != 0 || !SA)
#error "ALK is 2 or 4, divides KUNROLL, and needs K-steps of whole vectors and a staged A"
#endif
#if !ASYNC && ((A_KM && !A_VEC) || !B_VEC || !B_KN)
#error "element-by-element and N×K operands need the cp.async pipeline"
#endif
#if ASYNC && !A_MK && (!A_KM || !A_VEC) && ((KWG * MWG) % WGS != 0 || (!A_KM && (KWG % 8 != 0 || MWG % 4 != 0 || (KWG * MWG) % 32 != 0)))
#error "the A tile must split evenly, in floats (and in 4×8 blocks when transposing), over the work-items"
#endif
#if B_PAIRS && (!ASYNC || !B_KN || B_VEC || (KWG * NWG / 2) % WGS != 0)
#error "B in pairs needs ASYNC, a K×N B not in whole vectors, and a tile of pairs that splits evenly"
#endif
#if ASYNC && (!B_KN || !B_VEC) && ((KWG * NWG) % WGS != 0 || (!B_KN && (KWG % 8 != 0 || NWG % 4 != 0 || (KWG * NWG) % 32 != 0)))
#error "the B tile must split evenly, in floats (and in 4×8 blocks when transposing), over the work-items"
#endif
#if WX && (32 % WX != 0 || NDIMC % WX != 0 || MDIMC % (32 / WX) != 0)
#error "WX must divide 32 and NDIMC, and 32/WX must divide MDIMC"
#endif
#if !A_KM && !SA
#error "A in its stored (M×K) form must be staged in local memory"
#endif
#if !A_KM && (KWG * MWG) % WGS != 0
#error "the A tile must split evenly (in floats) over the work-items"
#endif

#if (VWM != 1 && VWM != 2 && VWM != 4 && VWM != 8) || (VWN != 1 && VWN != 2 && VWN != 4 && VWN != 8)
#error "VWM and VWN must be 1, 2, 4 or 8"
#endif
typedef VECTOR(VWM) floatM;  // common/vectors.cl
typedef VECTOR(VWN) floatN;
#define comp_m LANE(VWM)     // lane v of an A vector
#define comp_n LANE(VWN)

#if ASYNC
// PTX cp.async (sm_80+): copy one vector of W floats from global to local memory without a
// register in between. When `ok` is false, src-size 0 reads nothing and fills the vector with
// zeros (the guards). 16-byte copies go through L2 only (.cg: a tile is read once per group);
// .ca is the only form for 4 and 8 bytes; a float8 is two 16-byte copies. A __local pointer
// converted to an integer is its offset in the shared window, which is what the instruction
// takes as its destination.
#define CP_ASYNC_1(dst, src, ok) __asm__ volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;" \
    :: "r"(dst), "l"(src), "r"((ok) ? 4 : 0) : "memory")
#define CP_ASYNC_2(dst, src, ok) __asm__ volatile("cp.async.ca.shared.global [%0], [%1], 8, %2;" \
    :: "r"(dst), "l"(src), "r"((ok) ? 8 : 0) : "memory")
#define CP_ASYNC_4(dst, src, ok) __asm__ volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" \
    :: "r"(dst), "l"(src), "r"((ok) ? 16 : 0) : "memory")
// A 16-byte copy of which only the first `bytes` come from global memory, the rest zero-filled
// (an A row's last vector where K ends inside it).
#define CP_ASYNC_4N(dst, src, bytes) __asm__ volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" \
    :: "r"(dst), "l"(src), "r"(bytes) : "memory")
#define CP_ASYNC_8(dst, src, ok) do { CP_ASYNC_4(dst, src, ok); CP_ASYNC_4((dst) + 16, (src) + 16, ok); } while (0)
#define CP_ASYNC_W(w, dst, src, ok) CP_ASYNC_##w(dst, src, ok)
#define CP_ASYNC(w, dst, src, ok) CP_ASYNC_W(w, dst, src, ok)
#define LOCAL_ADDR(p) ((uint)(size_t)(p))
#define GLOBAL_ADDR(p) ((ulong)(p))
// Groups of copies: one group per tile; wait until at most ASYNC-2 groups (the tiles ahead of
// the next one) are still in flight.
#define CP_COMMIT() __asm__ volatile("cp.async.commit_group;" ::: "memory")
#if ASYNC == 2
#define CP_WAIT() __asm__ volatile("cp.async.wait_group 0;" ::: "memory")
#elif ASYNC == 3
#define CP_WAIT() __asm__ volatile("cp.async.wait_group 1;" ::: "memory")
#else
#define CP_WAIT() __asm__ volatile("cp.async.wait_group 2;" ::: "memory")
#endif
#endif

// Which tile vector a work-item's g-th A vector (h-th B vector) is.
#if STRM
#define MV(g, ty) ((g) * MDIMC + (ty))
#else
#define MV(g, ty) ((ty) * MWIV + (g))
#endif
#if STRN
#define NV(h, tx) ((h) * NDIMC + (tx))
#else
#define NV(h, tx) ((tx) * NWIV + (h))
#endif

#if A_KM && A_VEC
#define LPTA ((KWG * MWGV) / WGS)  // A-tile vectors each work-item loads
typedef floatM a_t;                // what one A load moves
#elif A_MK
// A's tile in pieces of AW k. Where the pieces do not split evenly over the work-items, the
// surplus work-items of the last round load nothing (A_HAS): small tiles with many work-items
// (24×24 with K-steps of 48 in 4 slices: 288 vectors of 4 for 576 work-items).
#define A_PIECES (KWG * MWG / AW)
#define LPTA ((A_PIECES + WGS - 1) / WGS)
#define A_HAS(id) (A_PIECES % WGS == 0 || (id) < A_PIECES)
#if A_VEC
typedef float4 a_t;
#else
typedef float a_t;
#endif
#else
#define LPTA ((KWG * MWG) / WGS)   // A-tile floats each work-item loads (stored form)
typedef float a_t;
#endif
#ifndef A_HAS
#define A_HAS(id) 1
#endif
#if B_KN && B_VEC
#define LPTB ((KWG * NWGV) / WGS)
typedef floatN b_t;
#else
// A B not in whole vectors goes in pieces of BW floats: pairs with B_PAIRS, else single floats.
#if B_PAIRS
#define BW 2
#else
#define BW 1
#endif
#define LPTB ((KWG * NWG / BW) / WGS)  // B-tile pieces each work-item loads
typedef float b_t;
#endif
#define NBUF (ASYNC ? ASYNC : DB ? 2 : 1)
#if ALK
typedef VECTOR(ALK) floatK;  // ALK k of one row of A
#endif

// One output element: alpha·acc (+ beta·C), guarded by the caller.
#if SPLIT
// Makes this work-item's global stores visible to every work-group before it goes on (release),
// or theirs to it (acquire). membar.gl is what CUDA's __threadfence() is; elsewhere mem_fence.
#if NV_FENCE
#define DEVICE_FENCE() __asm__ volatile("membar.gl;" ::: "memory")
#else
#define DEVICE_FENCE() mem_fence(CLK_GLOBAL_MEM_FENCE)
#endif
#endif

#if SPLIT
// How partial tiles lie in the workspace (see WS_AT): float by float for the big tiles, whose
// registers are all taken; a work-item's vectors together for the others, which store and read
// them in a quarter of the instructions (H200, 1548³ in 64×128 tiles split in parts: 0.215-0.218
// ms so, 0.244-0.246 float by float).
#ifndef WS_FLOATS
#define WS_FLOATS (MWG * NWG >= 128 * 128)
#endif
// What the workspace holds one of per position: a float, or a work-item's vector.
#if WS_FLOATS
typedef float ws_t;
#else
typedef floatN ws_t;
#endif
// The sum of a split tile's parts at one position, in part order.
// SPLITS is a constant, so the loop unrolls and all of an element's loads are in flight at once
// (H200: 1548³ 0.222 -> 0.217 ms, 2064³ 0.471 -> 0.462, 4128³ 3.26 -> 3.20 against a run-time count).
inline ws_t sum_parts(__global volatile const ws_t* at, const int parts, const size_t stride) {
  ws_t sum = at[0];
#pragma unroll
  for (int j = 1; j < SPLITS; ++j)
    if (j < parts) sum += at[j * stride];
  return sum;
}

#if WS_FLOATS
// The vector of sums at lanes at, at + lane_stride, ... (a work-item's elements lie WIS apart in
// the workspace; see WS_AT).
inline floatN sum_parts_n(__global volatile const float* at, const size_t lane_stride, const int parts,
                          const size_t stride) {
  floatN r;
  __private float* lanes = (__private float*)&r;  // constant lane indices: r stays in registers
#pragma unroll
  for (int w = 0; w < VWN; ++w) lanes[w] = sum_parts(at + w * lane_stride, parts, stride);
  return r;
}
#endif

// The stream-K group whose share holds K-step `step` of the split tiles' `total`: the last g with
// floor(g · total / groups) <= step.
inline int group_of(const long step, const long total, const int groups) {
  return (int)(((step + 1) * groups + total - 1) / total) - 1;
}
#endif

inline float epilogue(const float acc, const float alpha, const float beta, __global const float* c) {
  const float t = (alpha == 0.0f) ? 0.0f : alpha * acc;
  return (beta == 0.0f) ? t : t + beta * *c;
}

#if A_MK && A_VEC
// Four k of row m of the stored A from k on (k a multiple of 4); zero outside the matrix.
inline float4 a_piece(__global const float4* restrict at, const int m, const int k, const int lda_v, const bool in_m,
                      const int K) {
  if (!in_m) return (float4)(0.0f);
#if GUARD_K
  if (k + 4 > K) {  // the row's last vector, partly past K
    __global const float* row = (__global const float*)(at + (size_t)m * lda_v);
    return (float4)(k < K ? row[k] : 0.0f, k + 1 < K ? row[k + 1] : 0.0f, k + 2 < K ? row[k + 2] : 0.0f, 0.0f);
  }
#endif
  return at[(size_t)m * lda_v + k / 4];
}
#endif

__kernel __attribute__((reqd_work_group_size(NDIMC, MDIMC, KSLICE)))
void xgemm(const int M, const int N, const int K, const int Kp, const float alpha, const float beta,
           __global const a_t* restrict A0, const ulong a_off_v, const int lda_v,
           __global const b_t* restrict B0, const ulong b_off_v, const int ldb_v,
           __global float* restrict C0, const ulong c_offset, const int ldc,
           const int tiles_n, const int full_tiles, const int split_tiles, const int sk_groups,
           __global floatN* restrict ws, __global int* restrict counters) {
  const int lid2 = get_local_id(1) * NDIMC + get_local_id(0);  // place in the slice
#if KSLICE > 1
  const int slice = get_local_id(2);
#else
  const int slice = 0;  // a constant: the one-slice kernel stays as it was
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
#if KSLICE > 1
  // The sums of slices 1.., element by element in work-item order (consecutive work-items,
  // consecutive words), share their local memory with the tiles, which are free once the K loop
  // is over: a group takes the larger of the two instead of both (48×48 tiles in 4 slices with a
  // 2-stage pipeline of K-steps of 48: 39 KiB instead of 66, within the 48 KiB of the H200).
  __local union {
#if SA || SB
    struct {
#if SA && A_MK
      float a[NBUF][MWG][AROW] __attribute__((aligned(16)));  // 16-byte copies land here
#elif SA
      floatM a[NBUF][KWG][MWGV + PADA];
#endif
#if SB
      floatN b[NBUF][KWG][NWGV + PADB];
#endif
    } tiles;
#endif
    floatN sums[KSLICE - 1][MWI * NWIV][WIS];
  } shared_local;
#define As shared_local.tiles.a
#define Bs shared_local.tiles.b
#define slice_sums shared_local.sums
#else
#if SA && A_MK
  __local float As[NBUF][MWG][AROW] __attribute__((aligned(16)));
#elif SA
  __local floatM As[NBUF][KWG][MWGV + PADA];
#endif
#if SB
  __local floatN Bs[NBUF][KWG][NWGV + PADB];
#endif
#endif
  // Which tile of C this group computes, and over which K range. With SPLIT the groups form one
  // row: first the whole tiles, numbered row by row, then the stream-K groups, each going through
  // its segments: K-steps [it, seg_end) of split tile r.
#if SPLIT
  __local int last_part;
  // What the epilogue needs of the current segment (its tile, part, part count and split tile),
  // kept in local memory rather than in registers across the K loop: loads after a barrier are
  // not hoisted above it, so nothing of the segment's bookkeeping stays live through the loop,
  // which in the 128×128 kernel has no register to spare (H200: its split builds took 168-170
  // registers, now 128).
  __local int seg_rec[4];
#define SEG_TILE seg_rec[0]
#define SEG_PART seg_rec[1]
#define SEG_PARTS seg_rec[2]
#define SEG_R seg_rec[3]
#if SK_LOOP
  // Shares that span tiles: a loop over the split tiles the share touches. The host sets SK_LOOP
  // only on NVIDIA (PoCL 3.1 computed garbage with the barriers inside this loop). The share's
  // bounds, too, are read from local memory at each segment.
  __local long share[2];
  __local int share_sk;
  if (get_local_id(0) == 0 && get_local_id(1) == 0 && get_local_id(2) == 0) {
    const int sk0 = (int)get_group_id(0) - full_tiles;
    const long total0 = (long)split_tiles * (Kp / KWG);
    share[0] = sk0 < 0 ? 0 : (long)sk0 * total0 / sk_groups;
    share[1] = sk0 < 0 ? Kp / KWG : (long)(sk0 + 1) * total0 / sk_groups;
    share_sk = sk0;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int seg = 0;; ++seg) {
    const int sk = share_sk, grp = sk + full_tiles;  // sk < 0: a whole tile
    const int steps = Kp / KWG;                               // K-steps of a tile
    const long total = (long)split_tiles * steps;
    const long it_start = share[0], it_stop = share[1];
    const int r_first = sk < 0 ? -1 : (int)(it_start / steps);
    const int segments = sk < 0 ? 1 : (int)((it_stop - 1) / steps) - r_first + 1;
    if (seg >= segments) break;  // the same for the whole group
    const int r = sk < 0 ? -1 : r_first + seg;  // which split tile
    const long tile_begin = r < 0 ? 0 : (long)r * steps;
    const long it = it_start > tile_begin ? it_start : tile_begin;
    const long seg_end = it_stop < tile_begin + steps ? it_stop : tile_begin + steps;
    const int tile = sk < 0 ? grp : full_tiles + r;
    const int k_begin = (int)(it - tile_begin) * KWG, k_end = (int)(seg_end - tile_begin) * KWG;
    // The groups whose shares touch tile r, first to last; this one's place among them is its
    // part (-1: it has the whole tile).
    int part = -1, parts = 1;
    if (r >= 0) {
      const int g0 = group_of(tile_begin, total, sk_groups);
      parts = group_of(tile_begin + steps - 1, total, sk_groups) - g0 + 1;
      part = parts > 1 ? sk - g0 : -1;
    }
#else
  // sk_groups = SPLITS · split_tiles: every share lies in one tile, group sk has part sk % SPLITS
  // of split tile sk / SPLITS (the same split as the loop's, in int arithmetic and no loop: the
  // loop's 64-bit bookkeeping cost the 64×128 tiles a block per SM at 1032³ and 1548³).
  {
    const int grp = get_group_id(0), sk = grp - full_tiles;  // sk < 0: a whole tile
    const int steps = Kp / KWG;                               // K-steps of a tile
    const int r = sk < 0 ? -1 : sk / SPLITS;
    // (SPLITS == 1 is tested by the preprocessor: a constant operand of || makes the compiler warn.)
#if SPLITS == 1
    const int part = -1, parts = 1;
#else
    const int part = sk < 0 ? -1 : sk % SPLITS, parts = SPLITS;
#endif
    const int tile = sk < 0 ? grp : full_tiles + r;
    const int k_begin = part < 0 ? 0 : (int)((long)part * steps / SPLITS) * KWG;
    const int k_end = part < 0 ? Kp : (int)((long)(part + 1) * steps / SPLITS) * KWG;
#endif
    if (lid == 0) {
      SEG_TILE = tile;
      SEG_PART = part;
      SEG_PARTS = parts;
      SEG_R = r;
    }
#else
  const int k_begin = 0, k_end = Kp;
#endif
#if SPLIT
  const int m0v = (tile / tiles_n) * MWGV;  // this group's tile origin, in vectors
  const int n0v = (tile % tiles_n) * NWGV;
#else
  // A 2D grid of tiles without split-K: the group ids are read again where needed instead of
  // held (the linear numbering cost 25 registers in a ptxas build of the PTX clang makes).
  const int m0v = get_group_id(1) * MWGV;
  const int n0v = get_group_id(0) * NWGV;
#endif
  const int MVn = M / VWM, NVn = N / VWN;  // whole vectors in a row (guards)
  // Offsets and leading dimensions come in units of a_t / b_t.
#if A_KM && A_VEC
  __global const a_t* restrict At = A0 + a_off_v + m0v;
#elif A_KM
  __global const a_t* restrict At = A0 + a_off_v + m0v * VWM;                  // column m0 of At, in floats
#else
  __global const a_t* restrict At = A0 + a_off_v + (size_t)m0v * VWM * lda_v;  // row m0 of the stored A
#endif
#if B_KN && B_VEC
  __global const b_t* restrict B = B0 + b_off_v + n0v;
#elif B_KN
  __global const b_t* restrict B = B0 + b_off_v + n0v * VWN;
#else
  __global const b_t* restrict B = B0 + b_off_v + (size_t)n0v * VWN * ldb_v;   // row n0 of the stored N×K B
#endif
  const int m_left = M - m0v * VWM, n_left = N - n0v * VWN;  // rows / columns of C left from here

  floatN acc[MWI][NWIV];
#pragma unroll
  for (int i = 0; i < MWI; ++i)
#pragma unroll
    for (int h = 0; h < NWIV; ++h) acc[i][h] = (floatN)(0.0f);

  // The tile loads: work-item lid moves vectors lid, lid + WGS, ... counted row by row, so
  // consecutive work-items read consecutive vectors of a row (coalesced).
#if SA && DB
  a_t ra[LPTA];
#endif
#if SB && DB
  floatN rb[LPTB];
#endif
// Guarded element reads: zero outside the matrix (only compiled in when the shape needs it).
#if GUARD_K
#define IN_K(k) ((k) < K)
#else
#define IN_K(k) 1
#endif
#if GUARD_M
#define IN_MV(mv) ((mv) < MVn)
#define IN_M(m) ((m) < M)
#else
#define IN_MV(mv) 1
#define IN_M(m) 1
#endif
#if GUARD_N
#define IN_NV(nv) ((nv) < NVn)
#else
#define IN_NV(nv) 1
#endif
#if A_KM
// Vector id of the tile: row id / MWGV (a k), column id % MWGV (a vector of m).
#define A_ELEM(t, id) ((IN_K((t) + (id) / MWGV) && IN_MV(m0v + (id) % MWGV)) \
    ? At[(size_t)((t) + (id) / MWGV) * lda_v + (id) % MWGV] : (floatM)(0.0f))
#define A_STORE(b, id, value) As[b][(id) / MWGV][(id) % MWGV] = (value)
#elif A_MK
// Piece id of the tile: row A_PM (an m), first k A_PK; consecutive work-items read consecutive
// pieces of a row, and store them where they are in the row.
#define A_PM(id) ((id) / (KWG / AW))
#define A_PK(id) ((id) % (KWG / AW) * AW)
#if AW == 4
#define A_ELEM(t, id) a_piece(At, A_PM(id), (t) + A_PK(id), lda_v, IN_M(m0v * VWM + A_PM(id)), K)
#define A_STORE(b, id, value) *(__local float4*)&As[b][A_PM(id)][A_PK(id)] = (value)
#else
#define A_ELEM(t, id) ((IN_M(m0v * VWM + A_PM(id)) && IN_K((t) + A_PK(id))) \
    ? At[(size_t)A_PM(id) * lda_v + (t) + A_PK(id)] : 0.0f)
#define A_STORE(b, id, value) As[b][A_PM(id)][A_PK(id)] = (value)
#endif
#else
// Float id of the tile: row id / KWG (an m), column id % KWG (a k): consecutive work-items read
// consecutive k of a row, and store them transposed into As[k][m].
#define A_ELEM(t, id) ((IN_M(m0v * VWM + (id) / KWG) && IN_K((t) + (id) % KWG)) \
    ? At[(size_t)((id) / KWG) * lda_v + (t) + (id) % KWG] : 0.0f)
#define A_STORE(b, id, value) \
  ((__local float*)As[b][(id) % KWG])[(id) / KWG] = (value)
#endif
#define B_ELEM(t, id) ((IN_K((t) + (id) / NWGV) && IN_NV(n0v + (id) % NWGV)) \
    ? B[(size_t)((t) + (id) / NWGV) * ldb_v + (id) % NWGV] : (floatN)(0.0f))
#define B_STORE(b, id, value) Bs[b][(id) / NWGV][(id) % NWGV] = (value)

// Moves this work-item's share of a tile: LOAD_x(buffer, t) straight into local memory, or
// FETCH_x(t) into the prefetch registers (double buffering) and PUT_x(buffer) from them.
#define LOAD_A(b, t) _Pragma("unroll") for (int l = 0; l < LPTA; ++l) \
    if (A_HAS(l * WGS + lid)) A_STORE(b, l * WGS + lid, A_ELEM(t, l * WGS + lid));
#define LOAD_B(b, t) _Pragma("unroll") for (int l = 0; l < LPTB; ++l) B_STORE(b, l * WGS + lid, B_ELEM(t, l * WGS + lid));
#define FETCH_A(t) _Pragma("unroll") for (int l = 0; l < LPTA; ++l) \
    if (A_HAS(l * WGS + lid)) ra[l] = A_ELEM(t, l * WGS + lid);
#define FETCH_B(t) _Pragma("unroll") for (int l = 0; l < LPTB; ++l) rb[l] = B_ELEM(t, l * WGS + lid);
#define PUT_A(b) _Pragma("unroll") for (int l = 0; l < LPTA; ++l) \
    if (A_HAS(l * WGS + lid)) A_STORE(b, l * WGS + lid, ra[l]);
#define PUT_B(b) _Pragma("unroll") for (int l = 0; l < LPTB; ++l) B_STORE(b, l * WGS + lid, rb[l]);
#if ASYNC
// Starts the copies of tile t into buffer b (this work-item's share); a guarded-out element reads
// from the tile origin (always valid) and is zero-filled.
#if GUARD_M
#define IN_MF(m) ((m) < m_left)
#else
#define IN_MF(m) 1
#endif
#if GUARD_N
#define IN_NF(n) ((n) < n_left)
#else
#define IN_NF(n) 1
#endif
// Of a transposing copy: float id -> (row of the stored operand, k) in blocks of 4 rows × 8 k.
#define T_ROW(id) (((id) / 32) / (KWG / 8) * 4 + ((id) % 32) / 8)
#define T_K(id) (((id) / 32) % (KWG / 8) * 8 + (id) % 8)
#ifndef STREAM_COPIES
#define STREAM_COPIES 2
#endif
// Only operands stored K-major (At, a K×N B) stream: theirs is the address that needs a multiply
// by the leading dimension per tile; an M×K A or an N×K B moves on by KWG floats, an add.
#define A_STREAM (A_KM && LPTA <= STREAM_COPIES)
#define B_STREAM (B_KN && LPTB <= STREAM_COPIES)
// The tile row and column of a work-item's l-th copy, in rows of rowv. Where the copies are
// streamed and the work-group covers whole rows, the row is split into the copy's part and the
// work-item's, so that the compiler sees the copies a constant number of rows apart (H200: the
// 128×128 kernel 0.4-0.6 % faster at 4096³ and 8192³ than with the row as one quotient).
#define COPY_ROW(l, rowv, split) ((split) ? (l) * (WGS / (rowv)) + lid / (rowv) : ((l) * WGS + lid) / (rowv))
#define COPY_COL(l, rowv, split) ((split) ? lid % (rowv) : ((l) * WGS + lid) % (rowv))
// The buffers go round. Two by selects: with the streamed copies 0.8-1.1 % faster than by % (H200,
// 4096³ and 8192³ on the 128×128 tiles); three or four by %, which the small tiles ran faster.
#if ASYNC == 2
#define NEXT_BUF(b) ((b) == 1 ? 0 : 1)
#define PREV_BUF(b) ((b) == 0 ? 1 : 0)
#else
#define NEXT_BUF(b) (((b) + 1) % ASYNC)
#define PREV_BUF(b) (((b) + ASYNC - 1) % ASYNC)
#endif
// Per form of each operand, for a work-item's l-th copy of a tile: its row and column in the
// tile as the operand is stored (K×M: a k and an m; M×K: an m and a k), its source as an offset
// from the tile origin At / B for the tile at k, its local address in buffer b, its guard (a
// byte count for A's 16-byte pieces along K), and the copy itself.
#if A_KM && A_VEC
#define A_K(l) COPY_ROW(l, MWGV, A_STREAM && WGS % MWGV == 0)
#define A_M(l) COPY_COL(l, MWGV, A_STREAM && WGS % MWGV == 0)  // a vector of m
#define A_OFF(l, k) ((size_t)((k) + A_K(l)) * lda_v + A_M(l))
#define A_DST(l, b) LOCAL_ADDR(&As[b][A_K(l)][A_M(l)])
#define A_OK(l, t) (IN_K((t) + A_K(l)) && IN_MV(m0v + A_M(l)))
#define A_COPY(dst, src, ok) CP_ASYNC(VWM, dst, GLOBAL_ADDR(src), ok)
#elif A_KM
#define A_K(l) COPY_ROW(l, MWG, A_STREAM && WGS % MWG == 0)
#define A_M(l) COPY_COL(l, MWG, A_STREAM && WGS % MWG == 0)
#define A_OFF(l, k) ((size_t)((k) + A_K(l)) * lda_v + A_M(l))
#define A_DST(l, b) LOCAL_ADDR((__local float*)As[b][A_K(l)] + A_M(l))
#define A_OK(l, t) (IN_K((t) + A_K(l)) && IN_MF(A_M(l)))
#define A_COPY(dst, src, ok) CP_ASYNC(1, dst, GLOBAL_ADDR(src), ok)
#elif A_MK
#define A_M(l) A_PM((l) * WGS + lid)
#define A_K(l) A_PK((l) * WGS + lid)
#define A_DST(l, b) LOCAL_ADDR(&As[b][A_M(l)][A_K(l)])
#if A_VEC
// 16-byte copies along K; where K ends inside a vector, only the bytes before it are read.
#if GUARD_K
#define A_BYTES(k) (min(max(K - (k), 0), 4) * 4)
#else
#define A_BYTES(k) 16
#endif
#define A_OFF(l, k) ((size_t)A_M(l) * lda_v + ((k) + A_K(l)) / 4)
#define A_OK(l, t) (IN_MF(A_M(l)) ? A_BYTES((t) + A_K(l)) : 0)
#define A_COPY(dst, src, bytes) CP_ASYNC_4N(dst, GLOBAL_ADDR(src), bytes)
#else
#define A_OFF(l, k) ((size_t)A_M(l) * lda_v + (k) + A_K(l))
#define A_OK(l, t) (IN_K((t) + A_K(l)) && IN_MF(A_M(l)))
#define A_COPY(dst, src, ok) CP_ASYNC(1, dst, GLOBAL_ADDR(src), ok)
#endif
#else
// Transposing copies of the stored M×K A into As[k][m].
#define A_M(l) T_ROW((l) * WGS + lid)
#define A_K(l) T_K((l) * WGS + lid)
#define A_OFF(l, k) ((size_t)A_M(l) * lda_v + (k) + A_K(l))
#define A_DST(l, b) LOCAL_ADDR((__local float*)As[b][A_K(l)] + A_M(l))
#define A_OK(l, t) (IN_K((t) + A_K(l)) && IN_MF(A_M(l)))
#define A_COPY(dst, src, ok) CP_ASYNC(1, dst, GLOBAL_ADDR(src), ok)
#endif
#if B_KN && B_VEC
#define B_K(l) COPY_ROW(l, NWGV, B_STREAM && WGS % NWGV == 0)
#define B_N(l) COPY_COL(l, NWGV, B_STREAM && WGS % NWGV == 0)  // a vector of n
#define B_OFF(l, k) ((size_t)((k) + B_K(l)) * ldb_v + B_N(l))
#define B_DST(l, b) LOCAL_ADDR(&Bs[b][B_K(l)][B_N(l)])
#define B_OK(l, t) (IN_K((t) + B_K(l)) && IN_NV(n0v + B_N(l)))
#define B_COPY(dst, src, ok) CP_ASYNC(VWN, dst, GLOBAL_ADDR(src), ok)
#elif B_KN
// Pieces of BW floats; with pairs N is even, so a pair is either wholly inside N or wholly outside.
#define B_K(l) COPY_ROW(l, NWG / BW, B_STREAM && WGS % (NWG / BW) == 0)
#define B_N(l) (BW * COPY_COL(l, NWG / BW, B_STREAM && WGS % (NWG / BW) == 0))
#define B_OFF(l, k) ((size_t)((k) + B_K(l)) * ldb_v + B_N(l))
#define B_DST(l, b) LOCAL_ADDR((__local float*)Bs[b][B_K(l)] + B_N(l))
#define B_OK(l, t) (IN_K((t) + B_K(l)) && IN_NF(B_N(l)))
#define B_COPY(dst, src, ok) CP_ASYNC(BW, dst, GLOBAL_ADDR(src), ok)
#else
// Transposing copies of the stored N×K B into Bs[k][n].
#define B_N(l) T_ROW((l) * WGS + lid)
#define B_K(l) T_K((l) * WGS + lid)
#define B_OFF(l, k) ((size_t)B_N(l) * ldb_v + (k) + B_K(l))
#define B_DST(l, b) LOCAL_ADDR((__local float*)Bs[b][B_K(l)] + B_N(l))
#define B_OK(l, t) (IN_K((t) + B_K(l)) && IN_NF(B_N(l)))
#define B_COPY(dst, src, ok) CP_ASYNC(1, dst, GLOBAL_ADDR(src), ok)
#endif
// Streamed copies: where a work-item has at most STREAM_COPIES copies of an operand per tile,
// each keeps its source (a_src[l], b_src[l]) and its local address in buffer 0 (a_dst[l],
// b_dst[l]) across the K loop, set up before the prologue. Tiles are issued in order, each once,
// so an issue moves the sources one tile, KWG rows of lda_v / ldb_v, on. Why: in the
// 128×128 kernel the copies' addresses, computed again for every tile ((t + k)·lda in 64 bits,
// on the FMA pipe), sat between the barrier and the first local load, and that stretch held 22 %
// of the cycles in which no warp issued (Nsight Compute on the H200, docs/performance.md).
// Copies that are not streamed compute both per tile. More streamed copies hold more registers:
// with up to four per operand (STREAM_COPIES 4) 512³ ran 25-30 % slower (0.019 -> 0.024 ms), and
// with every form streamed the medium tiles at 1024³ took 0.090 ms instead of 0.066 (H200).
// A guarded-out copy reads from the tile origin (always valid) and is zero-filled.
#if A_STREAM
#define ISSUE_A(b, t) _Pragma("unroll") for (int l = 0; l < LPTA; ++l) if (A_HAS(l * WGS + lid)) { \
    const int ok = A_OK(l, t); \
    A_COPY(a_dst[l] + (uint)(b) * (uint)sizeof(As[0]), ok ? a_src[l] : At, ok); \
    a_src[l] += KWG * (size_t)lda_v; }
#else
#define ISSUE_A(b, t) _Pragma("unroll") for (int l = 0; l < LPTA; ++l) if (A_HAS(l * WGS + lid)) { \
    const int ok = A_OK(l, t); \
    A_COPY(A_DST(l, b), At + (ok ? A_OFF(l, t) : 0), ok); }
#endif
#if B_STREAM
#define ISSUE_B(b, t) _Pragma("unroll") for (int l = 0; l < LPTB; ++l) { \
    const bool ok = B_OK(l, t); \
    B_COPY(b_dst[l] + (uint)(b) * (uint)sizeof(Bs[0]), ok ? b_src[l] : B, ok); \
    b_src[l] += KWG * (size_t)ldb_v; }
#else
#define ISSUE_B(b, t) _Pragma("unroll") for (int l = 0; l < LPTB; ++l) { \
    const bool ok = B_OK(l, t); \
    B_COPY(B_DST(l, b), B + (ok ? B_OFF(l, t) : 0), ok); }
#endif
#endif

// Vector g of this work-item's A fragment (A's tile stored K×M) and vector h of its B fragment,
// at k of the tile in buffer bf; from global memory where the operand is not staged.
#if SA
#define A_PART(bf, k, g) As[bf][k][MV(g, ty)]
#else
#define A_PART(bf, k, g) ((IN_K(t + (k)) && IN_MV(m0v + MV(g, ty))) ? At[(size_t)(t + (k)) * lda_v + MV(g, ty)] : (floatM)(0.0f))
#endif
#if SB
#define B_FRAG(bf, k, h) Bs[bf][k][NV(h, tx)]
#else
#define B_FRAG(bf, k, h) ((IN_K(t + (k)) && IN_NV(n0v + NV(h, tx))) ? B[(size_t)(t + (k)) * ldb_v + NV(h, tx)] : (floatN)(0.0f))
#endif
// The K loop's step, rotated or not: the fragments of k-step k of buffer bf into a (MWI floats)
// and b (NWIV vectors), FRAGS, and their product added to the accumulators, MULTIPLY.
#define FRAGS(bf, k, a, b) { \
    _Pragma("unroll") for (int g = 0; g < MWIV; ++g) { \
      const floatM part = A_PART(bf, k, g); \
      _Pragma("unroll") for (int v = 0; v < VWM; ++v) a[g * VWM + v] = comp_m(part, v); } \
    _Pragma("unroll") for (int h = 0; h < NWIV; ++h) b[h] = B_FRAG(bf, k, h); }
#define MULTIPLY(a, b) _Pragma("unroll") for (int i = 0; i < MWI; ++i) \
    _Pragma("unroll") for (int h = 0; h < NWIV; ++h) acc[i][h] += a[i] * b[h];

// The rotated K loop (ROTATE; cp.async pipeline, A's tile stored K×M): each k-step's fragments
// are loaded while the k-step before it is multiplied, alternating between two register sets
// (even k-steps in a0/b0, odd ones in a1/b1), and so across the barrier too: the first fragments
// of the next tile are loaded right after it, and the last k-step of this tile is multiplied
// while they come. Unrotated, every tile begins with the barrier, then the first local loads, then
// multiply-adds that wait for them: 38 % of the cycles in which no warp issued in the 128×128
// kernel at 4096³ (Nsight Compute on the H200, docs/performance.md). The last tile is peeled off
// the loop so that the barrier is in no branch. On the H200 it paid with 3 stages (the medium and
// small entries: 1032³ 0.0796 -> 0.0773 ms, 128³ 8.1 -> 7.4 µs) and cost the 2-stage 128×128
// tiles 0.1-0.3 % (4096³, 8192³; docs/performance.md), hence the default.
#ifndef ROTATE
#define ROTATE (ASYNC >= 3)
#endif
#define ROTATED (ROTATE && ASYNC && !A_MK && KSL % 2 == 0)
#if ROTATED
// This slice's k-steps of the tile in buffer buf but the last, which is left loaded in a1/b1.
#define KSTEPS_BUT_LAST() _Pragma("unroll") for (int kk = 0; kk < KSL; kk += 2) { \
    FRAGS(buf, slice * KSL + kk + 1, a1, b1) \
    MULTIPLY(a0, b0) \
    if (kk + 2 < KSL) { \
      FRAGS(buf, slice * KSL + kk + 2, a0, b0) \
      MULTIPLY(a1, b1) } }
// After the barrier: the copies of tile tn into the buffer just read, and the first fragments of
// the next tile (whose copies CP_WAIT saw land) into a0/b0.
#define NEXT_TILE(tn) { \
    CP_WAIT(); \
    barrier(CLK_LOCAL_MEM_FENCE); \
    if ((tn) < k_end) { \
      ISSUE_A(buf, tn) \
      ISSUE_B(buf, tn) } \
    CP_COMMIT(); \
    FRAGS(NEXT_BUF(buf), slice * KSL, a0, b0) }
#endif

#if ASYNC
  // The streamed copies' state (ISSUE_A, ISSUE_B): where each of this work-item's copies of the
  // first tile comes from and where it goes in buffer 0.
#define STREAM_STATE(src, dst, T, copies, origin, OFF, DST) \
  __global const T* src[copies]; \
  uint dst[copies]; \
  _Pragma("unroll") for (int l = 0; l < (copies); ++l) { \
    src[l] = (origin) + OFF(l, k_begin); \
    dst[l] = DST(l, 0); }
#if A_STREAM
  STREAM_STATE(a_src, a_dst, a_t, LPTA, At, A_OFF, A_DST)
#endif
#if B_STREAM
  STREAM_STATE(b_src, b_dst, b_t, LPTB, B, B_OFF, B_DST)
#endif
  // Prologue: tiles 0 .. ASYNC-2 in flight, one commit group each (empty past the end, so that
  // the group count stays uniform for the waits).
#pragma unroll
  for (int st = 0; st < ASYNC - 1; ++st) {
    const int ts = k_begin + st * KWG;
    if (ts < k_end) {
      ISSUE_A(st, ts)
      ISSUE_B(st, ts)
    }
    CP_COMMIT();
  }
#elif DB
  // Prologue: tile 0 into buffer 0.
#if SA
  LOAD_A(0, k_begin)
#endif
#if SB
  LOAD_B(0, k_begin)
#endif
  barrier(CLK_LOCAL_MEM_FENCE);
#endif

  int buf = 0;
#if ROTATED
  float a0[MWI], a1[MWI];
  floatN b0[NWIV], b1[NWIV];
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
#if ASYNC
    CP_WAIT();                      // this work-item's copies of tile t have landed,
    barrier(CLK_LOCAL_MEM_FENCE);   // everyone's have, and everyone is done with tile t-1
    {
      // Tile t+ASYNC-1 goes into the buffer tile t-1 used, free since the barrier.
      const int tn = t + (ASYNC - 1) * KWG;
      const int bn = PREV_BUF(buf);
      if (tn < k_end) {
        ISSUE_A(bn, tn)
        ISSUE_B(bn, tn)
      }
      CP_COMMIT();
    }
#elif DB
    // Issue the loads of tile t+1 now; they complete while tile t is multiplied.
    const bool more = t + KWG < k_end;
    if (more) {
#if SA
      FETCH_A(t + KWG)
#endif
#if SB
      FETCH_B(t + KWG)
#endif
    }
#else
#if SA
    LOAD_A(0, t)
#endif
#if SB
    LOAD_B(0, t)
#endif
#if SA || SB
    barrier(CLK_LOCAL_MEM_FENCE);
#endif
#endif

#if A_MK
    // A's tile is M×K: ALK k of each of this work-item's rows in one load, then ALK k-steps.
#pragma unroll 1
    for (int kc = 0; kc < KSL; kc += KUNROLL) {
#pragma unroll
      for (int kq = 0; kq < KUNROLL; kq += ALK) {
        const int k = slice * KSL + kc + kq;
        floatK a[MWI];
#pragma unroll
        for (int g = 0; g < MWIV; ++g)
#pragma unroll
          for (int v = 0; v < VWM; ++v) a[g * VWM + v] = *(__local const floatK*)&As[buf][MV(g, ty) * VWM + v][k];
#pragma unroll
        for (int w = 0; w < ALK; ++w) {
          floatN b[NWIV];
#pragma unroll
          for (int h = 0; h < NWIV; ++h) b[h] = B_FRAG(buf, k + w, h);
#pragma unroll
          for (int i = 0; i < MWI; ++i)
#pragma unroll
            for (int h = 0; h < NWIV; ++h) acc[i][h] += LANE(ALK)(a[i], w) * b[h];
        }
      }
    }
#else
#pragma unroll KUNROLL
    for (int kk = 0; kk < KSL; ++kk) {
      const int k = slice * KSL + kk;  // this slice's part of the tile
      float a[MWI];
      floatN b[NWIV];
      FRAGS(buf, k, a, b)
      MULTIPLY(a, b)
    }
#endif

#if ASYNC
    buf = NEXT_BUF(buf);  // the next iteration's barrier protects this buffer
#elif DB
    if (more) {
#if SA
      PUT_A(buf ^ 1)
#endif
#if SB
      PUT_B(buf ^ 1)
#endif
    }
    // One barrier: the other buffer is complete, and everyone has finished reading this one
    // (which the next iteration's stores will overwrite only after the following barrier).
    barrier(CLK_LOCAL_MEM_FENCE);
    buf ^= 1;
#elif SA || SB
    barrier(CLK_LOCAL_MEM_FENCE);
#endif
  }
#endif  // ROTATED

#if KSLICE > 1
  // Sliced K: slice 0 adds the other slices' sums in slice order (the result does not depend on
  // which slice finished first) and alone stores C below. The sums overwrite the tiles: first
  // every slice must be done reading them (no copy is in flight: the pipeline's groups past the
  // last tile are empty). Slice 0's reads end before the next barrier, after which a stream-K
  // group's next segment copies into the tiles again.
  barrier(CLK_LOCAL_MEM_FENCE);
  if (slice > 0) {
#pragma unroll
    for (int i = 0; i < MWI; ++i)
#pragma unroll
      for (int h = 0; h < NWIV; ++h) slice_sums[slice - 1][i * NWIV + h][lid2] = acc[i][h];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (slice == 0) {
#pragma unroll
    for (int sl = 0; sl < KSLICE - 1; ++sl)
#pragma unroll
      for (int i = 0; i < MWI; ++i)
#pragma unroll
        for (int h = 0; h < NWIV; ++h) acc[i][h] += slice_sums[sl][i * NWIV + h][lid2];
  }
#endif

  // Epilogue: alpha and beta, guarded stores into the caller's C (by slice 0).
  __global float* restrict C = C0 + c_offset;
  // Stores alpha·VALUE + beta·C for every element of this work-item; VALUE(g, v, h) gives its
  // vector of results (a macro so that the split-K path can add up its parts element by element,
  // each dead once stored, instead of holding a second set of accumulators).
#define STORE_C(VALUE) \
  _Pragma("unroll") for (int g = 0; g < MWIV; ++g) \
  _Pragma("unroll") for (int v = 0; v < VWM; ++v) { \
    const int row = (m0v + MV(g, ty)) * VWM + v; \
    if (row >= M) continue; \
    __global float* crow = C + (size_t)row * ldc; \
    _Pragma("unroll") for (int h = 0; h < NWIV; ++h) { \
      const int col = (n0v + NV(h, tx)) * VWN; \
      if (col >= N) continue; \
      const floatN r = VALUE(g, v, h); \
      STORE_VECTOR(crow, col, r) \
    } \
  }
#if C_VEC
#define STORE_VECTOR(crow, col, r) \
  if (col + VWN <= N) { \
    __global floatN* cv = (__global floatN*)(crow + col); \
    floatN out = (alpha == 0.0f) ? (floatN)(0.0f) : alpha * r; \
    if (beta != 0.0f) out += beta * *cv; \
    *cv = out; \
  } else { STORE_ELEMENTS(crow, col, r) }
#else
#define STORE_VECTOR(crow, col, r) STORE_ELEMENTS(crow, col, r)
#endif
#define STORE_ELEMENTS(crow, col, r) \
  _Pragma("unroll") for (int w = 0; w < VWN; ++w) \
    if (col + w < N) crow[col + w] = epilogue(comp_n(r, w), alpha, beta, crow + col + w);
#define ACC(g, v, h) acc[(g) * VWM + (v)][h]
// Where lane w of element (g, v, h) of work-item lid2 lies in a partial tile: element by element,
// each the work-items' in a row (so that a store of all work-items is coalesced), float by float.
// Not a work-item's vector at a time: a vector store of the accumulators makes the register
// allocator keep each of them in four aligned registers, and then half the multiply-adds of the K
// loop read two registers of one bank (in a ptxas build of the 128×128 split kernel: 607 of the
// K loop's multiply-adds against 141 unsplit, 11 % more cycles; H200, 4096³: every split build of
// these tiles ran 9.5 % slower than the unsplit kernel, and float by float within 1 %).
#define WS_AT(g, v, h, w) ((size_t)(((((g) * VWM + (v)) * NWIV + (h)) * VWN + (w)) * WIS + lid2))
// Otherwise (WS_FLOATS = 0) the partial tile lies row by row, and element (g, v, h) is AT(g, v, h)
// vectors from this work-item's first: a constant, so that the compiler does not hoist a 64-bit
// address per element out of the K loop (that cost 24 registers in a ptxas build).
#define AT(g, v, h) (((MV(g, 0) - MV(0, 0)) * VWM + (v)) * NWGV + NV(h, 0) - NV(0, 0))

#if SPLIT
  // A whole tile is stored at once; a part goes to the workspace, and the last part of a tile
  // adds them up. The barriers are outside any branch (PoCL miscompiled them inside one), so
  // groups of whole tiles pass them too, after their stores.
  barrier(CLK_LOCAL_MEM_FENCE);               // the segment's record (seg_rec) is written
  {
  // The segment's tile, part and origin again, from its record: these shadow the ones computed
  // before the K loop, so that those need not live through it.
  const int part = SEG_PART, parts = SEG_PARTS, r = SEG_R;
  const int m0v = (SEG_TILE / tiles_n) * MWGV, n0v = (SEG_TILE % tiles_n) * NWGV;
  const size_t tile_f = (size_t)MWG * NWG;    // one partial tile, in floats
#if !WS_FLOATS
  const size_t first = (size_t)MV(0, ty) * VWM * NWGV + NV(0, tx);  // this work-item's first vector
#endif
  // Only slice 0 stores (it holds the sums); all slices pass the barriers.
  if (slice == 0 && part < 0) {
    STORE_C(ACC)
  } else if (slice == 0) {
    // The workspace holds, per split tile and part, the MWG×NWG partial tile (WS_FLOATS).
#if WS_FLOATS
    __global float* own = (__global float*)ws + ((size_t)r * SPLITS + part) * tile_f;
#pragma unroll
    for (int g = 0; g < MWIV; ++g)
#pragma unroll
      for (int v = 0; v < VWM; ++v)
#pragma unroll
        for (int h = 0; h < NWIV; ++h)
#pragma unroll
          for (int w = 0; w < VWN; ++w) own[WS_AT(g, v, h, w)] = comp_n(ACC(g, v, h), w);
#else
    __global floatN* own = ws + ((size_t)r * SPLITS + part) * (tile_f / VWN) + first;
#pragma unroll
    for (int g = 0; g < MWIV; ++g)
#pragma unroll
      for (int v = 0; v < VWM; ++v)
#pragma unroll
        for (int h = 0; h < NWIV; ++h) own[AT(g, v, h)] = ACC(g, v, h);
#endif
    DEVICE_FENCE();                  // release: this work-item's part is visible everywhere
  }
  barrier(CLK_GLOBAL_MEM_FENCE);     // ... and so is the whole group's
  if (lid == 0) {
    last_part = part >= 0 && atomic_inc(counters + r) == parts - 1;
    if (last_part) counters[r] = 0;  // all parts have counted: ready for the next batch item
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (slice == 0 && last_part) {     // uniform over each slice
    DEVICE_FENCE();                  // acquire: the other parts' stores are visible here
    // All parts from the workspace, this one's too, in part order. Volatile loads: never from a
    // cache that may hold the workspace as it was before.
#if WS_FLOATS
    __global volatile const float* from = (__global volatile const float*)ws + (size_t)r * SPLITS * tile_f;
#define SUM_PARTS(g, v, h) sum_parts_n(from + WS_AT(g, v, h, 0), WIS, parts, tile_f)
#else
    __global volatile const floatN* from = ws + (size_t)r * SPLITS * (tile_f / VWN) + first;
#define SUM_PARTS(g, v, h) sum_parts(from + AT(g, v, h), parts, tile_f / VWN)
#endif
    STORE_C(SUM_PARTS)
  }
  }
  barrier(CLK_LOCAL_MEM_FENCE);      // the next segment's copies reuse the local tiles and its record
  }  // the segment loop (or block)
#else
  if (slice == 0) {
    STORE_C(ACC)
  }
#endif
}
#if KSLICE > 1
#undef As
#undef Bs
#undef slice_sums
#endif
