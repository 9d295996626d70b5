// 02_tiled.cl — rung 2: TS×TS tiles of A and B staged in local memory.
//
// What changed from rung 1: a work-group of TS×TS work-items computes a TS×TS tile of C. For each
// step along K, every work-item loads ONE element of A and ONE of B into local memory; after a
// barrier, each work-item runs TS multiply-adds out of local memory; a second barrier keeps the
// tile alive until everyone has finished with it.
//
// Why it should be faster: each element fetched from global memory is now used TS times (by the
// TS work-items of a tile row or column) instead of once, so global traffic drops by a factor TS.
// It is now limited by local-memory bandwidth: still 2 local loads per FMA.
//
// Sizes: any M, N, K >= 1. Loads outside the matrices read 0 (adds nothing); every work-item,
// even one outside C, takes part in the loads and reaches both barriers, and only those inside C
// store.

#ifndef TS
#define TS 16   // tile side: the work-group is TS×TS, local memory holds two TS×TS tiles
#endif

__kernel __attribute__((reqd_work_group_size(TS, TS, 1)))
void gemm_tiled(const int M, const int N, const int K,
                __global const float* restrict A, __global const float* restrict B,
                __global float* restrict C) {
  const int tx = get_local_id(0), ty = get_local_id(1);
  const int col = get_group_id(0) * TS + tx;
  const int row = get_group_id(1) * TS + ty;

  __local float Asub[TS][TS];
  __local float Bsub[TS][TS];

  float acc = 0.0f;
  for (int t = 0; t < K; t += TS) {
    Asub[ty][tx] = (row < M && t + tx < K) ? A[row * K + t + tx] : 0.0f;
    Bsub[ty][tx] = (t + ty < K && col < N) ? B[(t + ty) * N + col] : 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int kk = 0; kk < TS; ++kk) acc += Asub[ty][kk] * Bsub[kk][tx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (row < M && col < N) C[row * N + col] = acc;
}
