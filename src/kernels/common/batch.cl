// batch.cl — which batch item a work-group serves, for the kernels that take a whole batch in one
// launch along an NDRange dimension (gemm/direct.cl, gemm/tall.cl). Comes after common/vectors.cl
// (real).
//
// BATCH_ARRAYS = 0: item `batch` starts a fixed stride further into each buffer than the one
// before, and alpha and beta are the kernel's arguments. BATCH_ARRAYS = 1: each item's alpha and
// beta come from `scalars` (pairs) and its offsets into A, B and C from `offsets` (triples), so
// the items may lie anywhere in the buffers.

#ifndef BATCH_ARRAYS
#define BATCH_ARRAYS 0
#endif

// Replaces alpha, beta and the three offsets with item `batch`'s.
inline void select_batch_item(const int batch, real* alpha, real* beta, ulong* a_offset, ulong* b_offset,
                              ulong* c_offset, const ulong a_stride, const ulong b_stride, const ulong c_stride,
                              __global const real* scalars, __global const ulong* offsets) {
#if BATCH_ARRAYS
  *alpha = scalars[2 * batch];
  *beta = scalars[2 * batch + 1];
  *a_offset = offsets[3 * batch];
  *b_offset = offsets[3 * batch + 1];
  *c_offset = offsets[3 * batch + 2];
#else
  *a_offset += batch * a_stride;
  *b_offset += batch * b_stride;
  *c_offset += batch * c_stride;
#endif
}
