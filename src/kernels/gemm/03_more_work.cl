// 03_more_work.cl — rung 3: each work-item computes WPT elements of C.
//
// What changed from rung 2: the work-group is still responsible for a TS×TS tile of C, but it has
// only TS × TS/WPT work-items. Work-item (tx, ty) owns WPT elements of one column of the tile,
// rows ty, ty + RTS, ty + 2·RTS, ... (RTS = TS/WPT), and keeps their WPT partial sums in registers.
// Loading a tile, each work-item fetches WPT elements of A and WPT of B instead of one of each.
//
// Why it should be faster: in rung 2 every multiply-add needed two local-memory loads. Here the
// B value Bsub[k][tx] is loaded once per k and reused for all WPT rows, so a k-step costs
// WPT + 1 local loads for WPT multiply-adds: local traffic per FMA drops from 2 to about 1. There
// are also WPT times fewer work-items, so the fixed costs of a work-item (index arithmetic, the
// loop over tiles, the barriers) are shared by WPT results, and the WPT independent accumulators
// give the scheduler instruction-level parallelism.
//
// Access patterns: consecutive work-items (tx) read consecutive columns of B and of C (coalesced)
// and consecutive elements of a row of A when loading; in the inner loop all work-items of a row
// read the same Asub element (a broadcast, no bank conflict) and consecutive Bsub elements.
//
// Sizes: any M, N, K >= 1, as in rung 2: loads outside the matrices read 0, every work-item
// reaches every barrier, only elements inside C are stored.

#ifndef TS
#define TS 32   // tile side: a work-group computes a TS×TS tile of C and stages TS×TS tiles of A, B
#endif
#ifndef WPT
#define WPT 8   // work per thread: elements of C per work-item (rows of the tile, strided by TS/WPT)
#endif

#if TS % WPT != 0
#error "TS must be a multiple of WPT"
#endif
#define RTS (TS / WPT)   // work-group height: rows of work-items; a work-item's rows are RTS apart

__kernel __attribute__((reqd_work_group_size(TS, RTS, 1)))
void gemm_more_work(const int M, const int N, const int K,
                    __global const float* restrict A, __global const float* restrict B,
                    __global float* restrict C) {
  const int tx = get_local_id(0), ty = get_local_id(1);
  const int col = get_group_id(0) * TS + tx;   // the one column of C this work-item touches
  const int row0 = get_group_id(1) * TS + ty;  // its first row; the others follow every RTS rows

  __local float Asub[TS][TS];
  __local float Bsub[TS][TS];

  float acc[WPT];  // private array indexed only by unrolled loops, so it lives in registers
#pragma unroll
  for (int w = 0; w < WPT; ++w) acc[w] = 0.0f;

  for (int t = 0; t < K; t += TS) {
    // Each work-item loads WPT elements of each tile, the same rows it computes.
#pragma unroll
    for (int w = 0; w < WPT; ++w) {
      const int r = ty + w * RTS;
      const int arow = row0 + w * RTS, acol = t + tx;
      const int brow = t + r;
      Asub[r][tx] = (arow < M && acol < K) ? A[arow * K + acol] : 0.0f;
      Bsub[r][tx] = (brow < K && col < N) ? B[brow * N + col] : 0.0f;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < TS; ++k) {
      const float b = Bsub[k][tx];  // loaded once, used WPT times
#pragma unroll
      for (int w = 0; w < WPT; ++w) acc[w] += Asub[ty + w * RTS][k] * b;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }

#pragma unroll
  for (int w = 0; w < WPT; ++w) {
    const int row = row0 + w * RTS;
    if (row < M && col < N) C[row * N + col] = acc[w];
  }
}
