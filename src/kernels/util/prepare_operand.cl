// prepare_operand.cl — copies a row-major matrix into a zero-padded (and optionally transposed)
// temporary, so that a GEMM kernel can assume tile-multiple sizes and its preferred layout.
//
// out[r][c] = src[r][c]            (TRANSPOSE == 0)
// out[r][c] = src[c][r]            (TRANSPOSE == 1)
// and 0 wherever the source has no element, so padded rows and columns add nothing to A·B.
//
// PANEL > 0 writes the output panel by panel instead of row by row: columns [j·PANEL, (j+1)·PANEL)
// of all rows form one contiguous block, so a kernel that walks a PANEL-wide strip of the output
// down its rows finds each tile of it in one piece (what async_work_group_copy wants).
//
// The transpose goes through a TILE×(TILE+1) local tile: the source is read along its rows and
// the output written along its rows, both coalesced; the extra column shifts each row of the tile
// to another bank, so reading a tile column does not hit one bank TILE times.
//
// A batch runs in one launch: item get_group_id(2) copies its source, src_stride elements after
// the one before (or, with SRC_ARRAY, from offsets[3·item + SRC_WHICH]: the offset triples of a
// batch given by arrays, SRC_WHICH 0 for A and 1 for B), into dst, dst_stride elements after the
// one before.
//
// The source is stored as `in_t` and the output is `real` (common/vectors.cl): a 16-bit operand is
// widened to float here, once, for kernels that read `real` only.
//
// prepare_operand_t4 is the same transpose in float4s, for sources whose rows start on 16-byte
// boundaries (the host checks ld, the offset, the output width and the panel): 64×64 tiles,
// 16×16 work-items, each moving four float4 in and four out. A warp then moves 512 bytes per
// access instead of 128, which is what a copy limited by memory bandwidth needs.

#ifndef TILE
#define TILE 32        // side of the square tile a work-group moves
#endif
#ifndef TILE_ROWS
#define TILE_ROWS 8    // work-items along y; each handles TILE / TILE_ROWS rows
#endif
#ifndef TRANSPOSE
#define TRANSPOSE 0
#endif
#ifndef PANEL
#define PANEL 0    // 0: plain row-major output; else the panel width (out_cols a multiple of it)
#endif
#ifndef SRC_ARRAY
#define SRC_ARRAY 0
#endif
#ifndef SRC_WHICH
#define SRC_WHICH 0
#endif
#if TILE % TILE_ROWS != 0
#error "TILE must be a multiple of TILE_ROWS"
#endif

#if PANEL > 0
#define OUT_INDEX(r, c) ((size_t)((c) / PANEL) * out_rows * PANEL + (size_t)(r) * PANEL + (c) % PANEL)
#else
#define OUT_INDEX(r, c) ((size_t)(r) * out_cols + (c))
#endif

// The source and destination of this group's batch item.
#define SELECT_ITEM \
  const int item = get_group_id(2); \
  src += SRC_ARRAY ? offsets[3 * item + SRC_WHICH] : src_offset + item * src_stride; \
  dst += item * dst_stride;

__kernel __attribute__((reqd_work_group_size(TILE, TILE_ROWS, 1)))
void prepare_operand(const int rows, const int cols, __global const in_t* restrict src,
                     const ulong src_offset, const int src_ld,
                     const int out_rows, const int out_cols, __global real* restrict dst,
                     const ulong src_stride, const ulong dst_stride, __global const ulong* restrict offsets) {
  const int lx = get_local_id(0);
  const int ly = get_local_id(1);
  const int col0 = get_group_id(0) * TILE;  // first output column of this tile
  const int row0 = get_group_id(1) * TILE;  // first output row of this tile
  SELECT_ITEM
#if TRANSPOSE
  __local real tile[TILE][TILE + 1];
  // Source rows col0.. become output columns; source columns row0.. become output rows.
  for (int r = ly; r < TILE; r += TILE_ROWS) {
    const int sr = col0 + r, sc = row0 + lx;
    tile[r][lx] = (sr < rows && sc < cols) ? LOAD_IN(src, (size_t)sr * src_ld + sc) : ZERO;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int r = ly; r < TILE; r += TILE_ROWS) {
    const int orow = row0 + r, ocol = col0 + lx;
    if (orow < out_rows && ocol < out_cols) dst[OUT_INDEX(orow, ocol)] = tile[lx][r];
  }
#else
  for (int r = ly; r < TILE; r += TILE_ROWS) {
    const int orow = row0 + r, ocol = col0 + lx;
    if (orow < out_rows && ocol < out_cols)
      dst[OUT_INDEX(orow, ocol)] = (orow < rows && ocol < cols) ? LOAD_IN(src, (size_t)orow * src_ld + ocol) : ZERO;
  }
#endif
}

#if TRANSPOSE
#define T4_TILE 64  // side of the tile; 16×16 work-items each move 4 float4 of it
__kernel __attribute__((reqd_work_group_size(16, 16, 1)))
void prepare_operand_t4(const int rows, const int cols, __global const in_t* restrict src,
                        const ulong src_offset, const int src_ld,
                        const int out_rows, const int out_cols, __global real* restrict dst,
                        const ulong src_stride, const ulong dst_stride, __global const ulong* restrict offsets) {
  // One float more per row: a tile column's elements fall into different banks (2-way at most
  // for the scalar stores and loads below, which a bandwidth-bound copy does not feel).
  __local real tile[T4_TILE][T4_TILE + 1];
  const int lx = get_local_id(0);
  const int ly = get_local_id(1);
  const int col0 = get_group_id(0) * T4_TILE;  // first output column = first source row
  const int row0 = get_group_id(1) * T4_TILE;  // first output row = first source column
  SELECT_ITEM
  for (int r = ly; r < T4_TILE; r += 16) {
    const int sr = col0 + r, sc = row0 + 4 * lx;
    real4 v = (real4)(ZERO);
    if (sr < rows) {
      __global const in_t* p = src + (size_t)sr * src_ld + sc;
      if (sc + 3 < cols) {
        v = LOAD_IN4A(p);  // aligned to four elements: ld and the offset are multiples of 4
      } else {
        v.x = sc < cols ? LOAD_IN(p, 0) : ZERO;
        v.y = sc + 1 < cols ? LOAD_IN(p, 1) : ZERO;
        v.z = sc + 2 < cols ? LOAD_IN(p, 2) : ZERO;
      }
    }
    tile[r][4 * lx] = v.x;
    tile[r][4 * lx + 1] = v.y;
    tile[r][4 * lx + 2] = v.z;
    tile[r][4 * lx + 3] = v.w;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int r = ly; r < T4_TILE; r += 16) {
    const int orow = row0 + r, ocol = col0 + 4 * lx;
    // out_cols (and PANEL) are multiples of 4: a vector that starts inside the output ends there.
    if (orow < out_rows && ocol < out_cols)
      *(__global real4*)(dst + OUT_INDEX(orow, ocol)) =
          (real4)(tile[4 * lx][r], tile[4 * lx + 1][r], tile[4 * lx + 2][r], tile[4 * lx + 3][r]);
  }
}
#endif
