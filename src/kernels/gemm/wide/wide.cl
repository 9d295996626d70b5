// wide.cl — products with a short side: out(p, l) = Σ_k S(p, k)·G(k, l) for P <= PB rows of a
// small operand S and a large operand G (K×L) whose rows are contiguous along l. In row-major
// terms that is C with few rows and B not transposed (G = B, S = op(A)), as in a GEMV with a
// row vector, or C with few columns and A transposed (G = A as stored, S = op(B)ᵀ, C written
// transposed).
//
// Why a kernel of its own: the tiled kernels pad the short side to a whole tile and pack the
// large operand first; this one reads G once, in place, at the speed of memory. Each work-item
// owns 4·LQ neighbouring l (LQ real4s of a row of G: with LQ = 1 a warp reads 512 contiguous
// bytes of float per row, but only 256 of f16 or bf16, which LQ = 2 makes 512) and a share of k:
// the KL k-lanes of a work-group take turns by quads of k, and the work-groups along the second
// NDRange dimension take slices of K, so that short or narrow calls still fill the device. S goes through local memory in chunks of CH k, copied by the whole
// work-group, so that the loop reads it from there whichever way it is stored (read from global
// memory, a row of S per load along k ran at half speed on the H200: 16×4096×4096 at 4.4
// TFLOP/s against 9.0 with S the other way round). The lanes add up their sums through local
// memory; a call of one slice then writes C. In a call of several (SLICED), each slice writes its
// sums to a workspace, and they are added up in slice order, so that the result is the same bits
// on every run: by gemm_wide_sum, or (SUM_LAST) by the last slice of each column group to finish,
// in the same launch. The last slice reads all the slices' sums of its columns by itself, which
// pays where they are few (one row of S: H100, 1×4096×4096 971 GFLOP/s against 890) and costs
// where they are not (8 rows: 8×4096×4096 4215 against 5587).
//
// Element (p, l) of out is C[p·c_ps + l·c_ls], element (p, k) of S is S[p·s_ps + k·s_ks] and
// element (k, l) of G is G[k·ldg + l], all after the offsets.
//   G_VEC: ldg and G's offsets are multiples of 4·LQ, so a work-item's elements of a row are one
//     aligned load (else vload4s).
//   G_IS_B: G is the call's B (its batch offsets and stride in B's place), else its A.
//   SLICED: K is cut into slices along the second NDRange dimension; SUM_LAST: the last slice
//     adds them up.
// Batches run along the third NDRange dimension (common/batch.cl picks each item's offsets and
// alpha and beta); `ws` holds slices × PB × L sums per item, and `counts` one count per column
// group and item, zero before the launch and set back to zero by the slice that adds up.

#ifndef PB
#define PB 4  // rows of S held per work-item: P <= PB
#endif
#ifndef WL
#define WL 64  // work-items along l per work-group
#endif
#ifndef KL
#define KL 4  // k-lanes per work-group
#endif
#ifndef LQ
#define LQ 1  // quads of l per work-item: 1 or 2
#endif
#ifndef G_VEC
#define G_VEC 0
#endif
#ifndef QPL
#define QPL 4  // quads of k per lane in one chunk of S
#endif
#define CH (4 * KL * QPL)  // k of S per chunk in local memory
#ifndef G_IS_B
#define G_IS_B 1
#endif
#ifndef SLICED
#define SLICED 0
#endif
#ifndef SUM_LAST
#define SUM_LAST 0
#endif

#if PB < 1 || PB > 16
#error "PB must be from 1 to 16"
#endif
#if LQ != 1 && LQ != 2
#error "LQ is 1 or 2"
#endif
#define LW (4 * LQ)  // l per work-item
#define RC (PB < 4 ? PB : 4)  // rows of S whose lane sums go through local memory at once
#define SUMS ((PB * LW + KL - 1) / KL)  // elements of C per work-item when the last slice adds up
#define UNROLL (SUMS >= 8 ? 2 : 8)     // slices whose loads go out together there
#if PB % RC != 0
#error "PB above 4 must be a multiple of 4"
#endif

// The item's offsets: G, S and C in the call's A, B and C places.
inline void select_wide_item(real* alpha, real* beta, ulong* g_offset, ulong* s_offset, ulong* c_offset,
                             const ulong g_stride, const ulong s_stride, const ulong c_stride,
                             __global const real* scalars, __global const ulong* offsets) {
#if G_IS_B
  select_batch_item(get_group_id(2), alpha, beta, s_offset, g_offset, c_offset, s_stride, g_stride, c_stride, scalars,
                    offsets);
#else
  select_batch_item(get_group_id(2), alpha, beta, g_offset, s_offset, c_offset, g_stride, s_stride, c_stride, scalars,
                    offsets);
#endif
}

// Four elements of row k of G from l on: whole where they are inside L, zero past it.
inline real4 g_quad(__global const in_t* restrict G, const ulong row, const int l, const int L) {
  if (l + 4 <= L) {
#if G_VEC
    return LOAD_IN4A(G + row + l);
#else
    return LOAD_IN4(G + row + l, 0);
#endif
  }
  return (real4)(l < L ? LOAD_IN(G, row + l) : ZERO, l + 1 < L ? LOAD_IN(G, row + l + 1) : ZERO,
                 l + 2 < L ? LOAD_IN(G, row + l + 2) : ZERO, ZERO);
}

// The work-item's LW elements of row k of G from l on, as LQ quads, zero past L.
inline void g_row(real4 g[LQ], __global const in_t* restrict G, const ulong row, const int l, const int L) {
#if LQ == 2 && G_VEC
  if (l + 8 <= L) {
    const real8 v = LOAD_IN8A(G + row + l);
    g[0] = v.lo, g[1] = v.hi;
    return;
  }
#endif
#pragma unroll
  for (int j = 0; j < LQ; ++j) g[j] = g_quad(G, row, l + 4 * j, L);
}

// Rows past K read nothing (their S is zero).
inline void g_zero(real4 g[LQ]) {
#pragma unroll
  for (int j = 0; j < LQ; ++j) g[j] = (real4)(ZERO);
}

__kernel __attribute__((reqd_work_group_size(WL * KL, 1, 1)))
void gemm_wide(const int P, const int L, const int K, real alpha, real beta,
               __global const in_t* restrict G, ulong g_offset, const int ldg, const ulong g_stride,
               __global const in_t* restrict S, ulong s_offset, const int s_ps, const int s_ks, const ulong s_stride,
               __global out_t* restrict C, ulong c_offset, const int c_ps, const int c_ls, const ulong c_stride,
               const int k_slice, __global real* restrict ws, __global int* restrict counts,
               __global const real* restrict scalars, __global const ulong* restrict offsets) {
  select_wide_item(&alpha, &beta, &g_offset, &s_offset, &c_offset, g_stride, s_stride, c_stride, scalars, offsets);
  G += g_offset;
  S += s_offset;
  const int wl = get_local_id(0) % WL, kl = get_local_id(0) / WL;
  const int l = (get_group_id(0) * WL + wl) * LW;
  const int slice = get_group_id(1), slices = get_num_groups(1);
  const int k_end = min(K, (slice + 1) * k_slice);

  real4 acc[PB][LQ];
#pragma unroll
  for (int p = 0; p < PB; ++p)
#pragma unroll
    for (int j = 0; j < LQ; ++j) acc[p][j] = (real4)(ZERO);
  __local real s_tile[PB][CH];
  const int k_begin = slice * k_slice;
  // Chunks of CH k: the group copies S's rows for them (zero past P and past the slice), then each
  // lane takes its quads; k_slice is a multiple of 4·KL, so only K cuts a quad.
  for (int c0 = k_begin; c0 < k_end; c0 += CH) {
    for (int e = get_local_id(0); e < PB * CH; e += WL * KL) {
      const int p = e / CH, k = c0 + e % CH;
      s_tile[p][e % CH] = (p < P && k < k_end) ? LOAD_IN(S, (size_t)p * s_ps + (size_t)k * s_ks) : ZERO;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l < L) {
#pragma unroll
      for (int q = kl; q < CH / 4; q += KL) {
        const int k = c0 + 4 * q;
        if (k < k_end) {
          real4 g0[LQ], g1[LQ], g2[LQ], g3[LQ];
          if (k + 4 <= k_end) {
            g_row(g0, G, (ulong)k * ldg, l, L), g_row(g1, G, (ulong)(k + 1) * ldg, l, L);
            g_row(g2, G, (ulong)(k + 2) * ldg, l, L), g_row(g3, G, (ulong)(k + 3) * ldg, l, L);
          } else {
            g_row(g0, G, (ulong)k * ldg, l, L);
            if (k + 1 < k_end) g_row(g1, G, (ulong)(k + 1) * ldg, l, L);
            else g_zero(g1);
            if (k + 2 < k_end) g_row(g2, G, (ulong)(k + 2) * ldg, l, L);
            else g_zero(g2);
            g_zero(g3);
          }
#pragma unroll
          for (int p = 0; p < PB; ++p) {
            const real4 s = vload4(q, s_tile[p]);
#pragma unroll
            for (int j = 0; j < LQ; ++j) {
              acc[p][j] = MULADD(s.s0, g0[j], acc[p][j]);
              acc[p][j] = MULADD(s.s1, g1[j], acc[p][j]);
              acc[p][j] = MULADD(s.s2, g2[j], acc[p][j]);
              acc[p][j] = MULADD(s.s3, g3[j], acc[p][j]);
            }
          }
        }
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }

  // The lanes' sums through local memory, RC rows of S and one quad of l at a time; lane 0 keeps
  // the totals. The barriers stand outside any condition: PoCL's compiler takes minutes over
  // barriers inside branches of an unrolled loop.
#if KL > 1
  __local real4 part[KL][RC][WL];
#pragma unroll
  for (int j = 0; j < LQ; ++j)
#pragma unroll
    for (int p0 = 0; p0 < PB; p0 += RC) {
#pragma unroll
      for (int r = 0; r < RC; ++r) part[kl][r][wl] = acc[p0 + r][j];
      barrier(CLK_LOCAL_MEM_FENCE);
      if (kl == 0) {
#pragma unroll
        for (int r = 0; r < RC; ++r) {
          real4 sum = part[0][r][wl];
          for (int q = 1; q < KL; ++q) sum += part[q][r][wl];
          acc[p0 + r][j] = sum;
        }
      }
      barrier(CLK_LOCAL_MEM_FENCE);
    }
#endif
#if SLICED
  // This slice's sums; with SUM_LAST, then the count: the release fence and the barrier make the
  // whole group's stores visible before it counts, the acquire fence the other slices' before the
  // last one reads them (volatile: not from a cache that may hold the workspace as it was).
  __global real* own = ws + (size_t)get_group_id(2) * slices * PB * (size_t)L;
  if (kl == 0 && l < L) {
#pragma unroll
    for (int p = 0; p < PB; ++p) {
      if (p < P) {
        __global real* row = own + ((size_t)slice * PB + p) * L + l;
#pragma unroll
        for (int j = 0; j < LQ; ++j) {
          if (l + 4 * j < L) row[4 * j] = acc[p][j].s0;
          if (l + 4 * j + 1 < L) row[4 * j + 1] = acc[p][j].s1;
          if (l + 4 * j + 2 < L) row[4 * j + 2] = acc[p][j].s2;
          if (l + 4 * j + 3 < L) row[4 * j + 3] = acc[p][j].s3;
        }
      }
    }
  }
#if SUM_LAST
  DEVICE_FENCE();
  barrier(CLK_GLOBAL_MEM_FENCE);
  __local int last_slice;
  if (get_local_id(0) == 0) {
    __global int* count = counts + (size_t)get_group_id(2) * get_num_groups(0) + get_group_id(0);
    last_slice = atomic_inc(count) == slices - 1;
    if (last_slice) *count = 0;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (!last_slice) return;
  DEVICE_FENCE();
  // The last slice: the group's columns, SUMS elements of C per work-item. The loads of UNROLL
  // slices of all of them go out before their adds (volatile loads keep their order, so a load
  // per add would wait out a round trip each), and each element still adds its slices in order.
  __global volatile const real* sums = own;
  C += c_offset;
  const int l0 = get_group_id(0) * WL * LW;
  real total[SUMS];
#pragma unroll
  for (int i = 0; i < SUMS; ++i) total[i] = ZERO;
  for (int s0 = 0; s0 < slices; s0 += UNROLL) {
    real v[UNROLL][SUMS];
#pragma unroll
    for (int u = 0; u < UNROLL; ++u)
#pragma unroll
      for (int i = 0; i < SUMS; ++i) {
        const int e = get_local_id(0) + i * WL * KL, p = e / (WL * LW), lc = l0 + e % (WL * LW);
        v[u][i] = s0 + u < slices && p < P && lc < L ? sums[((size_t)(s0 + u) * PB + p) * L + lc] : ZERO;
      }
#pragma unroll
    for (int u = 0; u < UNROLL; ++u)
#pragma unroll
      for (int i = 0; i < SUMS; ++i) total[i] += v[u][i];
  }
#pragma unroll
  for (int i = 0; i < SUMS; ++i) {
    const int e = get_local_id(0) + i * WL * KL, p = e / (WL * LW), lc = l0 + e % (WL * LW);
    if (p < P && lc < L) {
      __global out_t* c = C + (size_t)p * c_ps + (size_t)lc * c_ls;
      STORE_OUT(c, axpby(alpha, total[i], beta, c));
    }
  }
#endif
#else
  if (kl != 0 || l >= L) return;
  C += c_offset;
#pragma unroll
  for (int p = 0; p < PB; ++p) {
    if (p < P) {
#pragma unroll
      for (int j = 0; j < LQ; ++j) {
        const real v[4] = {acc[p][j].s0, acc[p][j].s1, acc[p][j].s2, acc[p][j].s3};
        for (int i = 0; i < 4 && l + 4 * j + i < L; ++i) {
          __global out_t* c = C + (size_t)p * c_ps + (size_t)(l + 4 * j + i) * c_ls;
          STORE_OUT(c, axpby(alpha, v[i], beta, c));
        }
      }
    }
  }
#endif
}

// The slices' sums of gemm_wide, added in slice order: out(p, l) for p = get_global_id(1), l =
// get_global_id(0), item get_global_id(2).
__kernel void gemm_wide_sum(const int P, const int L, const int slices, real alpha, real beta,
                            __global const real* restrict ws, __global out_t* restrict C, ulong c_offset,
                            const int c_ps, const int c_ls, const ulong c_stride, __global const real* restrict scalars,
                            __global const ulong* restrict offsets) {
  ulong unused_g = 0, unused_s = 0;
  select_wide_item(&alpha, &beta, &unused_g, &unused_s, &c_offset, 0, 0, c_stride, scalars, offsets);
  const int l = get_global_id(0), p = get_global_id(1);
  if (l >= L || p >= P) return;
  __global const real* sums = ws + (size_t)get_global_id(2) * slices * PB * (size_t)L + (size_t)p * L + l;
  real total = ZERO;
  for (int s = 0; s < slices; ++s) total += sums[(size_t)s * PB * L];
  __global out_t* c = C + c_offset + (size_t)p * c_ps + (size_t)l * c_ls;
  STORE_OUT(c, axpby(alpha, total, beta, c));
}
