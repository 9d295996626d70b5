// vectors.cl — float vectors of width 1, 2, 4 or 8 and reading one lane of them. Shared by every
// kernel that works on vectors: their descriptors prepend this file, so no kernel repeats it.
//
//   typedef VECTOR(WIDTH) floatW;    // float, float2, float4 or float8
//   LANE(WIDTH)(x, v)                // lane v of such a vector
//
// LANE is called with v constant (inside fully unrolled loops), so the selects fold into one
// register read: no private array indexed at run time, nothing that could be spilled to memory.

#define CLGEMM_CAT_(a, b) a##b
#define CLGEMM_CAT(a, b) CLGEMM_CAT_(a, b)
#define CLGEMM_VECTOR_1 float
#define CLGEMM_VECTOR_2 float2
#define CLGEMM_VECTOR_4 float4
#define CLGEMM_VECTOR_8 float8
#define VECTOR(w) CLGEMM_CAT(CLGEMM_VECTOR_, w)
#define LANE(w) CLGEMM_CAT(clgemm_lane, w)

inline float clgemm_lane1(const float x, const int v) {
  (void)v;
  return x;
}
inline float clgemm_lane2(const float2 x, const int v) { return v == 0 ? x.s0 : x.s1; }
inline float clgemm_lane4(const float4 x, const int v) {
  return v == 0 ? x.s0 : v == 1 ? x.s1 : v == 2 ? x.s2 : x.s3;
}
inline float clgemm_lane8(const float8 x, const int v) {
  return v == 0 ? x.s0 : v == 1 ? x.s1 : v == 2 ? x.s2 : v == 3 ? x.s3
       : v == 4 ? x.s4 : v == 5 ? x.s5 : v == 6 ? x.s6 : x.s7;
}
