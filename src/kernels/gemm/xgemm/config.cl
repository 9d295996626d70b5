// xgemm/config.cl — the parameters of gemm/xgemm/xgemm.cl: their defaults and meaning, the values
// derived from them, and the combinations the kernel cannot build.
//
// Tunables (the tuner searches them, src/tune/):
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
//                 arithmetic each take about 3 µs and do not overlap); slices give the scheduler
//                 more warps without more instructions per work-item;
//   ALK           below.
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
//   kernel before the GEMM (which at mid sizes costs more than the copies; docs/tuning.md).
//   A transposing copy moves 4 rows × 8 k per warp: 32-byte pieces of 4 rows from global memory,
//   and, with a local row length of 4 (mod 32) floats (PADA = 1 with VWM = 4), 32 different banks.
// ALK (2 or 4; tunable, with A_KM = 0 only): A's tile stays in local memory as the caller stores
// it, a row of KWG k (plus 4·PADA floats of padding) per m, so that it arrives in 16-byte pieces
// along K (A_VEC = 1: lda and the offsets on 4-float boundaries; element by element otherwise)
// instead of being transposed on its way. The K loop then reads ALK k of each of a work-item's
// rows at once and multiplies them over ALK steps: as many bytes of local memory per multiply-add
// as the transposed layout, in as many loads for ALK = 4, without a packing kernel before the GEMM
// and without 4-byte copies, but with more live registers. On the H200 that pays for the small
// tiles only: the 128×128 tiles take 160-172 registers with it and run 24-29 % slower than with
// A packed (docs/tuning.md).
// GUARD_M, GUARD_N, GUARD_K: loads outside M, N or K read zero, so operands need no padding when
// the shape is not a multiple of the tile (the host sets them only then). C is the caller's
// matrix: M×N inside a buffer with leading dimension ldc and offset c_offset; stores are guarded,
// so C is never written outside M×N. beta == 0 never reads C; alpha == 0 drops the product (BLAS
// semantics).
// SPLIT, SPLITS, SK_LOOP: split-K and stream-K, xgemm/schedule.cl.
//
// Elements are `real` (common/vectors.cl, PRECISION); the floats and bytes counted above are
// float32's, and twice as many bytes in double: the cp.async copies of doubles move 8 and 16
// bytes, and vectors of four or eight as two or four 16-byte copies.

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
#ifndef BATCHED
#define BATCHED 0   // set by the host for a batch of more than one item, or one given by arrays
#endif
#ifndef GROUPED
#define GROUPED 0   // set by the host for a grouped call: problems from a work list (schedule.cl)
#endif
#ifndef SPLITS
#define SPLITS 1    // set by the host with SPLIT: the most parts any split tile has
#endif
#ifndef SK_LOOP
#define SK_LOOP 0   // set by the host with SPLIT when a stream-K share spans tiles
#endif
// The K loop rotated across its barrier (xgemm/multiply.cl), where the pipeline has 3-4 stages:
// on the H200 it pays with 3 stages (the medium and small entries: 1032³ 0.0796 -> 0.0773 ms,
// 128³ 8.1 -> 7.4 µs) and costs the 2-stage 128×128 tiles 0.1-0.3 % (4096³, 8192³;
// docs/performance.md).
#ifndef ROTATE
#define ROTATE (ASYNC >= 3)
#endif
// The most copies per operand and tile that a work-item keeps streamed state for (ISSUE_A,
// ISSUE_B in xgemm/staging.cl say why).
#ifndef STREAM_COPIES
#define STREAM_COPIES 2
#endif
// How partial tiles lie in the split-K workspace (xgemm/epilogue.cl, WS_AT): float by float for
// the big tiles, whose registers are all taken; a work-item's vectors together for the others,
// which store and read them in a quarter of the instructions (H200, 1548³ in 64×128 tiles split
// in parts: 0.215-0.218 ms so, 0.244-0.246 float by float).
#ifndef WS_FLOATS
#define WS_FLOATS (MWG * NWG >= 128 * 128)
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
#define NBUF (ASYNC ? ASYNC : DB ? 2 : 1)  // local buffers per operand
#define ROTATED (ROTATE && ASYNC && !A_MK && KSL % 2 == 0)

// What one load of each operand moves, and how many of them a work-item makes per tile: work-item
// lid moves pieces lid, lid + WGS, ... of the tile counted row by row, so that consecutive
// work-items read consecutive pieces of a row (coalesced).
#if A_KM && A_VEC
#define LPTA ((KWG * MWGV) / WGS)  // A-tile vectors each work-item loads
#elif A_MK
// A's tile in pieces of AW k. Where the pieces do not split evenly over the work-items, the
// surplus work-items of the last round load nothing (A_HAS): small tiles with many work-items
// (24×24 with K-steps of 48 in 4 slices: 288 vectors of 4 for 576 work-items).
#define A_PIECES (KWG * MWG / AW)
#define LPTA ((A_PIECES + WGS - 1) / WGS)
#define A_HAS(id) (A_PIECES % WGS == 0 || (id) < A_PIECES)
#else
#define LPTA ((KWG * MWG) / WGS)   // A-tile floats each work-item loads (stored form)
#endif
#ifndef A_HAS
#define A_HAS(id) 1
#endif
#if B_KN && B_VEC
#define LPTB ((KWG * NWGV) / WGS)
#else
// A B not in whole vectors goes in pieces of BW floats: pairs with B_PAIRS, else single floats.
#if B_PAIRS
#define BW 2
#else
#define BW 1
#endif
#define LPTB ((KWG * NWG / BW) / WGS)  // B-tile pieces each work-item loads
#endif
// Only operands stored K-major (At, a K×N B) stream their copies (xgemm/staging.cl): theirs is
// the address that needs a multiply by the leading dimension per tile; an M×K A or an N×K B moves
// on by KWG floats, an add.
#define A_STREAM (A_KM && LPTA <= STREAM_COPIES)
#define B_STREAM (B_KN && LPTB <= STREAM_COPIES)

#if GROUPED && (BATCHED || SPLIT)
#error "a grouped call is neither a batch nor split along K"
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
#if !IN_NATIVE
#error "xgemm reads A and B as real: the host packs (and so widens) 16-bit operands first"
#endif

typedef VECTOR(VWM) realM;  // common/vectors.cl
typedef VECTOR(VWN) realN;
#define comp_m LANE(VWM)    // lane v of an A vector
#define comp_n LANE(VWN)
#if ALK
typedef VECTOR(ALK) realK;  // ALK k of one row of A
#endif
// What one load of each operand moves: the kernel's A and B arguments point to these.
#if A_KM && A_VEC
typedef realM a_t;
#elif A_MK && A_VEC
typedef real4 a_t;
#else
typedef real a_t;
#endif
#if B_KN && B_VEC
typedef realN b_t;
#else
typedef real b_t;
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
