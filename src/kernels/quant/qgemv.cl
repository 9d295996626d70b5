// qgemv.cl — C = alpha·A·dequant(W)ᵀ + beta·C for a few rows of A (decoding: M ≤ 16), W read once.
//
// A team of LANES work-items owns one row of W (one column of C) and walks its octets
// (dequant_octet.cl) LANES apart, so that neighbouring work-items read neighbouring bytes of the
// row and every weight byte is read from memory once. Each work-item dequantizes an octet in
// registers and multiplies it into the MR rows of A it keeps sums for. UNROLL octets are loaded
// before any is used, so that a lane has that many reads in flight: a GEMV waits on memory, and
// one read at a time leaves most of the bandwidth idle. The MR sums of the team's lanes then meet
// in local memory and are added pairwise in a fixed order (the same bits on every run). M above
// MR runs in passes of MR rows, W read again from the cache.
//   WG      work-items per group (TEAMS = WG / LANES rows of W per group)
//   LANES   work-items per row of W, a power of two
//   MR      rows of A per pass, at most LANES
//   UNROLL  octets each lane loads at once
// Work sizes: global (ceil(N / TEAMS)·WG, batch), local (WG, 1).
#ifndef WG
#define WG 128
#endif
#ifndef LANES
#define LANES 32
#endif
#ifndef MR
#define MR 8
#endif
#ifndef UNROLL
#define UNROLL 1
#endif
#define TEAMS (WG / LANES)
#if WG % LANES != 0 || MR > LANES || MR < 1 || (LANES & (LANES - 1)) != 0 || UNROLL < 1
#error "WG must be a multiple of LANES, LANES a power of two, MR between 1 and LANES, UNROLL positive"
#endif

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void qgemv(const int m, const int n, const int units, const float alpha, const float beta,
           __global const in_t* a, const ulong a_off, const int a_rs, const int a_cs, const ulong a_stride,
           __global const uchar* w, const ulong w_off, const ulong w_row_bytes, const ulong w_stride,
           __global out_t* c, const ulong c_off, const int c_rs, const int c_cs, const ulong c_stride) {
  const int lid = get_local_id(0), team = lid / LANES, lane = lid % LANES;
  const int col = get_group_id(0) * TEAMS + team;
  const size_t item = get_global_id(1);
  a += a_off + item * a_stride;
  c += c_off + item * c_stride;
  __global const uchar* row = w + w_off + item * w_stride + (size_t)min(col, n - 1) * w_row_bytes;
  __local float partial[MR][WG];
  const int octets = units * 4;
  for (int m0 = 0; m0 < m; m0 += MR) {
    float acc[MR];
    for (int r = 0; r < MR; ++r) acc[r] = 0.0f;
    if (col < n) {
      int p = lane;
      for (; p + (UNROLL - 1) * LANES < octets; p += UNROLL * LANES) {
        float8 wv[UNROLL];
        for (int u = 0; u < UNROLL; ++u) wv[u] = dequant_octet(row, p + u * LANES);
        for (int u = 0; u < UNROLL; ++u)
          for (int r = 0; r < MR; ++r)
            if (m0 + r < m) acc[r] += dot8(wv[u], load_a8(a, m0 + r, a_rs, a_cs, 8 * (p + u * LANES)));
      }
      for (; p < octets; p += LANES) {
        const float8 wv = dequant_octet(row, p);
        for (int r = 0; r < MR; ++r)
          if (m0 + r < m) acc[r] += dot8(wv, load_a8(a, m0 + r, a_rs, a_cs, 8 * p));
      }
    }
    for (int r = 0; r < MR; ++r) partial[r][lid] = acc[r];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int span = LANES / 2; span > 0; span >>= 1) {
      if (lane < span)
        for (int r = 0; r < MR; ++r) partial[r][lid] += partial[r][lid + span];
      barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lane < MR && col < n && m0 + lane < m)
      store_c(c + (size_t)(m0 + lane) * c_rs + (size_t)col * c_cs, alpha, partial[lane][team * LANES], beta);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}
