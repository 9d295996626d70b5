// tile_map.cl — which TS×TS tiles of A hold a non-zero, and, per tile-row of A, the list of them.
//
// Two small kernels run before the block-skip GEMM (sparse/block_skip_gemm.cl):
//
//   tile_map    one work-group per tile of A (group (tk, ti) looks at rows ti·TS.., columns tk·TS..)
//               writes map[ti·kt + tk] = 1 when any element of the tile is non-zero, else 0.
//               Tiles at the ragged right/bottom edge are looked at only inside A.
//   tile_lists  one work-item per tile-row ti: lists[ti·kt + j] = the j-th non-zero k-tile of that
//               row in increasing order, counts[ti] = how many there are.
//
// Why on the device: A already lives there, and reading it once at full bandwidth (tens of
// microseconds at 4096²) is far cheaper than a round trip to the host. "Non-zero" is `x != 0`,
// so -0.0 counts as zero (it adds nothing) and NaN counts as non-zero (it must propagate).
//
// Work split in tile_map: the MAP_WG work-items walk the tile in row-major order, consecutive
// work-items on consecutive elements (float4 when every row of A starts 16-byte aligned), so the
// reads of a warp are coalesced. A work-item stops reading as soon as it has seen a non-zero:
// non-zero tiles usually cost one load per work-item, only all-zero tiles are read completely —
// which they must be. The flags are combined with one local atomic_or (core since OpenCL 1.1).
//
//   tile_order  one work-item per tile-row: order[r] = the tile-row with the r-th longest list
//               (ties by index), so that the GEMM's work-groups start with the longest rows.
//
// Why tile_order: all TSN-wide work-groups of one tile-row do the same amount of work, and rows
// differ a lot (at 10 % density and 32 k-tiles per row: 0 to ~9 tiles). GPUs hand out work-groups
// roughly in index order; if the heaviest rows came last they would run alone at the end. Longest
// first (LPT scheduling) leaves only short rows for the tail. O(mt²) comparisons, but mt is small
// (32 at m = 4096 with TS = 128) and all work-items read the same count at the same time.
//
// tile_lists is sequential per tile-row: kt (k / TS) is small (32 at k = 4096 with TS = 128), so
// one work-item per row takes a few microseconds, and the order it produces keeps the summation
// order of the GEMM identical to the dense run's (skipping a zero tile then leaves C bit-for-bit
// unchanged, which the tests check).

#ifndef TS
#define TS 128      // side of a tile of A
#endif
#ifndef MAP_WG
#define MAP_WG 256  // work-items per work-group of tile_map
#endif
#ifndef MAP_VEC
#define MAP_VEC 0   // 1: rows of A start 16-byte aligned (K % 4 == 0), read float4
#endif

#if MAP_VEC && (TS % 4 != 0)
#error "MAP_VEC needs TS to be a multiple of 4"
#endif

__kernel __attribute__((reqd_work_group_size(MAP_WG, 1, 1)))
void tile_map(const int M, const int K, __global const float* restrict A, __global uchar* restrict map,
              const int kt) {
  const int lid = get_local_id(0);
  const int tk = get_group_id(0), ti = get_group_id(1);
  const int row0 = ti * TS, col0 = tk * TS;
  const int rows = min(TS, M - row0), cols = min(TS, K - col0);  // the part of the tile inside A

  __local int tile_nonzero;
  if (lid == 0) tile_nonzero = 0;
  barrier(CLK_LOCAL_MEM_FENCE);

  int found = 0;
#if MAP_VEC
  // cols is a multiple of 4 here: K and col0 both are.
  const int cols4 = cols / 4;
  for (int e = lid; e < TS * (TS / 4) && !found; e += MAP_WG) {
    const int r = e / (TS / 4), c4 = e % (TS / 4);
    if (r < rows && c4 < cols4) {
      // A plain float4 load (not vload4) so that the compiler emits one 16-byte load.
      const float4 v = *(__global const float4*)(A + (size_t)(row0 + r) * K + col0 + 4 * c4);
      found = any(v != (float4)(0.0f));
    }
  }
#else
  for (int e = lid; e < TS * TS && !found; e += MAP_WG) {
    const int r = e / TS, c = e % TS;
    if (r < rows && c < cols) found = A[(size_t)(row0 + r) * K + col0 + c] != 0.0f;
  }
#endif
  if (found) atomic_or(&tile_nonzero, 1);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid == 0) map[ti * kt + tk] = tile_nonzero ? 1 : 0;
}

__kernel void tile_lists(const int mt, const int kt, __global const uchar* restrict map,
                         __global int* restrict lists, __global int* restrict counts) {
  const int ti = get_global_id(0);
  if (ti >= mt) return;
  __global const uchar* row = map + ti * kt;
  __global int* list = lists + ti * kt;
  int n = 0;
  for (int tk = 0; tk < kt; ++tk)
    if (row[tk]) list[n++] = tk;
  counts[ti] = n;
}

__kernel void tile_order(const int mt, __global const int* restrict counts, __global int* restrict order) {
  const int ti = get_global_id(0);
  if (ti >= mt) return;
  const int mine = counts[ti];
  int rank = 0;
  for (int j = 0; j < mt; ++j) {
    const int other = counts[j];
    rank += (other > mine) || (other == mine && j < ti);
  }
  order[rank] = ti;
}
