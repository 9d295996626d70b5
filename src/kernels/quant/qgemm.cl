// qgemm.cl — C = alpha·A·dequant(W)ᵀ + beta·C in tiles (prompt processing: M above 16).
//
// A work-group computes a TM×TN tile of C: per unit of 32 along K it stages the TM×32 slice of A
// (as float) and the TN×32 slice of W, dequantized by dequant_octet.cl in registers on the way, in
// local memory, both K-major; then each work-item adds WM×WN products per k from registers. Its
// rows are TM/WM apart and its columns TN/WN apart, so that neighbouring work-items read
// neighbouring local words. Rows of A and of W past the edges are staged as zeros and their C
// elements are not written.
//   TM, TN   the tile of C (rows of A, rows of W)
//   WM, WN   C elements per work-item in each direction
// Work sizes: global (ceil(N / TN)·TN/WN, ceil(M / TM)·TM/WM, batch), local (TN/WN, TM/WM, 1).
#ifndef TM
#define TM 64
#endif
#ifndef TN
#define TN 64
#endif
#ifndef WM
#define WM 4
#endif
#ifndef WN
#define WN 4
#endif
#define RX (TN / WN)
#define RY (TM / WM)
#define THREADS (RX * RY)
#if TM % WM != 0 || TN % WN != 0
#error "TM must be a multiple of WM and TN of WN"
#endif

// The eight values of v into column `col` of a K-major local slice, rows 8·o .. 8·o + 7.
inline void put_octet(__local float* slice, const int width, const int o, const int col, const float8 v) {
  __local float* p = slice + (8 * o) * width + col;
  p[0] = v.s0;
  p[width] = v.s1;
  p[2 * width] = v.s2;
  p[3 * width] = v.s3;
  p[4 * width] = v.s4;
  p[5 * width] = v.s5;
  p[6 * width] = v.s6;
  p[7 * width] = v.s7;
}

__kernel __attribute__((reqd_work_group_size(RX, RY, 1)))
void qgemm(const int m, const int n, const int units, const float alpha, const float beta,
           __global const in_t* a, const ulong a_off, const int a_rs, const int a_cs, const ulong a_stride,
           __global const uchar* w, const ulong w_off, const ulong w_row_bytes, const ulong w_stride,
           __global out_t* c, const ulong c_off, const int c_rs, const int c_cs, const ulong c_stride) {
  const int tx = get_local_id(0), ty = get_local_id(1), tid = ty * RX + tx;
  const int row0 = get_group_id(1) * TM, col0 = get_group_id(0) * TN;
  const size_t item = get_global_id(2);
  a += a_off + item * a_stride;
  c += c_off + item * c_stride;
  w += w_off + item * w_stride;
  __local float as[32 * TM];
  __local float ws[32 * TN];
  float acc[WM][WN];
  for (int i = 0; i < WM; ++i)
    for (int j = 0; j < WN; ++j) acc[i][j] = 0.0f;
  for (int u = 0; u < units; ++u) {
    for (int i = tid; i < TM * 4; i += THREADS) {
      const int r = i >> 2, o = i & 3;
      const float8 v = row0 + r < m ? load_a8(a, row0 + r, a_rs, a_cs, 32 * u + 8 * o) : (float8)(0.0f);
      put_octet(as, TM, o, r, v);
    }
    for (int i = tid; i < TN * 4; i += THREADS) {
      const int r = i >> 2, o = i & 3;
      const float8 v = col0 + r < n ? dequant_octet(w + (size_t)(col0 + r) * w_row_bytes, 4 * u + o) : (float8)(0.0f);
      put_octet(ws, TN, o, r, v);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int kk = 0; kk < 32; ++kk) {
      float ar[WM], wr[WN];
      for (int i = 0; i < WM; ++i) ar[i] = as[kk * TM + ty + i * RY];
      for (int j = 0; j < WN; ++j) wr[j] = ws[kk * TN + tx + j * RX];
      for (int i = 0; i < WM; ++i)
        for (int j = 0; j < WN; ++j) acc[i][j] = MULADD(ar[i], wr[j], acc[i][j]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  for (int i = 0; i < WM; ++i) {
    const int r = row0 + ty + i * RY;
    if (r >= m) continue;
    for (int j = 0; j < WN; ++j) {
      const int col = col0 + tx + j * RX;
      if (col < n) store_c(c + (size_t)r * c_rs + (size_t)col * c_cs, alpha, acc[i][j], beta);
    }
  }
}
