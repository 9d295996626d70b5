// vectors.cl — the element type of the GEMM kernels, its vectors, and the arithmetic they do on
// it. Every kernel that works in the element type prepends this file (its descriptor or command
// lists it first) and is written once, in `real`, for every precision:
//
//   PRECISION                        -DPRECISION=32 (the default): float
//   real, real2, real4, real8        the element type and its vectors
//   ZERO                             0 as a real
//   typedef VECTOR(WIDTH) realW;     real, real2, real4 or real8
//   LANE(WIDTH)(x, v)                lane v of such a vector
//   MULADD(a, b, c)                  c + a·b, which the compiler may fuse (FP_CONTRACT is on in
//                                    OpenCL C); a may be a scalar and b, c vectors
//   FMA(a, b, c)                     a·b + c rounded once, fma()
//   SCALE(T, alpha, x)               alpha·x as a T (real or a vector), 0 where alpha == 0: BLAS
//                                    drops the product then, Inf or NaN in x too
//   axpby(alpha, x, beta, y)         alpha·x + beta·*y for one element: SCALE, then MULADD unless
//                                    beta == 0, where *y is never read (NaN or Inf in C stays out)
//
// Kernels that store alpha·x + beta·C in place spell out the same two steps (SCALE, then MULADD
// where beta != 0) rather than call axpby: a call evaluates x before alpha is tested, which for an
// accumulator in private memory indexed at run time (gemm/direct.cl) is a load more.
//
// Loads and stores are plain accesses of real and realN: each precision stores the type it
// computes in. A precision whose arithmetic type differs from what is stored (bf16) adds load and
// store helpers here.
//
// LANE is called with v constant (inside fully unrolled loops), so the selects fold into one
// register read: no private array indexed at run time, nothing that could be spilled to memory.
// The ladder's rungs 4-8 prepend this file too, for VECTOR; they teach float32 and are built
// without PRECISION.

#ifndef PRECISION
#define PRECISION 32
#endif

// One block per precision: its real, real2..real8 and ZERO. A precision is added here and in the
// kernels' own PRECISION cases (gemm/xgemm/config.cl: the cp.async pipeline is float32 only), the
// descriptors' constraints, the entry points and the tuning database.
#if PRECISION == 32
typedef float real;
typedef float2 real2;
typedef float4 real4;
typedef float8 real8;
#define ZERO 0.0f
#else
#error "this PRECISION is not supported yet (32: float)"
#endif

#define CLGEMM_CAT_(a, b) a##b
#define CLGEMM_CAT(a, b) CLGEMM_CAT_(a, b)
#define CLGEMM_VECTOR_1 real
#define CLGEMM_VECTOR_2 real2
#define CLGEMM_VECTOR_4 real4
#define CLGEMM_VECTOR_8 real8
#define VECTOR(w) CLGEMM_CAT(CLGEMM_VECTOR_, w)
#define LANE(w) CLGEMM_CAT(clgemm_lane, w)

inline real clgemm_lane1(const real x, const int v) {
  (void)v;
  return x;
}
inline real clgemm_lane2(const real2 x, const int v) { return v == 0 ? x.s0 : x.s1; }
inline real clgemm_lane4(const real4 x, const int v) {
  return v == 0 ? x.s0 : v == 1 ? x.s1 : v == 2 ? x.s2 : x.s3;
}
inline real clgemm_lane8(const real8 x, const int v) {
  return v == 0 ? x.s0 : v == 1 ? x.s1 : v == 2 ? x.s2 : v == 3 ? x.s3
       : v == 4 ? x.s4 : v == 5 ? x.s5 : v == 6 ? x.s6 : x.s7;
}

#define MULADD(a, b, c) ((c) + (a) * (b))
#define FMA(a, b, c) fma(a, b, c)
#define SCALE(T, alpha, x) (((alpha) == ZERO) ? (T)(ZERO) : (alpha) * (x))

inline real axpby(const real alpha, const real x, const real beta, __global const real* y) {
  const real t = SCALE(real, alpha, x);
  return (beta == ZERO) ? t : MULADD(beta, *y, t);
}
