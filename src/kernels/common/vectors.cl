// vectors.cl — the element type of the GEMM kernels, its vectors, and the arithmetic they do on
// it. Every kernel that works in the element type prepends this file (its descriptor or command
// lists it first) and is written once, in `real`, for every precision:
//
//   PRECISION                        the compute type: 32 (the default) float, 64 double
//   real, real2, real4, real8        the element type and its vectors
//   ZERO                             0 as a real
//   typedef VECTOR(WIDTH) realW;     real, real2, real4 or real8
//   LANE(WIDTH)(x, v)                lane v of such a vector
//   MULADD(a, b, c)                  c + a·b, which the compiler may fuse (FP_CONTRACT is on in
//                                    OpenCL C); a may be a scalar and b, c vectors
//   FMA(a, b, c)                     a·b + c rounded once, fma()
//   SCALE(T, alpha, x)               alpha·x as a T (real or a vector), 0 where alpha == 0: BLAS
//                                    drops the product then, Inf or NaN in x too
//   axpby(alpha, x, beta, y)         alpha·x + beta·C(y) for one element of C: SCALE, then MULADD
//                                    unless beta == 0, where y is never read (NaN or Inf in C
//                                    stays out)
//
// Kernels that store alpha·x + beta·C in place spell out the same two steps (SCALE, then MULADD
// where beta != 0) rather than call axpby: a call evaluates x before alpha is tested, which for an
// accumulator in private memory indexed at run time (gemm/direct/direct.cl) is a load more.
//
// Storage. A and B are stored as `in_t`, C as `out_t` (IN_STORAGE, OUT_STORAGE: STORAGE_F32,
// STORAGE_F64, STORAGE_F16 or STORAGE_BF16; by default the type of PRECISION). Kernels that read
// the caller's matrices in place go through these, which are plain accesses where the storage is
// `real`:
//   LOAD_IN(p, i)                    element i of an input, as a real
//   LOAD_IN4(p, i)                   elements 4i..4i+3 as a real4 (p need not be aligned)
//   LOAD_IN4A(p)                     the same at p, aligned to four elements
//   LOAD_IN8A(p)                     elements 0..7 at p as a real8, aligned to eight elements
//   LOAD_OUT(p), STORE_OUT(p, v)     an element of C, read as a real; v rounded to out_t and stored
// f16 goes through vload_half/vstore_half_rte (core OpenCL; no cl_khr_fp16 needed), bf16 is a
// ushort holding the upper half of a float, stored rounded to nearest even. IN_NATIVE and
// OUT_NATIVE say the storage is `real`: kernels that load realN vectors directly (xgemm's operands
// in place, its vector stores of C) need it, and the host packs or stores element by element
// otherwise.
//
// LANE is called with v constant (inside fully unrolled loops), so the selects fold into one
// register read: no private array indexed at run time, nothing that could be spilled to memory.
// The ladder's rungs 4-8 prepend this file too, for VECTOR; they teach float32 and are built
// without PRECISION.

#ifndef PRECISION
#define PRECISION 32
#endif

// One block per precision: its real, real2..real8 and ZERO. A precision is added here and in the
// kernels' own PRECISION cases (gemm/xgemm/staging.cl: the cp.async copies' sizes), the
// descriptors' constraints, the entry points and the tuning database.
#if PRECISION == 32
typedef float real;
typedef float2 real2;
typedef float4 real4;
typedef float8 real8;
#define ZERO 0.0f
#define STORAGE_REAL STORAGE_F32
#elif PRECISION == 64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
typedef double real;
typedef double2 real2;
typedef double4 real4;
typedef double8 real8;
#define ZERO 0.0
#define STORAGE_REAL STORAGE_F64
#else
#error "PRECISION must be 32 (float) or 64 (double)"
#endif

#define STORAGE_F32 1
#define STORAGE_F64 2
#define STORAGE_F16 3
#define STORAGE_BF16 4
#ifndef IN_STORAGE
#define IN_STORAGE STORAGE_REAL
#endif
#ifndef OUT_STORAGE
#define OUT_STORAGE STORAGE_REAL
#endif
#define IN_NATIVE (IN_STORAGE == STORAGE_REAL)
#define OUT_NATIVE (OUT_STORAGE == STORAGE_REAL)
#if !IN_NATIVE && IN_STORAGE != STORAGE_F16 && IN_STORAGE != STORAGE_BF16
#error "inputs are stored as the compute type, or as f16 or bf16 (computed in float)"
#endif
#if !OUT_NATIVE && OUT_STORAGE != STORAGE_F16 && OUT_STORAGE != STORAGE_BF16
#error "C is stored as the compute type, or as f16 or bf16 (computed in float)"
#endif
#if (!IN_NATIVE || !OUT_NATIVE) && PRECISION != 32
#error "16-bit storage is computed in float (PRECISION 32)"
#endif

// bf16: the upper 16 bits of a float. Stored rounded to nearest, ties to even; a NaN stays a NaN
// (a quiet one: rounding could carry its payload into the exponent and make it an infinity).
inline float bf16_to_float(const ushort x) { return as_float((uint)x << 16); }
inline ushort float_to_bf16(const float f) {
  const uint u = as_uint(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return (ushort)((u >> 16) | 0x40u);
  return (ushort)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}

// Four (eight) bf16 values widened to float.
inline float4 bf16x4_to_float4(const ushort4 v) { return as_float4(convert_uint4(v) << 16); }
inline float8 bf16x8_to_float8(const ushort8 v) { return as_float8(convert_uint8(v) << 16); }

#if IN_NATIVE
typedef real in_t;
#define LOAD_IN(p, i) ((p)[i])
#define LOAD_IN4(p, i) vload4(i, p)
#define LOAD_IN4A(p) (*(__global const real4*)(p))
#define LOAD_IN8A(p) (*(__global const real8*)(p))
#elif IN_STORAGE == STORAGE_F16
typedef half in_t;
#define LOAD_IN(p, i) vload_half(i, p)
#define LOAD_IN4(p, i) vload_half4(i, p)
#define LOAD_IN4A(p) vloada_half4(0, p)
#define LOAD_IN8A(p) vloada_half8(0, p)
#else
typedef ushort in_t;
#define LOAD_IN(p, i) bf16_to_float((p)[i])
#define LOAD_IN4(p, i) bf16x4_to_float4(vload4(i, p))
#define LOAD_IN4A(p) bf16x4_to_float4(*(__global const ushort4*)(p))
#define LOAD_IN8A(p) bf16x8_to_float8(*(__global const ushort8*)(p))
#endif

// LOAD_OUT4A and STORE_OUT4A move four consecutive elements of C that start on a boundary of four
// elements, as one access (real4 in `real`).
#if OUT_NATIVE
typedef real out_t;
#define LOAD_OUT(p) (*(p))
#define STORE_OUT(p, v) (*(p) = (v))
#define LOAD_OUT4A(p) (*(__global const VECTOR(4)*)(p))
#define STORE_OUT4A(p, v) (*(__global VECTOR(4)*)(p) = (v))
#elif OUT_STORAGE == STORAGE_F16
typedef half out_t;
#define LOAD_OUT(p) vload_half(0, p)
#define STORE_OUT(p, v) vstore_half_rte(v, 0, p)
#define LOAD_OUT4A(p) vloada_half4(0, p)
#define STORE_OUT4A(p, v) vstorea_half4_rte(v, 0, p)
#else
typedef ushort out_t;
#define LOAD_OUT(p) bf16_to_float(*(p))
#define STORE_OUT(p, v) (*(p) = float_to_bf16(v))
#define LOAD_OUT4A(p) bf16x4_to_float4(*(__global const ushort4*)(p))
#define STORE_OUT4A(p, v) (*(__global ushort4*)(p) = \
    (ushort4)(float_to_bf16((v).s0), float_to_bf16((v).s1), float_to_bf16((v).s2), float_to_bf16((v).s3)))
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

inline real axpby(const real alpha, const real x, const real beta, __global const out_t* y) {
  const real t = SCALE(real, alpha, x);
  return (beta == ZERO) ? t : MULADD(beta, LOAD_OUT(y), t);
}
