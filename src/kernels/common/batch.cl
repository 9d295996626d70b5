// batch.cl — which batch item a work-group serves, for the kernels that take a whole batch in one
// launch, the item's index coming from an NDRange dimension. Comes after common/vectors.cl (real).
//
// BATCH_ARRAYS = 0: item `batch` starts a fixed stride further into each buffer than the one
// before, and alpha and beta are the kernel's arguments. BATCH_ARRAYS = 1: each item's alpha and
// beta come from `scalars` (pairs) and its offsets into A, B and C from `offsets` (triples, in
// elements), so the items may lie anywhere in the buffers. A and B follow BATCH_ARRAYS unless
// A_ARRAY or B_ARRAY says otherwise: a packed copy of an operand lies at a fixed stride even in a
// batch given by arrays. A_UNIT and B_UNIT: what the kernel counts an operand's offsets in
// (vectors of its loads); the arrays count elements.

#ifndef BATCH_ARRAYS
#define BATCH_ARRAYS 0
#endif
#ifndef A_ARRAY
#define A_ARRAY BATCH_ARRAYS
#endif
#ifndef B_ARRAY
#define B_ARRAY BATCH_ARRAYS
#endif
#ifndef A_UNIT
#define A_UNIT 1
#endif
#ifndef B_UNIT
#define B_UNIT 1
#endif

// Replaces alpha, beta and the three offsets with item `batch`'s.
inline void select_batch_item(const int batch, real* alpha, real* beta, ulong* a_offset, ulong* b_offset,
                              ulong* c_offset, const ulong a_stride, const ulong b_stride, const ulong c_stride,
                              __global const real* scalars, __global const ulong* offsets) {
#if BATCH_ARRAYS
  *alpha = scalars[2 * batch];
  *beta = scalars[2 * batch + 1];
  *c_offset = offsets[3 * batch + 2];
#else
  *c_offset += batch * c_stride;
#endif
#if A_ARRAY
  *a_offset = offsets[3 * batch] / A_UNIT;
#else
  *a_offset += batch * a_stride;
#endif
#if B_ARRAY
  *b_offset = offsets[3 * batch + 1] / B_UNIT;
#else
  *b_offset += batch * b_stride;
#endif
}
