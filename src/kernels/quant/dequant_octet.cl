// dequant_octet.cl — the weights of GGUF's block formats, dequantized in registers, eight at a
// time. Prepended (after common/vectors.cl) by the quantized GEMV and GEMM kernels.
//
// Every format is read in units of 32 weights along K (a Q8_0 or Q4_0 block; a sub-block of a
// 256-weight Q4_K or Q6_K super-block), and a unit in four octets, so that the kernels walk any
// format the same way: octet p of a row holds weights 8p .. 8p + 7 (unit p / 4, octet p % 4).
//   QFORMAT   0 Q8_0, 1 Q4_0, 2 Q4_K, 3 Q6_K (clgemm::QuantFormat)
// The f16 scales are assembled from two bytes, since GGUF rows need not start on an even byte.
#ifndef QFORMAT
#error "QFORMAT must name the weights' block format (0 Q8_0, 1 Q4_0, 2 Q4_K, 3 Q6_K)"
#endif

// IEEE binary16 bits, little-endian at p, as a float (exact, subnormals included).
inline float half_at(__global const uchar* p) {
  const uint h = (uint)p[0] | ((uint)p[1] << 8);
  const uint sign = (h & 0x8000u) << 16, e = (h >> 10) & 31u, mant = h & 1023u;
  if (e == 0u) return as_float(sign | as_uint((float)mant * 0x1p-24f));
  if (e == 31u) return as_float(sign | 0x7f800000u | (mant << 13));
  return as_float(sign | ((e + 112u) << 23) | (mant << 13));
}

#if QFORMAT == 0
#define QBLOCK_BYTES 34
// Q8_0: half d; int8 q[32]. w = d·q.
inline float8 dequant_octet(__global const uchar* row, const int p) {
  __global const uchar* b = row + (size_t)(p >> 2) * QBLOCK_BYTES;
  return half_at(b) * convert_float8(as_char8(vload8(0, b + 2 + 8 * (p & 3))));
}
#elif QFORMAT == 1
#define QBLOCK_BYTES 18
// Q4_0: half d; uint8 qs[16]. Weight j < 16 is the low nibble of qs[j], weight j + 16 its high
// nibble; w = d·(nibble − 8).
inline float8 dequant_octet(__global const uchar* row, const int p) {
  __global const uchar* b = row + (size_t)(p >> 2) * QBLOCK_BYTES;
  const int o = p & 3;
  const uchar8 q = vload8(0, b + 2 + 8 * (o & 1));
  const uchar8 nib = o >= 2 ? q >> (uchar8)4 : q & (uchar8)15;
  return half_at(b) * (convert_float8(nib) - 8.0f);
}
#elif QFORMAT == 2
#define QBLOCK_BYTES 144
// Q4_K: half d, dmin; uint8 scales[12]; uint8 qs[128]. Sub-block s (32 weights) has a 6-bit scale
// and min packed in scales[]; its nibbles are the low (even s) or high (odd s) halves of
// qs[32·(s/2) ..]. w = d·scale·nibble − dmin·min.
inline float8 dequant_octet(__global const uchar* row, const int p) {
  __global const uchar* b = row + (size_t)(p >> 5) * QBLOCK_BYTES;
  const int s = (p >> 2) & 7, o = p & 3;
  __global const uchar* sc = b + 4;
  int scale, minimum;
  if (s < 4) {
    scale = sc[s] & 63;
    minimum = sc[s + 4] & 63;
  } else {
    scale = (sc[s + 4] & 15) | ((sc[s - 4] >> 6) << 4);
    minimum = (sc[s + 4] >> 4) | ((sc[s] >> 6) << 4);
  }
  const uchar8 q = vload8(0, b + 16 + 32 * (s >> 1) + 8 * o);
  const uchar8 nib = (s & 1) ? q >> (uchar8)4 : q & (uchar8)15;
  return (half_at(b) * (float)scale) * convert_float8(nib) - half_at(b + 2) * (float)minimum;
}
#elif QFORMAT == 3
#define QBLOCK_BYTES 210
// Q6_K: uint8 ql[128], qh[64]; int8 scales[16]; half d. Weight e of the 256 lies in half e/128,
// quarter (e % 128)/32, lane e % 32: its low four bits are a nibble of ql[64·half + 32·(quarter
// odd) + lane] (the high nibble for quarters 2 and 3), its top two bits sit at 2·quarter in
// qh[32·half + lane], and its scale is scales[e / 16]. w = d·scale·(q − 32).
inline float8 dequant_octet(__global const uchar* row, const int p) {
  __global const uchar* b = row + (size_t)(p >> 5) * QBLOCK_BYTES;
  const int s = (p >> 2) & 7, o = p & 3, half_index = s >> 2, quarter = s & 3;
  const uchar8 low = vload8(0, b + 64 * half_index + 32 * (quarter & 1) + 8 * o);
  const uchar8 high = vload8(0, b + 128 + 32 * half_index + 8 * o);
  const uchar8 nib = quarter >= 2 ? low >> (uchar8)4 : low & (uchar8)15;
  const uchar8 top = (high >> (uchar8)(2 * quarter)) & (uchar8)3;
  const float scale = (float)as_char(b[192 + 8 * half_index + 2 * quarter + (o >> 1)]);
  return (half_at(b + 208) * scale) * (convert_float8(nib | (top << (uchar8)4)) - 32.0f);
}
#else
#error "QFORMAT must be 0 (Q8_0), 1 (Q4_0), 2 (Q4_K) or 3 (Q6_K)"
#endif

// Eight activations of row r of A from column k: A(r, k + j) at r·a_rs + (k + j)·a_cs, as float.
// A_K_CONTIG (a_cs = 1, a row-major A) reads them as two vectors of four.
#ifndef A_K_CONTIG
#define A_K_CONTIG 0
#endif
inline float8 load_a8(__global const in_t* a, const int r, const int a_rs, const int a_cs, const int k) {
#if A_K_CONTIG
  __global const in_t* p = a + (size_t)r * a_rs + k;
  return (float8)(LOAD_IN4(p, 0), LOAD_IN4(p, 1));
#else
  __global const in_t* p = a + (size_t)r * a_rs + (size_t)k * a_cs;
  float8 v;
  v.s0 = LOAD_IN(p, 0);
  v.s1 = LOAD_IN(p, (size_t)a_cs);
  v.s2 = LOAD_IN(p, (size_t)2 * a_cs);
  v.s3 = LOAD_IN(p, (size_t)3 * a_cs);
  v.s4 = LOAD_IN(p, (size_t)4 * a_cs);
  v.s5 = LOAD_IN(p, (size_t)5 * a_cs);
  v.s6 = LOAD_IN(p, (size_t)6 * a_cs);
  v.s7 = LOAD_IN(p, (size_t)7 * a_cs);
  return v;
#endif
}

inline float dot8(const float8 x, const float8 y) { return dot(x.lo, y.lo) + dot(x.hi, y.hi); }

// alpha·sum + beta·C into C's element at p (C not read where beta = 0; alpha = 0 drops the sum).
inline void store_c(__global out_t* p, const float alpha, const float sum, const float beta) {
  float v = alpha == 0.0f ? 0.0f : alpha * sum;
  if (beta != 0.0f) v = MULADD(beta, LOAD_OUT(p), v);
  STORE_OUT(p, v);
}
