// wgmma/epilogue.cl — alpha·A·B + beta·C into C from the accumulators, staged in local memory.

// The epilogue stages each block of 64 rows of C in local memory, EPI_COLS columns at a time, so
// that its reads and writes of C go as rows of whole 4-element vectors; straight from wgmma's
// fragments, a warp's store would cover eight rows with 8 bytes of each (H100: strided f16 batches
// of 256³ and 512³ items run 1.4–1.6× as fast staged, 8192³ 1.08×). A staged row is EPI_COLS + 8
// floats long, which puts the 8 rows of a fragment store into different banks. Every warpgroup has
// its own part of local memory: with WS, the area past the stages (wgmma/config.cl), else the
// stages themselves, which the slices no longer need.
#if WS
#define EPI_COLS WS_EPI_COLS
#elif WARPGROUPS * 64 * EPI_ROW(64) * 4 <= LOCAL_BYTES
#define EPI_COLS 64
#elif WARPGROUPS * 64 * EPI_ROW(32) * 4 <= LOCAL_BYTES
#define EPI_COLS 32
#elif WARPGROUPS * 64 * EPI_ROW(16) * 4 <= LOCAL_BYTES
#define EPI_COLS 16
#else
#define EPI_COLS 8
#endif
#define EPI_STRIDE EPI_ROW(EPI_COLS)
#if !WS && WARPGROUPS * 64 * EPI_STRIDE * 4 > LOCAL_BYTES
#error "the epilogue's staged rows must fit the stages' local memory"
#endif

// The transposed blocks of B_REGS (gemm/wgmma/wgmma.cl) are 64 columns of C by BM rows; they stage
// EPI_T_ROWS rows of C at a time, all 64 columns, in rows of EPI_T_STRIDE floats: 68 keeps the rows
// on 16 bytes for the vector reads and puts a fragment store's 32 elements (8 columns of 4 row
// pairs) into at most two passes.
#define EPI_T_STRIDE 68
#if WARPGROUPS * 64 * EPI_T_STRIDE * 4 <= LOCAL_BYTES
#define EPI_T_ROWS 64
#elif WARPGROUPS * 32 * EPI_T_STRIDE * 4 <= LOCAL_BYTES
#define EPI_T_ROWS 32
#elif WARPGROUPS * 16 * EPI_T_STRIDE * 4 <= LOCAL_BYTES
#define EPI_T_ROWS 16
#else
#define EPI_T_ROWS 8
#endif
#if B_REGS && WARPGROUPS * EPI_T_ROWS * EPI_T_STRIDE * 4 > LOCAL_BYTES
#error "the epilogue's staged rows must fit the stages' local memory"
#endif

// A staged piece: PIECE_ROWS rows of PIECE_COLS floats, PIECE_STRIDE apart; a block's pieces go
// along its columns (EPI_COLS at a time) or, transposed, along its rows (EPI_T_ROWS at a time).
#if B_REGS
#define PIECES (BM / EPI_T_ROWS)
#define PIECE_ROWS EPI_T_ROWS
#define PIECE_COLS 64
#define PIECE_STRIDE EPI_T_STRIDE
#else
#define PIECES (BN / EPI_COLS)
#define PIECE_ROWS 64
#define PIECE_COLS EPI_COLS
#define PIECE_STRIDE EPI_STRIDE
#endif

// The staged rows are the warpgroup's own, so only its 128 work-items wait for each other. With
// WS that is named barrier 1 + w (barrier() is 0): the producer's work-items have left the kernel
// and the other consumers are busy with their own rows.
#if WS
#define EPI_SYNC(lid) __asm__ volatile("bar.sync %0, 128;" :: "r"(1 + (lid) / 128) : "memory")
#else
#define EPI_SYNC(lid) barrier(CLK_LOCAL_MEM_FENCE)
#endif

// alpha·x + beta·C into C at dst, element (r, c) of C. 3xTF32 computes an element that comes out
// NaN again from A's row and B's column (a row of B's K-major form) in float32 (see gemm/wgmma/wgmma.cl).
inline void store_element(float x, __global out_t* dst, const int r, const int c, const float alpha,
                          const float beta, __global const in_raw* A, const int lda, __global const in_raw* B,
                          const int ldb, const int K) {
#if TERMS == 3
  if (isnan(x)) {
    x = 0.0f;
#if B_MN
    for (int p = 0; p < K; ++p) x = fma(as_float(A[(size_t)r * lda + p]), as_float(B[(size_t)p * ldb + c]), x);
#else
    for (int p = 0; p < K; ++p) x = fma(as_float(A[(size_t)r * lda + p]), as_float(B[(size_t)c * ldb + p]), x);
#endif
  }
#endif
  STORE_OUT(dst, axpby(alpha, x, beta, dst));
}

// alpha·acc + beta·C into C, inside M×N, for the block of 64 rows starting at row m0 (with B_REGS,
// of 64 columns from column n0 and BM rows from m0), through this warpgroup's part of local memory
// at `staged`. Work-item t of the warpgroup holds, for each group j of 8 columns, acc[4j], acc[4j+1]
// at row 16(t/32) + (t%32)/4 of the block, columns 8j + 2(t%4) and the next, and acc[4j+2],
// acc[4j+3] eight rows further down; with B_REGS, for each group j of 8 rows, acc[4j], acc[4j+1]
// at column b_column(t, 0) of the block, rows 8j + 2(t%4) and the next, and acc[4j+2], acc[4j+3]
// at column b_column(t, 1). Every work-item of the work-group (with WS, of the warpgroup) calls it
// the same number of times: it holds barriers.
inline void store_block(const float* acc, __local float* staged, __global out_t* C, const int ldc, const int M,
                        const int N, const int m0, const int n0, const uint lid, const float alpha, const float beta,
                        __global const in_raw* A, const int lda, __global const in_raw* B, const int ldb,
                        const int K) {
  const uint t = lid % 128;
#if B_REGS
  const uint fragment = 2 * (t % 4) * EPI_T_STRIDE + b_column(t, 0), second = b_column(t, 1) - b_column(t, 0);
#else
  const uint fragment = (16 * (t / 32) + (t % 32) / 4) * EPI_STRIDE + 2 * (t % 4);
#endif
#pragma unroll
  for (int piece = 0; piece < PIECES; ++piece) {
#if B_REGS
#pragma unroll
    for (int j = 0; j < EPI_T_ROWS / 8; ++j) {
      const int i = 4 * (piece * (EPI_T_ROWS / 8) + j);
      __local float* at = staged + fragment + 8 * j * EPI_T_STRIDE;
      at[0] = acc[i];
      at[EPI_T_STRIDE] = acc[i + 1];
      at[second] = acc[i + 2];
      at[EPI_T_STRIDE + second] = acc[i + 3];
    }
    const int first = n0, row0 = m0 + piece * EPI_T_ROWS;
#else
#pragma unroll
    for (int j = 0; j < EPI_COLS / 8; ++j) {
      const int i = 4 * (piece * (EPI_COLS / 8) + j);
      vstore2((float2)(acc[i], acc[i + 1]), 0, staged + fragment + 8 * j);
      vstore2((float2)(acc[i + 2], acc[i + 3]), 0, staged + fragment + 8 * EPI_STRIDE + 8 * j);
    }
    const int first = n0 + piece * EPI_COLS, row0 = m0;
#endif
    EPI_SYNC(lid);
    // Rows of PIECE_COLS / 4 work-items, 128 per pass. Column `lead` (0-3) of the piece is the
    // first whose place in C is a multiple of 4 elements, which whole-vector accesses need; work-item
    // q of a row moves the 4 columns from lead + 4q as one vector, and where lead > 0 the row's
    // last work-item instead moves the lead columns before the first vector and the 4 − lead after
    // the last one, element by element. Rows of any ldc and offset thus go as vectors.
#pragma unroll
    for (int pass = 0; pass < PIECE_ROWS * PIECE_COLS / 512; ++pass) {
      const uint v = pass * 128 + t, r = v / (PIECE_COLS / 4), q = v % (PIECE_COLS / 4);
      const int row = row0 + (int)r;
      if (row >= M || first >= N) continue;
      __global out_t* line = C + (size_t)row * ldc + first;
      __local const float* from = staged + r * PIECE_STRIDE;
      const int lead = (int)((0 - (size_t)line / sizeof(out_t)) & 3);
      const int c = lead + 4 * (int)q;
      if (c + 4 <= PIECE_COLS) {
        const float4 x = vload4(0, from + c);
        bool whole = first + c + 4 <= N;
#if TERMS == 3
        whole = whole && !any(isnan(x));
#endif
        if (whole) {
          float4 y = alpha == 0.0f ? (float4)(0.0f) : alpha * x;
          if (beta != 0.0f) y = MULADD(beta, LOAD_OUT4A(line + c), y);
          STORE_OUT4A(line + c, y);
        } else {
          for (int e = c; e < c + 4 && first + e < N; ++e)
            store_element(from[e], line + e, row, first + e, alpha, beta, A, lda, B, ldb, K);
        }
      } else {
        for (int e = 0; e < 4; ++e) {
          const int col = e < lead ? e : c + e - lead;  // the lead head columns, then the tail
          if (first + col < N) store_element(from[col], line + col, row, first + col, alpha, beta, A, lda, B, ldb, K);
        }
      }
    }
    EPI_SYNC(lid);
  }
}
