// 01_naive.cl — rung 1: one work-item per element of C.
//
// What it does: work-item (col, row) walks the whole K dimension, reading a row of A and a
// column of B straight from global memory, and writes one element of C.
//
// Why it is the starting point: it is obviously correct and shows the cost of doing nothing
// clever. Neighbouring work-items along x read neighbouring elements of B (coalesced) and the
// same element of A (a broadcast), so it is not hopeless on a GPU; but every operand is fetched
// from global memory (or cache) once per multiply-add, so it is bound by memory traffic, not by
// arithmetic: 2 loads per 2 FLOPs.
//
// Sizes: any M, N, K >= 1; work-items outside C return at once (there is no barrier to miss).

#ifndef WG_X
#define WG_X 16   // work-group width  (along N, the contiguous dimension of B and C)
#endif
#ifndef WG_Y
#define WG_Y 16   // work-group height (along M)
#endif

__kernel __attribute__((reqd_work_group_size(WG_X, WG_Y, 1)))
void gemm_naive(const int M, const int N, const int K,
                __global const float* restrict A, __global const float* restrict B,
                __global float* restrict C) {
  const int col = get_global_id(0);
  const int row = get_global_id(1);
  if (row >= M || col >= N) return;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k) acc += A[row * K + k] * B[k * N + col];
  C[row * N + col] = acc;
}
