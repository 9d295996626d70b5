// xgemm/multiply.cl — the multiply step: a work-item's fragments of A and B at one k-step, from
// the local tiles (or from global memory where an operand is not staged), and their products
// added to its MWI×NWIV accumulators acc; MULTIPLY_TILE for this slice's k-steps of the tile in
// buffer buf, and the rotated K loop's steps.

// Vector g of this work-item's A fragment (A's tile stored K×M) and vector h of its B fragment,
// at k of the tile in buffer bf; from global memory where the operand is not staged.
#if SA
#define A_PART(bf, k, g) As[bf][k][MV(g, ty)]
#else
#define A_PART(bf, k, g) ((IN_K(t + (k)) && IN_MV(m0v + MV(g, ty))) ? At[(size_t)(t + (k)) * lda_v + MV(g, ty)] : (realM)(ZERO))
#endif
#if SB
#define B_FRAG(bf, k, h) Bs[bf][k][NV(h, tx)]
#else
#define B_FRAG(bf, k, h) ((IN_K(t + (k)) && IN_NV(n0v + NV(h, tx))) ? B[(size_t)(t + (k)) * ldb_v + NV(h, tx)] : (realN)(ZERO))
#endif
// The K loop's step, rotated or not: the fragments of k-step k of buffer bf into a (MWI reals)
// and b (NWIV vectors), FRAGS, and their product added to the accumulators, MULTIPLY.
#define FRAGS(bf, k, a, b) { \
    _Pragma("unroll") for (int g = 0; g < MWIV; ++g) { \
      const realM part = A_PART(bf, k, g); \
      _Pragma("unroll") for (int v = 0; v < VWM; ++v) a[g * VWM + v] = comp_m(part, v); } \
    _Pragma("unroll") for (int h = 0; h < NWIV; ++h) b[h] = B_FRAG(bf, k, h); }
#define MULTIPLY(a, b) _Pragma("unroll") for (int i = 0; i < MWI; ++i) \
    _Pragma("unroll") for (int h = 0; h < NWIV; ++h) acc[i][h] = MULADD(a[i], b[h], acc[i][h]);

#if A_MK
// A's tile is M×K: ALK k of each of this work-item's rows in one load, then ALK k-steps.
#define MULTIPLY_TILE \
  _Pragma("unroll 1") for (int kc = 0; kc < KSL; kc += KUNROLL) { \
    _Pragma("unroll") for (int kq = 0; kq < KUNROLL; kq += ALK) { \
      const int k = slice * KSL + kc + kq; \
      realK a[MWI]; \
      _Pragma("unroll") for (int g = 0; g < MWIV; ++g) \
        _Pragma("unroll") for (int v = 0; v < VWM; ++v) a[g * VWM + v] = *(__local const realK*)&As[buf][MV(g, ty) * VWM + v][k]; \
      _Pragma("unroll") for (int w = 0; w < ALK; ++w) { \
        realN b[NWIV]; \
        _Pragma("unroll") for (int h = 0; h < NWIV; ++h) b[h] = B_FRAG(buf, k + w, h); \
        _Pragma("unroll") for (int i = 0; i < MWI; ++i) \
          _Pragma("unroll") for (int h = 0; h < NWIV; ++h) acc[i][h] = MULADD(LANE(ALK)(a[i], w), b[h], acc[i][h]); \
      } \
    } \
  }
#else
// The unroll count goes into the pragma as a number (UNROLL), so that no compiler has to expand a
// macro inside a pragma.
#define PRAGMA_TEXT(text) _Pragma(#text)
#define UNROLL(n) PRAGMA_TEXT(unroll n)
#define MULTIPLY_TILE \
  UNROLL(KUNROLL) for (int kk = 0; kk < KSL; ++kk) { \
    const int k = slice * KSL + kk;  /* this slice's part of the tile */ \
    real a[MWI]; \
    realN b[NWIV]; \
    FRAGS(buf, k, a, b) \
    MULTIPLY(a, b) \
  }
#endif

#if ROTATED
// The rotated K loop (ROTATE; cp.async pipeline, A's tile stored K×M): each k-step's fragments
// are loaded while the k-step before it is multiplied, alternating between two register sets
// (even k-steps in a0/b0, odd ones in a1/b1), and so across the barrier too: the first fragments
// of the next tile are loaded right after it, and the last k-step of this tile is multiplied
// while they come. Unrotated, every tile begins with the barrier, then the first local loads, then
// multiply-adds that wait for them: 38 % of the cycles in which no warp issues in the 128×128
// kernel at 4096³ (Nsight Compute on the H200, scripts/gpu/profile.sh). The kernel peels the last
// tile off the loop so that the barrier is in no branch.
// This slice's k-steps of the tile in buffer buf but the last, which is left loaded in a1/b1.
#define KSTEPS_BUT_LAST() _Pragma("unroll") for (int kk = 0; kk < KSL; kk += 2) { \
    FRAGS(buf, slice * KSL + kk + 1, a1, b1) \
    MULTIPLY(a0, b0) \
    if (kk + 2 < KSL) { \
      FRAGS(buf, slice * KSL + kk + 2, a0, b0) \
      MULTIPLY(a1, b1) } }
// After the barrier: the copies of tile tn into the buffer just read, and the first fragments of
// the next tile (whose copies CP_WAIT saw land) into a0/b0.
#define NEXT_TILE(tn) { \
    CP_WAIT(); \
    barrier(CLK_LOCAL_MEM_FENCE); \
    if ((tn) < k_end) { \
      ISSUE_A(buf, tn) \
      ISSUE_B(buf, tn) } \
    CP_COMMIT(); \
    FRAGS(NEXT_BUF(buf), slice * KSL, a0, b0) }
#endif
