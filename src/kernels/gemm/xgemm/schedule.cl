// xgemm/schedule.cl — which tile of C a work-group computes and over which K range: the whole K of
// one tile (plain), or, with SPLIT, split-K and stream-K.
//
// Plain: a 2D grid of tiles; group (x, y) computes tile (y, x) over all of K.
// SPLIT = 1 (set by the host): the last `split_tiles` tiles are shared out along K (stream-K), so
// that a wave that would leave most compute units idle spreads over all of them. The groups form
// one row. Group b < full_tiles computes tile b over all of K, as without SPLIT; the `sk_groups`
// groups after them each take an equal share of the split tiles' K-steps, in tile order. A share
// may end inside a tile and go on in the next (SK_LOOP = 1), so such a group computes several
// segments, each a whole tile or a part of one. With sk_groups = S · split_tiles every share lies
// in one tile, and every tile is cut into S parts: plain split-K, built without the loop over
// segments (SK_LOOP = 0). Every part stores its partial tile in the workspace `ws`; the last part
// of a tile to finish (an atomic count per tile) adds the parts in part order — the result does
// not depend on which finished last — and writes C through the usual epilogue
// (xgemm/epilogue.cl).
//
// GROUPED = 1 (set by the host): a grouped call's problems from a work list, below.
//
// The kernel runs
//   SEGMENT_STATE                 what the segments share, before any of them
//   FOR_EACH_SEGMENT { SEGMENT    tile, K range [k_begin, k_end) and origin m0v, n0v of C
//                      ... }      the K loop and the epilogue of the segment
// FOR_EACH_SEGMENT is a loop with SK_LOOP and nothing otherwise (one segment, one block).

#if SPLIT
// The stream-K group whose share holds K-step `step` of the split tiles' `total`: the last g with
// floor(g · total / groups) <= step.
inline int group_of(const long step, const long total, const int groups) {
  return (int)(((step + 1) * groups + total - 1) / total) - 1;
}

// What the epilogue needs of the current segment (its tile, part, part count and split tile),
// kept in local memory rather than in registers across the K loop: loads after a barrier are
// not hoisted above it, so nothing of the segment's bookkeeping stays live through the loop,
// which in the 128×128 kernel has no register to spare (H200: its split builds take 128
// registers so, 168-170 with the bookkeeping in registers). last_part: whether this group adds
// up the current tile's parts.
#define SEG_TILE seg_rec[0]
#define SEG_PART seg_rec[1]
#define SEG_PARTS seg_rec[2]
#define SEG_R seg_rec[3]
#define SEGMENT_RECORD \
  __local int last_part; \
  __local int seg_rec[4];
#define RECORD_SEGMENT \
  if (lid == 0) { \
    SEG_TILE = tile; \
    SEG_PART = part; \
    SEG_PARTS = parts; \
    SEG_R = r; \
  } \
  const int m0v = (tile / tiles_n) * MWGV;  /* this group's tile origin, in vectors */ \
  const int n0v = (tile % tiles_n) * NWGV;
#endif

#if SK_LOOP
// Shares that span tiles: a loop over the split tiles the share touches. The host sets SK_LOOP
// only on NVIDIA (PoCL 3.1 computes garbage with the barriers inside this loop). The share's
// bounds, too, are read from local memory at each segment. sk < 0: a whole tile. Segment seg is
// K-steps [it, seg_end) of split tile r; the groups whose shares touch tile r are numbered
// first to last, and this one's place among them is its part (-1: it has the whole tile).
#define SEGMENT_STATE \
  SEGMENT_RECORD \
  __local long share[2]; \
  __local int share_sk; \
  if (get_local_id(0) == 0 && get_local_id(1) == 0 && get_local_id(2) == 0) { \
    const int sk0 = (int)get_group_id(0) - full_tiles; \
    const long total0 = (long)split_tiles * (Kp / KWG); \
    share[0] = sk0 < 0 ? 0 : (long)sk0 * total0 / sk_groups; \
    share[1] = sk0 < 0 ? Kp / KWG : (long)(sk0 + 1) * total0 / sk_groups; \
    share_sk = sk0; \
  } \
  barrier(CLK_LOCAL_MEM_FENCE);
#define FOR_EACH_SEGMENT for (int seg = 0;; ++seg)
#define SEGMENT \
  const int sk = share_sk, grp = sk + full_tiles; \
  const int steps = Kp / KWG;  /* K-steps of a tile */ \
  const long total = (long)split_tiles * steps; \
  const long it_start = share[0], it_stop = share[1]; \
  const int r_first = sk < 0 ? -1 : (int)(it_start / steps); \
  const int segments = sk < 0 ? 1 : (int)((it_stop - 1) / steps) - r_first + 1; \
  if (seg >= segments) break;  /* the same for the whole group */ \
  const int r = sk < 0 ? -1 : r_first + seg;  /* which split tile */ \
  const long tile_begin = r < 0 ? 0 : (long)r * steps; \
  const long it = it_start > tile_begin ? it_start : tile_begin; \
  const long seg_end = it_stop < tile_begin + steps ? it_stop : tile_begin + steps; \
  const int tile = sk < 0 ? grp : full_tiles + r; \
  const int k_begin = (int)(it - tile_begin) * KWG, k_end = (int)(seg_end - tile_begin) * KWG; \
  int part = -1, parts = 1; \
  if (r >= 0) { \
    const int g0 = group_of(tile_begin, total, sk_groups); \
    parts = group_of(tile_begin + steps - 1, total, sk_groups) - g0 + 1; \
    part = parts > 1 ? sk - g0 : -1; \
  } \
  RECORD_SEGMENT

#elif SPLIT
// sk_groups = SPLITS · split_tiles: every share lies in one tile, group sk has part sk % SPLITS
// of split tile sk / SPLITS (the same split as the loop's, in int arithmetic and no loop: the
// loop's 64-bit bookkeeping costs the 64×128 tiles a block per SM at 1032³ and 1548³).
// (SPLITS == 1 is tested by the preprocessor: a constant operand of || makes the compiler warn.)
#if SPLITS == 1
#define PART_OF_GROUP const int part = -1, parts = 1;
#else
#define PART_OF_GROUP const int part = sk < 0 ? -1 : sk % SPLITS, parts = SPLITS;
#endif
#define SEGMENT_STATE SEGMENT_RECORD
#define FOR_EACH_SEGMENT
#define SEGMENT \
  const int grp = get_group_id(0), sk = grp - full_tiles;  /* sk < 0: a whole tile */ \
  const int steps = Kp / KWG;  /* K-steps of a tile */ \
  const int r = sk < 0 ? -1 : sk / SPLITS; \
  PART_OF_GROUP \
  const int tile = sk < 0 ? grp : full_tiles + r; \
  const int k_begin = part < 0 ? 0 : (int)((long)part * steps / SPLITS) * KWG; \
  const int k_end = part < 0 ? Kp : (int)((long)(part + 1) * steps / SPLITS) * KWG; \
  RECORD_SEGMENT

#elif GROUPED
// A grouped call: the host lays every problem's tiles end to end along dimension 0 and lists per
// problem, in `work`, GROUPED_FIELDS numbers: M, N, K, Kp, A's offset and row length, B's, C's
// offset and ldc (operands in the units the kernel loads them in), the problem's tiles along n
// and its first tile. A group finds its problem by a binary search of the first tiles (a problem
// without tiles shares its first tile with the next one, which the search passes on to) and
// computes one tile of it over all of K.
#define GROUPED_FIELDS 12
#define GROUPED_PROBLEM \
  int g_lo = 0, g_hi = problems - 1; \
  while (g_lo < g_hi) { \
    const int g_mid = (g_lo + g_hi + 1) / 2; \
    if (work[(size_t)g_mid * GROUPED_FIELDS + 11] <= get_group_id(0)) g_lo = g_mid; \
    else g_hi = g_mid - 1; \
  } \
  __global const ulong* restrict g_w = work + (size_t)g_lo * GROUPED_FIELDS; \
  const int M = (int)g_w[0], N = (int)g_w[1], K = (int)g_w[2], Kp = (int)g_w[3]; \
  const ulong a_off_v = g_w[4], b_off_v = g_w[6], c_offset = g_w[8]; \
  const int lda_v = (int)g_w[5], ldb_v = (int)g_w[7], ldc = (int)g_w[9]; \
  const int tiles_n = (int)g_w[10], g_tile = (int)(get_group_id(0) - g_w[11]); \
  const real alpha = scalars[2 * g_lo], beta = scalars[2 * g_lo + 1];
#define SEGMENT_STATE
#define FOR_EACH_SEGMENT
#define SEGMENT \
  const int k_begin = 0, k_end = Kp; \
  const int m0v = (g_tile / tiles_n) * MWGV; \
  const int n0v = (g_tile % tiles_n) * NWGV;

#else
// A 2D grid of tiles without split-K: the group ids are read again where needed instead of
// held (a linear numbering costs 25 registers in a ptxas build of the PTX clang makes).
#define SEGMENT_STATE
#define FOR_EACH_SEGMENT
#define SEGMENT \
  const int k_begin = 0, k_end = Kp; \
  const int m0v = get_group_id(1) * MWGV; \
  const int n0v = get_group_id(0) * NWGV;
#endif
