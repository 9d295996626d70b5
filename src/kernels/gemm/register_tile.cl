// register_tile.cl — the register-blocked core that the direct and grouped kernels share (after
// common/vectors.cl): a work-group's TM×TN tile of C, WM×WN elements per work-item, op(A) and
// op(B) staged in local memory TK deep. The kernels load the tiles (their guards and operand
// forms differ) and call these macros, which use the names they declare: As, Bs, acc, tx, ty,
// row0, col0, M, N, ldc, C, alpha and beta.

#ifndef TM
#define TM 64       // rows of C per work-group
#endif
#ifndef TN
#define TN 64       // columns of C per work-group
#endif
#ifndef TK
#define TK 16       // depth of the A and B tiles held in local memory
#endif
#ifndef WM
#define WM 4        // rows of C per work-item
#endif
#ifndef WN
#define WN 4        // columns of C per work-item
#endif

#define RX (TN / WN)          // work-items along n
#define RY (TM / WM)          // work-items along m
#define THREADS (RX * RY)
#if TM % WM != 0 || TN % WN != 0
#error "TM must be a multiple of WM and TN of WN"
#endif
#if (TM * TK) % THREADS != 0 || (TK * TN) % THREADS != 0
#error "each work-item must load a whole number of A and B elements per tile"
#endif

// The local tiles: As holds op(A) transposed (k-major) so that a work-item reads its WM values of
// one k as neighbours; +1 column of padding keeps the transposing stores from landing in one bank.
#define REGISTER_TILE_STATE \
  __local real As[TK][TM + 1]; \
  __local real Bs[TK][TN]; \
  real acc[WM][WN]; \
  for (int i = 0; i < WM; ++i) \
    for (int j = 0; j < WN; ++j) acc[i][j] = ZERO;

// The multiply-adds of one staged TK slice. Rows ty, ty+RY, ...: neighbouring work-items read
// neighbouring words (no bank conflict), and the same holds for columns.
#define MULTIPLY_STAGED_TILES \
  _Pragma("unroll") \
  for (int p = 0; p < TK; ++p) { \
    real a[WM], b[WN]; \
    for (int i = 0; i < WM; ++i) a[i] = As[p][ty + i * RY]; \
    for (int j = 0; j < WN; ++j) b[j] = Bs[p][tx + j * RX]; \
    for (int i = 0; i < WM; ++i) \
      for (int j = 0; j < WN; ++j) acc[i][j] = FMA(a[i], b[j], acc[i][j]); \
  }

// alpha·acc + beta·C into the rows and columns of C inside M×N. alpha == 0: the product does not
// count (BLAS semantics), even if A or B hold Inf or NaN. beta == 0: C is not read, so NaN or Inf
// left in it cannot leak into the result.
#define STORE_REGISTER_TILE \
  for (int i = 0; i < WM; ++i) { \
    const int gi = row0 + ty + i * RY; \
    if (gi >= M) continue; \
    for (int j = 0; j < WN; ++j) { \
      const int gj = col0 + tx + j * RX; \
      if (gj >= N) continue; \
      __global out_t* c = C + (size_t)gi * ldc + gj; \
      const real t = SCALE(real, alpha, acc[i][j]); \
      STORE_OUT(c, (beta == ZERO) ? t : MULADD(beta, LOAD_OUT(c), t)); \
    } \
  }
