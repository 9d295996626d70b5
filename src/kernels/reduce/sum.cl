// sum.cl — two-phase parallel sum of a float array, compensated so that it stays accurate.
//
//   sum_partials  phase 1: G work-groups of WG work-items. Each work-item walks the array with a
//                 grid stride, UNROLL float4 loads in flight per iteration, then the group
//                 combines its WG running sums in a tree in local memory → partials[group].
//   sum_final     phase 2: one work-group combines the G partials the same way → out[0].
//
// Accuracy: every running sum is a pair (s, c) — the float32 sum and the float32 sum of its
// rounding errors — updated with Knuth's TwoSum, which recovers the rounding error of each
// addition exactly: t = s + x; z = t - s; err = (s - (t - z)) + (x - z). Combining two pairs uses
// the same TwoSum on the sums and adds the compensations. This is Ogita–Rump–Oishi "Sum2",
// carried through the whole tree: the result is as accurate as if summed in about twice the
// working precision and then rounded once, |result − S| ≲ ε|S| + (d·ε)²·Σ|x| with d the longest
// chain of additions (a few hundred here), whatever the length and the signs. Plain float32
// summation (or Kahan without carrying the compensation through the tree) would have the
// second term at first order, d·ε·Σ|x|. TwoSum is branch-free (6 adds vs Kahan's 4) and, unlike
// Kahan, exact when |x| > |s|; the extra adds are free here because the kernel is bound by memory
// bandwidth (on the H200 ~7 adds per 4 bytes read is ~20 % of the ALU rate). It needs IEEE
// rounding and no reassociation: never build this file with -cl-fast-relaxed-math or
// -cl-unsafe-math-optimizations. There is no multiplication, so FP contraction cannot touch it.
//
// Alignment: x + offset need not be 16-byte aligned. The host splits [0, n) into `head` scalars
// (up to the first 16-byte boundary), `nv` float4s, and `tail` scalars; the head and tail
// elements are picked up by the first work-items, the float4 body by everyone.
//
// Bandwidth (H200 defaults WG = 256, UNROLL = 4, G = 8 groups per CU): 2048 work-items per SM,
// each with 4 × 16 bytes in flight, about 17 MB in flight device-wide — several times the
// bandwidth × latency product (~4.3 TB/s × ~1 µs) — and loads of one warp instruction are 512
// contiguous bytes.

#ifndef WG
#define WG 256      // work-items per group (both phases); a power of two for the tree
#endif
#ifndef UNROLL
#define UNROLL 4    // float4 loads issued per work-item before any of them is added
#endif
#ifndef CONTIGUOUS
#define CONTIGUOUS 0  // 0: grid-stride walk (GPUs: coalesced); 1: a contiguous run per work-item (CPUs)
#endif

#if WG < 1 || (WG & (WG - 1)) != 0
#error "WG must be a power of two"
#endif
#if UNROLL < 1
#error "UNROLL must be at least 1"
#endif
#ifdef __FAST_RELAXED_MATH__
#error "sum.cl relies on IEEE rounding (TwoSum): build it without -cl-fast-relaxed-math"
#endif

// Adds x to the compensated sum (s, c), lane by lane.
inline void two_sum_add(float4* s, float4* c, const float4 x) {
  const float4 t = *s + x;
  const float4 z = t - *s;
  *c += (*s - (t - z)) + (x - z);
  *s = t;
}

// (a.x + b.x, with the rounding error of that addition and both compensations in .y).
inline float2 pair_add(const float2 a, const float2 b) {
  const float t = a.x + b.x;
  const float z = t - a.x;
  const float err = (a.x - (t - z)) + (b.x - z);
  return (float2)(t, (a.y + b.y) + err);
}

// Tree over the WG pairs of a group; the result is in scratch[0] for everyone after the call.
inline float2 group_sum(float2 v, __local float2* scratch) {
  const int lid = get_local_id(0);
  scratch[lid] = v;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int stride = WG / 2; stride > 0; stride >>= 1) {
    if (lid < stride) scratch[lid] = pair_add(scratch[lid], scratch[lid + stride]);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  return scratch[0];
}

// Folds the four lanes of (s, c) into one pair.
inline float2 fold_lanes(const float4 s, const float4 c) {
  const float2 lo = pair_add((float2)(s.s0, c.s0), (float2)(s.s1, c.s1));
  const float2 hi = pair_add((float2)(s.s2, c.s2), (float2)(s.s3, c.s3));
  return pair_add(lo, hi);
}

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void sum_partials(__global const float* restrict x, const ulong offset, const uint head, const uint nv,
                  const uint tail, __global float2* restrict partials) {
  __local float2 scratch[WG];
  const uint gid = get_global_id(0);
  const uint items = get_global_size(0);
  x += offset;

  float4 s = (float4)(0.0f), c = (float4)(0.0f);
  // The few scalars before the first 16-byte boundary and after the last full float4; lanes 0
  // and 1 are as good a place as any for them.
  if (gid < head) two_sum_add(&s, &c, (float4)(x[gid], 0.0f, 0.0f, 0.0f));
  if (gid < tail) two_sum_add(&s, &c, (float4)(0.0f, x[head + 4 * (ulong)nv + gid], 0.0f, 0.0f));

  __global const float4* v = (__global const float4*)(x + head);
#if CONTIGUOUS
  // CPU order: one contiguous run of float4s per work-item, read front to back, which is what the
  // hardware prefetchers of a CPU core follow (a grid stride of `items` float4s would jump
  // kilobytes between loads of one work-item).
  const uint chunk = (nv + items - 1) / items;
  uint i = min(nv, gid * chunk);
  const uint end = min(nv, i + chunk);
  for (; i + UNROLL <= end; i += UNROLL) {
    float4 r[UNROLL];
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) r[u] = v[i + u];
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) two_sum_add(&s, &c, r[u]);
  }
  for (; i < end; ++i) two_sum_add(&s, &c, v[i]);
#else
  // GPU order: grid stride, so that the loads of a warp are consecutive (512 contiguous bytes).
  // Main loop: UNROLL independent loads first, so that they are all in flight together. The host
  // guarantees nv + UNROLL·items < 2^32, so the index cannot wrap.
  uint i = gid;
  for (; i + (UNROLL - 1) * items < nv; i += UNROLL * items) {
    float4 r[UNROLL];
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) r[u] = v[i + u * items];
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) two_sum_add(&s, &c, r[u]);
  }
  for (; i < nv; i += items) two_sum_add(&s, &c, v[i]);
#endif

  const float2 total = group_sum(fold_lanes(s, c), scratch);
  if (get_local_id(0) == 0) partials[get_group_id(0)] = total;
}

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void sum_final(__global const float2* restrict partials, const uint count, __global float* restrict out) {
  __local float2 scratch[WG];
  const uint lid = get_local_id(0);
  float2 acc = (float2)(0.0f);
  for (uint i = lid; i < count; i += WG) acc = pair_add(acc, partials[i]);
  const float2 total = group_sum(acc, scratch);
  if (lid == 0) out[0] = total.x + total.y;  // the one rounding of the compensated sum
}
