// 05_transposed.cl — rung 5: B transposed once on the device, so both operands are read along K.
//
// What changed from rung 4: the launcher hands the kernel Bt (N×K, row-major) instead of B: one
// pass of a device transpose kernel before the GEMM. Now A and Bt have the same shape of access:
// C[m][n] is the dot product of row m of A and row n of Bt, both contiguous along K. So:
//   - the two tiles are loaded by the same code: TS rows of TS floats along K, WIDTH at a time;
//   - in local memory both tiles keep K contiguous (Asub[m][k], Bsub[n][k]), and the inner loop
//     reads WIDTH consecutive k of an A row AND of a Bt row as one vector each.
// The work per work-item is rung 4's (WPT rows × WIDTH columns of C), so the comparison with
// rung 4 shows only the effect of the operand orientation.
//
// Why it should be faster: in rung 4 a k-step cost WPT scalar loads of A plus one vector of B for
// WPT·WIDTH multiply-adds. Here WIDTH k-steps cost WPT vector loads of A plus WIDTH vector loads of
// Bt for WPT·WIDTH·WIDTH multiply-adds: with the defaults (8, 4) that is 12 local load
// instructions per 128 FMAs against 36 in rung 4. The transpose is an extra pass over B
// (2·K·N floats of traffic), negligible beside the 2·M·N·K FLOPs once the matrices are large.
//
// Work-item layout: work-item (tx, ty) owns rows ty + w·RTS (w < WPT) and columns tx + j·CTS
// (j < WIDTH), both strided. Strided columns keep the Bsub reads of neighbouring work-items on
// neighbouring rows (see banks) and the C stores coalesced: for each j, the work-items of a row
// store CTS consecutive floats.
//
// Local memory and banks (32 banks of 4 bytes; a warp's local access takes one 128-byte
// wavefront per group of requests that fall in distinct banks): in the inner loop the CTS
// work-items of a work-group row (16 with the defaults) read the same k-vector of consecutive
// Bsub rows — 256 bytes, so at least 2 wavefronts. Unpadded rows are TS floats apart, a multiple
// of 32: all 16 vectors would sit in the same 4 banks, 16 wavefronts. Padding each row by one
// vector (WIDTH floats) moves row r to bank offset r·WIDTH; for WIDTH = 4 any 8 consecutive rows
// cover the 32 banks once, back to the minimum of 2 (WIDTH = 1 and 2 likewise; WIDTH = 8 keeps a
// 2-way conflict). Asub reads are broadcasts (two addresses per warp) and get the same padding so
// that both tiles share one load routine.
//
// Sizes: M, N, K must be multiples of TS (the launcher pads with zeros); no guards needed.

#ifndef TS
#define TS 64      // tile side: a work-group computes a TS×TS tile of C; tiles are TS deep in K
#endif
#ifndef WPT
#define WPT 8      // rows of C per work-item (TS/WPT apart)
#endif
#ifndef WIDTH
#define WIDTH 4    // vector width along K (1,2,4,8); also columns of C per work-item (TS/WIDTH apart)
#endif

#if WIDTH != 1 && WIDTH != 2 && WIDTH != 4 && WIDTH != 8
#error "WIDTH must be 1, 2, 4 or 8"
#endif
#if TS % WPT != 0
#error "TS must be a multiple of WPT"
#endif
#if TS % WIDTH != 0
#error "TS must be a multiple of WIDTH"
#endif
#define RTS (TS / WPT)     // work-group height; a work-item's rows are RTS apart
#define CTS (TS / WIDTH)   // work-group width; a work-item's columns are CTS apart; vectors per tile row

typedef VECTOR(WIDTH) floatW;  // common/vectors.cl
#define component LANE(WIDTH)  // lane v of a floatW (common/vectors.cl)

// acc + Σ a[i]·b[i], as WIDTH chained multiply-adds (no separate horizontal sum).
float dot_acc(const floatW a, const floatW b, float acc) {
#pragma unroll
  for (int i = 0; i < WIDTH; ++i) acc += component(a, i) * component(b, i);
  return acc;
}

__kernel __attribute__((reqd_work_group_size(CTS, RTS, 1)))
void gemm_transposed(const int M, const int N, const int K,
                     __global const float* restrict A, __global const float* restrict Bt,
                     __global float* restrict C) {
  const int tx = get_local_id(0), ty = get_local_id(1);
  const int KW = K / WIDTH;  // row length of A and Bt in vectors
  (void)M;  // rows need no check: the grid covers exactly the (padded) M rows
  // Vector-typed pointers rather than vloadn: see rung 4. Rows start on vector boundaries
  // because K is padded to a multiple of TS.
  __global const floatW* restrict Av = (__global const floatW*)A;
  __global const floatW* restrict Btv = (__global const floatW*)Bt;

  const int m0 = get_group_id(1) * TS, n0 = get_group_id(0) * TS;  // tile origin in C

  __local floatW Asub[TS][CTS + 1];  // Asub[m][k/WIDTH], one vector of padding per row
  __local floatW Bsub[TS][CTS + 1];  // Bsub[n][k/WIDTH]

  float acc[WPT][WIDTH];
#pragma unroll
  for (int w = 0; w < WPT; ++w)
#pragma unroll
    for (int j = 0; j < WIDTH; ++j) acc[w][j] = 0.0f;

  for (int t = 0; t < K; t += TS) {
    // Both tiles the same way: work-item (tx, ty) loads vector tx of rows ty + w·RTS. Consecutive
    // work-items read consecutive vectors of a row: coalesced.
#pragma unroll
    for (int w = 0; w < WPT; ++w) {
      const int r = ty + w * RTS;
      Asub[r][tx] = Av[(m0 + r) * KW + t / WIDTH + tx];
      Bsub[r][tx] = Btv[(n0 + r) * KW + t / WIDTH + tx];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int kv = 0; kv < CTS; ++kv) {
      floatW b[WIDTH];
#pragma unroll
      for (int j = 0; j < WIDTH; ++j) b[j] = Bsub[tx + j * CTS][kv];
#pragma unroll
      for (int w = 0; w < WPT; ++w) {
        const floatW a = Asub[ty + w * RTS][kv];
#pragma unroll
        for (int j = 0; j < WIDTH; ++j) acc[w][j] = dot_acc(a, b[j], acc[w][j]);
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }

#pragma unroll
  for (int w = 0; w < WPT; ++w)
#pragma unroll
    for (int j = 0; j < WIDTH; ++j) C[(m0 + ty + w * RTS) * N + n0 + tx + j * CTS] = acc[w][j];
}
