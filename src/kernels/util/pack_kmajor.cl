// pack_kmajor.cl — an operand copied bit for bit into the K-major form that the wgmma kernel reads
// (gemm/wgmma/wgmma.cl): `rows` rows of `depth` elements, each padded with zeros to out_ld elements, a
// multiple of 128 bytes, so that every row starts on a cache line.
//
// TRANSPOSE = 0: output row r is source row r (src[r·src_ld + k]), VEC elements (16 bytes) per
// work-item: loads lane after lane, and one aligned 16-byte store each, as the padded rows allow.
// On an H100 this copies f16 operands of 4097² and 8193² at 2.3–2.8 TB/s; an element per
// work-item, loaded and stored, moves them at about 1.4 TB/s, and 16-byte loads from rows that
// start off 16 bytes are slower still.
// TRANSPOSE = 1: output row r is source column r (src[k·src_ld + r]), an element per work-item,
// through a TILE×(TILE+1) local tile so that the reads and the writes both go along rows (the
// extra column puts a tile column's elements in different banks).
//
// Elements are raw bits, ushort for f16 and bf16 and uint for float32: nothing is converted, so a
// packed operand holds exactly what the caller's does.
//
// A batch runs in one launch: item get_group_id(2) copies from src_offset + item·src_stride (or,
// with SRC_ARRAY, from offsets[3·item + SRC_WHICH]: the offset triples of a batch given by
// arrays, SRC_WHICH 0 for A and 1 for B) into dst + item·dst_stride.

#ifndef ELEM_BYTES
#define ELEM_BYTES 2
#endif
#ifndef TILE
#define TILE 32
#endif
#ifndef TILE_ROWS
#define TILE_ROWS 8
#endif
#ifndef TRANSPOSE
#define TRANSPOSE 0
#endif
#ifndef SRC_ARRAY
#define SRC_ARRAY 0
#endif
#ifndef SRC_WHICH
#define SRC_WHICH 0
#endif
#if ELEM_BYTES == 2
typedef ushort elem;
typedef ushort8 elem_vec;
#define VEC 8
#elif ELEM_BYTES == 4
typedef uint elem;
typedef uint4 elem_vec;
#define VEC 4
#else
#error "ELEM_BYTES is 2 or 4"
#endif
#if TILE % TILE_ROWS != 0
#error "TILE must be a multiple of TILE_ROWS"
#endif

__kernel __attribute__((reqd_work_group_size(TILE, TILE_ROWS, 1)))
void pack_kmajor(const int rows, const int depth, __global const elem* restrict src, const ulong src_offset,
                 const int src_ld, const int out_ld, __global elem* restrict dst, const ulong src_stride,
                 const ulong dst_stride, __global const ulong* restrict offsets) {
  const int lx = get_local_id(0), ly = get_local_id(1);
  const int k0 = get_group_id(0) * TILE;  // first output column (along K) of this tile
  const int r0 = get_group_id(1) * TILE;  // first output row
  const int item = get_group_id(2);
  src += SRC_ARRAY ? offsets[3 * item + SRC_WHICH] : src_offset + item * src_stride;
  dst += item * dst_stride;
#if TRANSPOSE
  __local elem tile[TILE][TILE + 1];
  for (int i = ly; i < TILE; i += TILE_ROWS) {
    const int k = k0 + i, r = r0 + lx;
    tile[i][lx] = (k < depth && r < rows) ? src[(size_t)k * src_ld + r] : (elem)0;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int i = ly; i < TILE; i += TILE_ROWS) {
    const int r = r0 + i, k = k0 + lx;
    if (r < rows && k < out_ld) dst[(size_t)r * out_ld + k] = tile[lx][i];
  }
#else
  // Group (x, y) covers TILE·VEC output columns from TILE·VEC·x and TILE rows from TILE·y. The
  // loads go element by element, lane after lane (a source row starts anywhere), all of them
  // before one barrier, into local memory; each work-item then stores VEC consecutive elements of
  // a row as one aligned 16-byte vector (out_ld is a multiple of VEC; rows start on 128 bytes).
  __local elem_vec staged[TILE][TILE];
  for (int i = ly; i < TILE; i += TILE_ROWS) {
    const int r = r0 + i;
    __global const elem* from = src + (size_t)r * src_ld;
    __local elem* to = (__local elem*)staged[i];
#pragma unroll
    for (int j = 0; j < VEC; ++j) {
      const int k = k0 * VEC + j * TILE + lx;
      to[j * TILE + lx] = (r < rows && k < depth) ? from[k] : (elem)0;
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  const int kv = (k0 + lx) * VEC;  // this work-item's first output column
  for (int i = ly; i < TILE; i += TILE_ROWS) {
    const int r = r0 + i;
    if (r < rows && kv < out_ld) *(__global elem_vec*)(dst + (size_t)r * out_ld + kv) = staged[i][lx];
  }
#endif
}
