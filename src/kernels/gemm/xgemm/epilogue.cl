// xgemm/epilogue.cl — from the accumulators to C: the slices' sums added (sliced K), then
// alpha·acc + beta·C stored into the caller's C, guarded, by slice 0; with SPLIT, a part of a
// split tile goes to the workspace instead, and the last part of a tile to finish adds them all up
// and stores the sum.

// Sliced K: slice 0 adds the other slices' sums in slice order (the result does not depend on
// which slice finished first) and alone stores C. The sums overwrite the tiles (xgemm/staging.cl,
// LOCAL_TILES): first every slice must be done reading them (no copy is in flight: the pipeline's
// groups past the last tile are empty). Slice 0's reads end before the next barrier, after which
// a stream-K group's next segment copies into the tiles again.
#if KSLICE > 1
#define SUM_SLICES \
  barrier(CLK_LOCAL_MEM_FENCE); \
  if (slice > 0) { \
    _Pragma("unroll") for (int i = 0; i < MWI; ++i) \
      _Pragma("unroll") for (int h = 0; h < NWIV; ++h) slice_sums[slice - 1][i * NWIV + h][lid2] = acc[i][h]; \
  } \
  barrier(CLK_LOCAL_MEM_FENCE); \
  if (slice == 0) { \
    _Pragma("unroll") for (int sl = 0; sl < KSLICE - 1; ++sl) \
      _Pragma("unroll") for (int i = 0; i < MWI; ++i) \
        _Pragma("unroll") for (int h = 0; h < NWIV; ++h) acc[i][h] += slice_sums[sl][i * NWIV + h][lid2]; \
  }
#else
#define SUM_SLICES
#endif

// Stores alpha·VALUE + beta·C for every element of this work-item (axpby, SCALE and MULADD of
// common/vectors.cl); VALUE(g, v, h) gives its vector of results (a macro so that the split-K
// path can add up its parts element by element, each dead once stored, instead of holding a
// second set of accumulators).
#define STORE_C(VALUE) \
  _Pragma("unroll") for (int g = 0; g < MWIV; ++g) \
  _Pragma("unroll") for (int v = 0; v < VWM; ++v) { \
    const int row = (m0v + MV(g, ty)) * VWM + v; \
    if (row >= M) continue; \
    __global out_t* crow = C + (size_t)row * ldc; \
    _Pragma("unroll") for (int h = 0; h < NWIV; ++h) { \
      const int col = (n0v + NV(h, tx)) * VWN; \
      if (col >= N) continue; \
      const realN r = VALUE(g, v, h); \
      STORE_VECTOR(crow, col, r) \
    } \
  }
#if C_VEC && !OUT_NATIVE
#error "C_VEC stores vectors of real: C must be stored as the compute type"
#endif
#if C_VEC
#define STORE_VECTOR(crow, col, r) \
  if (col + VWN <= N) { \
    __global realN* cv = (__global realN*)(crow + col); \
    realN out = SCALE(realN, alpha, r); \
    if (beta != ZERO) out = MULADD(beta, *cv, out); \
    *cv = out; \
  } else { STORE_ELEMENTS(crow, col, r) }
#else
#define STORE_VECTOR(crow, col, r) STORE_ELEMENTS(crow, col, r)
#endif
#define STORE_ELEMENTS(crow, col, r) \
  _Pragma("unroll") for (int w = 0; w < VWN; ++w) \
    if (col + w < N) STORE_OUT(&crow[col + w], axpby(alpha, comp_n(r, w), beta, crow + col + w));
#define ACC(g, v, h) acc[(g) * VWM + (v)][h]

#if SPLIT
// What the workspace holds one of per position (WS_FLOATS, xgemm/config.cl): an element, or a
// work-item's vector.
#if WS_FLOATS
typedef real ws_t;
#else
typedef realN ws_t;
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

// The workspace holds, per split tile and part, the MWG×NWG partial tile: STORE_PART stores this
// work-item's accumulators as part `part` of split tile r, SUM_FROM points `from` at the parts of
// split tile r, and SUM_PARTS(g, v, h) is the sum of element (g, v, h) over them.
#if WS_FLOATS
// Where lane w of element (g, v, h) of work-item lid2 lies in a partial tile: element by element,
// each the work-items' in a row (so that a store of all work-items is coalesced), float by float.
// Not a work-item's vector at a time: a vector store of the accumulators makes the register
// allocator keep each of them in four aligned registers, and then half the multiply-adds of the K
// loop read two registers of one bank (in a ptxas build of the 128×128 split kernel: 607 of the
// K loop's multiply-adds against 141 unsplit, 11 % more cycles; H200, 4096³: every split build of
// these tiles runs 9.5 % slower than the unsplit kernel, and float by float within 1 %).
#define WS_AT(g, v, h, w) ((size_t)(((((g) * VWM + (v)) * NWIV + (h)) * VWN + (w)) * WIS + lid2))
// The vector of sums at lanes at, at + lane_stride, ... (a work-item's elements lie WIS apart in
// the workspace; see WS_AT).
inline realN sum_parts_n(__global volatile const real* at, const size_t lane_stride, const int parts,
                          const size_t stride) {
  realN r;
  __private real* lanes = (__private real*)&r;  // constant lane indices: r stays in registers
#pragma unroll
  for (int w = 0; w < VWN; ++w) lanes[w] = sum_parts(at + w * lane_stride, parts, stride);
  return r;
}
#define WS_FIRST
#define STORE_PART \
  __global real* own = (__global real*)ws + ((size_t)r * SPLITS + part) * tile_f; \
  _Pragma("unroll") for (int g = 0; g < MWIV; ++g) \
    _Pragma("unroll") for (int v = 0; v < VWM; ++v) \
      _Pragma("unroll") for (int h = 0; h < NWIV; ++h) \
        _Pragma("unroll") for (int w = 0; w < VWN; ++w) own[WS_AT(g, v, h, w)] = comp_n(ACC(g, v, h), w);
#define SUM_FROM \
  __global volatile const real* from = (__global volatile const real*)ws + (size_t)r * SPLITS * tile_f;
#define SUM_PARTS(g, v, h) sum_parts_n(from + WS_AT(g, v, h, 0), WIS, parts, tile_f)
#else
// The partial tile lies row by row, and element (g, v, h) is AT(g, v, h) vectors from this
// work-item's first (`first`): a constant, so that the compiler does not hoist a 64-bit address
// per element out of the K loop (that costs 24 registers in a ptxas build).
#define AT(g, v, h) (((MV(g, 0) - MV(0, 0)) * VWM + (v)) * NWGV + NV(h, 0) - NV(0, 0))
#define WS_FIRST const size_t first = (size_t)MV(0, ty) * VWM * NWGV + NV(0, tx);
#define STORE_PART \
  __global realN* own = ws + ((size_t)r * SPLITS + part) * (tile_f / VWN) + first; \
  _Pragma("unroll") for (int g = 0; g < MWIV; ++g) \
    _Pragma("unroll") for (int v = 0; v < VWM; ++v) \
      _Pragma("unroll") for (int h = 0; h < NWIV; ++h) own[AT(g, v, h)] = ACC(g, v, h);
#define SUM_FROM \
  __global volatile const realN* from = ws + (size_t)r * SPLITS * (tile_f / VWN) + first;
#define SUM_PARTS(g, v, h) sum_parts(from + AT(g, v, h), parts, tile_f / VWN)
#endif

// A whole tile is stored at once; a part goes to the workspace, and the last part of a tile adds
// them up. The barriers are outside any branch (PoCL miscompiles them inside one), so groups of
// whole tiles pass them too, after their stores: the first once the segment's record (seg_rec)
// is written, the last before the next segment's copies reuse the local tiles and its record.
// The segment's tile, part and origin come again from its record: these shadow the ones computed
// before the K loop, so that those need not live through it. Only slice 0 stores (it holds the
// sums); all slices pass the barriers. Between the part's stores and the count, a release fence
// (this work-item's part is visible everywhere) and a barrier (so is the whole group's); when all
// parts have counted, the count goes back to zero for the next batch item; the last part's
// acquire fence makes the other parts' stores visible to it, and volatile loads never come from a
// cache that may hold the workspace as it was before.
#define STORE_TILE \
  barrier(CLK_LOCAL_MEM_FENCE); \
  { \
    const int part = SEG_PART, parts = SEG_PARTS, r = SEG_R; \
    const int m0v = (SEG_TILE / tiles_n) * MWGV, n0v = (SEG_TILE % tiles_n) * NWGV; \
    const size_t tile_f = (size_t)MWG * NWG;  /* one partial tile, in elements */ \
    WS_FIRST \
    if (slice == 0 && part < 0) { \
      STORE_C(ACC) \
    } else if (slice == 0) { \
      STORE_PART \
      DEVICE_FENCE(); \
    } \
    barrier(CLK_GLOBAL_MEM_FENCE); \
    if (lid == 0) { \
      last_part = part >= 0 && atomic_inc(counters + r) == parts - 1; \
      if (last_part) counters[r] = 0; \
    } \
    barrier(CLK_LOCAL_MEM_FENCE); \
    if (slice == 0 && last_part) {  /* uniform over each slice */ \
      DEVICE_FENCE(); \
      SUM_FROM \
      STORE_C(SUM_PARTS) \
    } \
  } \
  barrier(CLK_LOCAL_MEM_FENCE);
#else
#define STORE_TILE \
  if (slice == 0) { \
    STORE_C(ACC) \
  }
#endif
