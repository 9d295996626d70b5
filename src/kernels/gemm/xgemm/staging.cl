// xgemm/staging.cl — how the tiles of A and B reach local memory: the local tiles, the guarded
// reads of either operand in each form it comes in, and the three ways a tile moves:
//   - plain: LOAD_x(buffer, t) straight into local memory, then a barrier;
//   - DB: FETCH_x(t) of the next tile into the prefetch registers while this one is multiplied,
//     PUT_x(buffer) from them;
//   - ASYNC: ISSUE_x(buffer, t) starts cp.async copies of tile t, ASYNC-1 tiles ahead.
// Each way has a PROLOGUE before the K loop, and TILE_ARRIVES(t) and TILE_DONE around the
// multiply of each tile (the rotated K loop of xgemm/multiply.cl does its own).

// The tiles in local memory: A's K×M (or, with ALK, M×K) and B's K×N, NBUF buffers of each.
#if SA && A_MK
#define A_TILE(space, name) space real name[NBUF][MWG][AROW] __attribute__((aligned(16)));  // 16-byte copies land here
#elif SA
#define A_TILE(space, name) space realM name[NBUF][KWG][MWGV + PADA];
#else
#define A_TILE(space, name)
#endif
#if SB
#define B_TILE(space, name) space realN name[NBUF][KWG][NWGV + PADB];
#else
#define B_TILE(space, name)
#endif
#if KSLICE > 1
// The sums of slices 1.., element by element in work-item order (consecutive work-items,
// consecutive words), share their local memory with the tiles, which are free once the K loop
// is over: a group takes the larger of the two instead of both (48×48 tiles in 4 slices with a
// 2-stage pipeline of K-steps of 48: 39 KiB instead of 66, within the 48 KiB of the H200).
#if SA || SB
#define UNION_TILES struct { A_TILE(, a) B_TILE(, b) } tiles;
#else
#define UNION_TILES
#endif
#define LOCAL_TILES __local union { UNION_TILES realN sums[KSLICE - 1][MWI * NWIV][WIS]; } shared_local;
#define As shared_local.tiles.a
#define Bs shared_local.tiles.b
#define slice_sums shared_local.sums
#else
#define LOCAL_TILES A_TILE(__local, As) B_TILE(__local, Bs)
#endif

// Where the operands' tile begins (At, B): column m0 of At (in vectors, or in elements), or row m0
// of the stored A; column n0 of B, or row n0 of the stored N×K B. Offsets and leading dimensions
// come in units of a_t and b_t.
#if A_KM && A_VEC
#define A_ORIGIN __global const a_t* restrict At = A0 + a_off_v + m0v;
#elif A_KM
#define A_ORIGIN __global const a_t* restrict At = A0 + a_off_v + m0v * VWM;
#else
#define A_ORIGIN __global const a_t* restrict At = A0 + a_off_v + (size_t)m0v * VWM * lda_v;
#endif
#if B_KN && B_VEC
#define B_ORIGIN __global const b_t* restrict B = B0 + b_off_v + n0v;
#elif B_KN
#define B_ORIGIN __global const b_t* restrict B = B0 + b_off_v + n0v * VWN;
#else
#define B_ORIGIN __global const b_t* restrict B = B0 + b_off_v + (size_t)n0v * VWN * ldb_v;
#endif

// Guarded element reads: zero outside the matrix (only compiled in when the shape needs it).
// MVn, NVn: whole vectors in a row; m_left, n_left: rows and columns of C from the tile origin on.
#if GUARD_K
#define IN_K(k) ((k) < K)
#else
#define IN_K(k) 1
#endif
#if GUARD_M
#define IN_MV(mv) ((mv) < MVn)
#define IN_M(m) ((m) < M)
#define IN_MF(m) ((m) < m_left)
#else
#define IN_MV(mv) 1
#define IN_M(m) 1
#define IN_MF(m) 1
#endif
#if GUARD_N
#define IN_NV(nv) ((nv) < NVn)
#define IN_NF(n) ((n) < n_left)
#else
#define IN_NV(nv) 1
#define IN_NF(n) 1
#endif

#if A_MK && A_VEC
// Four k of row m of the stored A from k on (k a multiple of 4); zero outside the matrix.
inline real4 a_piece(__global const real4* restrict at, const int m, const int k, const int lda_v, const bool in_m,
                     const int K) {
  if (!in_m) return (real4)(ZERO);
#if GUARD_K
  if (k + 4 > K) {  // the row's last vector, partly past K
    __global const real* row = (__global const real*)(at + (size_t)m * lda_v);
    return (real4)(k < K ? row[k] : ZERO, k + 1 < K ? row[k + 1] : ZERO, k + 2 < K ? row[k + 2] : ZERO, ZERO);
  }
#endif
  return at[(size_t)m * lda_v + k / 4];
}
#endif

// Piece id of a tile, read from global memory (x_ELEM(t, id), for the tile at k = t) and stored
// into buffer b (x_STORE(b, id, value)).
#if A_KM
// Vector id of the tile: row id / MWGV (a k), column id % MWGV (a vector of m).
#define A_ELEM(t, id) ((IN_K((t) + (id) / MWGV) && IN_MV(m0v + (id) % MWGV)) \
    ? At[(size_t)((t) + (id) / MWGV) * lda_v + (id) % MWGV] : (realM)(ZERO))
#define A_STORE(b, id, value) As[b][(id) / MWGV][(id) % MWGV] = (value)
#elif A_MK
// Piece id of the tile: row A_PM (an m), first k A_PK; consecutive work-items read consecutive
// pieces of a row, and store them where they are in the row.
#define A_PM(id) ((id) / (KWG / AW))
#define A_PK(id) ((id) % (KWG / AW) * AW)
#if AW == 4
#define A_ELEM(t, id) a_piece(At, A_PM(id), (t) + A_PK(id), lda_v, IN_M(m0v * VWM + A_PM(id)), K)
#define A_STORE(b, id, value) *(__local real4*)&As[b][A_PM(id)][A_PK(id)] = (value)
#else
#define A_ELEM(t, id) ((IN_M(m0v * VWM + A_PM(id)) && IN_K((t) + A_PK(id))) \
    ? At[(size_t)A_PM(id) * lda_v + (t) + A_PK(id)] : ZERO)
#define A_STORE(b, id, value) As[b][A_PM(id)][A_PK(id)] = (value)
#endif
#else
// Float id of the tile: row id / KWG (an m), column id % KWG (a k): consecutive work-items read
// consecutive k of a row, and store them transposed into As[k][m].
#define A_ELEM(t, id) ((IN_M(m0v * VWM + (id) / KWG) && IN_K((t) + (id) % KWG)) \
    ? At[(size_t)((id) / KWG) * lda_v + (t) + (id) % KWG] : ZERO)
#define A_STORE(b, id, value) \
  ((__local real*)As[b][(id) % KWG])[(id) / KWG] = (value)
#endif
#define B_ELEM(t, id) ((IN_K((t) + (id) / NWGV) && IN_NV(n0v + (id) % NWGV)) \
    ? B[(size_t)((t) + (id) / NWGV) * ldb_v + (id) % NWGV] : (realN)(ZERO))
#define B_STORE(b, id, value) Bs[b][(id) / NWGV][(id) % NWGV] = (value)

// This work-item's share of a tile, without the pipeline; nothing for an operand that is not
// staged (read from global memory by the multiply, xgemm/multiply.cl).
#if SA
#define LOAD_A(b, t) _Pragma("unroll") for (int l = 0; l < LPTA; ++l) \
    if (A_HAS(l * WGS + lid)) A_STORE(b, l * WGS + lid, A_ELEM(t, l * WGS + lid));
#define DB_REGS_A a_t ra[LPTA];
#define FETCH_A(t) _Pragma("unroll") for (int l = 0; l < LPTA; ++l) \
    if (A_HAS(l * WGS + lid)) ra[l] = A_ELEM(t, l * WGS + lid);
#define PUT_A(b) _Pragma("unroll") for (int l = 0; l < LPTA; ++l) \
    if (A_HAS(l * WGS + lid)) A_STORE(b, l * WGS + lid, ra[l]);
#else
#define LOAD_A(b, t)
#define DB_REGS_A
#define FETCH_A(t)
#define PUT_A(b)
#endif
#if SB
#define LOAD_B(b, t) _Pragma("unroll") for (int l = 0; l < LPTB; ++l) B_STORE(b, l * WGS + lid, B_ELEM(t, l * WGS + lid));
#define DB_REGS_B realN rb[LPTB];
#define FETCH_B(t) _Pragma("unroll") for (int l = 0; l < LPTB; ++l) rb[l] = B_ELEM(t, l * WGS + lid);
#define PUT_B(b) _Pragma("unroll") for (int l = 0; l < LPTB; ++l) B_STORE(b, l * WGS + lid, rb[l]);
#else
#define LOAD_B(b, t)
#define DB_REGS_B
#define FETCH_B(t)
#define PUT_B(b)
#endif

#if ASYNC
// PTX cp.async (sm_80+): copy one vector of W elements from global to local memory without a
// register in between. When `ok` is false, src-size 0 reads nothing and fills the vector with
// zeros (the guards). 16-byte copies go through L2 only (.cg: a tile is read once per group);
// .ca is the only form for 4 and 8 bytes; 32 and 64 bytes are two and four 16-byte copies.
// A __local pointer converted to an integer is its offset in the shared window, which is what
// the instruction takes as its destination.
#define CP_BYTES_4(dst, src, ok) __asm__ volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;" \
    :: "r"(dst), "l"(src), "r"((ok) ? 4 : 0) : "memory")
#define CP_BYTES_8(dst, src, ok) __asm__ volatile("cp.async.ca.shared.global [%0], [%1], 8, %2;" \
    :: "r"(dst), "l"(src), "r"((ok) ? 8 : 0) : "memory")
#define CP_BYTES_16(dst, src, ok) __asm__ volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" \
    :: "r"(dst), "l"(src), "r"((ok) ? 16 : 0) : "memory")
// A 16-byte copy of which only the first `bytes` come from global memory, the rest zero-filled
// (an A row's last vector where K ends inside it).
#define CP_BYTES_16N(dst, src, bytes) __asm__ volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" \
    :: "r"(dst), "l"(src), "r"(bytes) : "memory")
#define CP_BYTES_32(dst, src, ok) do { CP_BYTES_16(dst, src, ok); CP_BYTES_16((dst) + 16, (src) + 16, ok); } while (0)
#define CP_BYTES_64(dst, src, ok) do { CP_BYTES_32(dst, src, ok); CP_BYTES_32((dst) + 32, (src) + 32, ok); } while (0)
// W elements of the compute type, as bytes.
#if PRECISION == 32
#define CP_ASYNC_1 CP_BYTES_4
#define CP_ASYNC_2 CP_BYTES_8
#define CP_ASYNC_4 CP_BYTES_16
#define CP_ASYNC_8 CP_BYTES_32
// Four elements of which the first `bytes` come from global memory.
#define CP_ASYNC_4N CP_BYTES_16N
#else
#define CP_ASYNC_1 CP_BYTES_8
#define CP_ASYNC_2 CP_BYTES_16
#define CP_ASYNC_4 CP_BYTES_32
#define CP_ASYNC_8 CP_BYTES_64
#define CP_ASYNC_4N(dst, src, bytes) do { \
    CP_BYTES_16N(dst, src, min((int)(bytes), 16)); \
    CP_BYTES_16N((dst) + 16, (src) + 16, max((int)(bytes) - 16, 0)); } while (0)
#endif
#define CP_ASYNC_W(w, dst, src, ok) CP_ASYNC_##w(dst, src, ok)
#define CP_ASYNC(w, dst, src, ok) CP_ASYNC_W(w, dst, src, ok)
#define LOCAL_ADDR(p) ((uint)(size_t)(p))
#define GLOBAL_ADDR(p) ((ulong)(p))
// Groups of copies: one group per tile; wait until at most ASYNC-2 groups (the tiles ahead of
// the next one) are still in flight.
#define CP_COMMIT() __asm__ volatile("cp.async.commit_group;" ::: "memory")
#if ASYNC == 2
#define CP_WAIT() __asm__ volatile("cp.async.wait_group 0;" ::: "memory")
#elif ASYNC == 3
#define CP_WAIT() __asm__ volatile("cp.async.wait_group 1;" ::: "memory")
#else
#define CP_WAIT() __asm__ volatile("cp.async.wait_group 2;" ::: "memory")
#endif

// Of a transposing copy: float id -> (row of the stored operand, k) in blocks of 4 rows × 8 k.
#define T_ROW(id) (((id) / 32) / (KWG / 8) * 4 + ((id) % 32) / 8)
#define T_K(id) (((id) / 32) % (KWG / 8) * 8 + (id) % 8)
// The tile row and column of a work-item's l-th copy, in rows of rowv. Where the copies are
// streamed and the work-group covers whole rows, the row is split into the copy's part and the
// work-item's, so that the compiler sees the copies a constant number of rows apart (H200: the
// 128×128 kernel 0.4-0.6 % faster at 4096³ and 8192³ than with the row as one quotient).
#define COPY_ROW(l, rowv, split) ((split) ? (l) * (WGS / (rowv)) + lid / (rowv) : ((l) * WGS + lid) / (rowv))
#define COPY_COL(l, rowv, split) ((split) ? lid % (rowv) : ((l) * WGS + lid) % (rowv))
// The buffers go round. Two by selects: with the streamed copies 0.8-1.1 % faster than by % (H200,
// 4096³ and 8192³ on the 128×128 tiles); three or four by %, which the small tiles run faster.
#if ASYNC == 2
#define NEXT_BUF(b) ((b) == 1 ? 0 : 1)
#define PREV_BUF(b) ((b) == 0 ? 1 : 0)
#else
#define NEXT_BUF(b) (((b) + 1) % ASYNC)
#define PREV_BUF(b) (((b) + ASYNC - 1) % ASYNC)
#endif
// Per form of each operand, for a work-item's l-th copy of a tile: its row and column in the
// tile as the operand is stored (K×M: a k and an m; M×K: an m and a k), its source as an offset
// from the tile origin At / B for the tile at k, its local address in buffer b, its guard (a
// byte count for A's 16-byte pieces along K), and the copy itself.
#if A_KM && A_VEC
#define A_K(l) COPY_ROW(l, MWGV, A_STREAM && WGS % MWGV == 0)
#define A_M(l) COPY_COL(l, MWGV, A_STREAM && WGS % MWGV == 0)  // a vector of m
#define A_OFF(l, k) ((size_t)((k) + A_K(l)) * lda_v + A_M(l))
#define A_DST(l, b) LOCAL_ADDR(&As[b][A_K(l)][A_M(l)])
#define A_OK(l, t) (IN_K((t) + A_K(l)) && IN_MV(m0v + A_M(l)))
#define A_COPY(dst, src, ok) CP_ASYNC(VWM, dst, GLOBAL_ADDR(src), ok)
#elif A_KM
#define A_K(l) COPY_ROW(l, MWG, A_STREAM && WGS % MWG == 0)
#define A_M(l) COPY_COL(l, MWG, A_STREAM && WGS % MWG == 0)
#define A_OFF(l, k) ((size_t)((k) + A_K(l)) * lda_v + A_M(l))
#define A_DST(l, b) LOCAL_ADDR((__local real*)As[b][A_K(l)] + A_M(l))
#define A_OK(l, t) (IN_K((t) + A_K(l)) && IN_MF(A_M(l)))
#define A_COPY(dst, src, ok) CP_ASYNC(1, dst, GLOBAL_ADDR(src), ok)
#elif A_MK
#define A_M(l) A_PM((l) * WGS + lid)
#define A_K(l) A_PK((l) * WGS + lid)
#define A_DST(l, b) LOCAL_ADDR(&As[b][A_M(l)][A_K(l)])
#if A_VEC
// Copies of four elements along K; where K ends inside a vector, only the bytes before it are read.
#if GUARD_K
#define A_BYTES(k) (min(max(K - (k), 0), 4) * (int)sizeof(real))
#else
#define A_BYTES(k) (4 * (int)sizeof(real))
#endif
#define A_OFF(l, k) ((size_t)A_M(l) * lda_v + ((k) + A_K(l)) / 4)
#define A_OK(l, t) (IN_MF(A_M(l)) ? A_BYTES((t) + A_K(l)) : 0)
#define A_COPY(dst, src, bytes) CP_ASYNC_4N(dst, GLOBAL_ADDR(src), bytes)
#else
#define A_OFF(l, k) ((size_t)A_M(l) * lda_v + (k) + A_K(l))
#define A_OK(l, t) (IN_K((t) + A_K(l)) && IN_MF(A_M(l)))
#define A_COPY(dst, src, ok) CP_ASYNC(1, dst, GLOBAL_ADDR(src), ok)
#endif
#else
// Transposing copies of the stored M×K A into As[k][m].
#define A_M(l) T_ROW((l) * WGS + lid)
#define A_K(l) T_K((l) * WGS + lid)
#define A_OFF(l, k) ((size_t)A_M(l) * lda_v + (k) + A_K(l))
#define A_DST(l, b) LOCAL_ADDR((__local real*)As[b][A_K(l)] + A_M(l))
#define A_OK(l, t) (IN_K((t) + A_K(l)) && IN_MF(A_M(l)))
#define A_COPY(dst, src, ok) CP_ASYNC(1, dst, GLOBAL_ADDR(src), ok)
#endif
#if B_KN && B_VEC
#define B_K(l) COPY_ROW(l, NWGV, B_STREAM && WGS % NWGV == 0)
#define B_N(l) COPY_COL(l, NWGV, B_STREAM && WGS % NWGV == 0)  // a vector of n
#define B_OFF(l, k) ((size_t)((k) + B_K(l)) * ldb_v + B_N(l))
#define B_DST(l, b) LOCAL_ADDR(&Bs[b][B_K(l)][B_N(l)])
#define B_OK(l, t) (IN_K((t) + B_K(l)) && IN_NV(n0v + B_N(l)))
#define B_COPY(dst, src, ok) CP_ASYNC(VWN, dst, GLOBAL_ADDR(src), ok)
#elif B_KN
// Pieces of BW floats; with pairs N is even, so a pair is either wholly inside N or wholly outside.
#define B_K(l) COPY_ROW(l, NWG / BW, B_STREAM && WGS % (NWG / BW) == 0)
#define B_N(l) (BW * COPY_COL(l, NWG / BW, B_STREAM && WGS % (NWG / BW) == 0))
#define B_OFF(l, k) ((size_t)((k) + B_K(l)) * ldb_v + B_N(l))
#define B_DST(l, b) LOCAL_ADDR((__local real*)Bs[b][B_K(l)] + B_N(l))
#define B_OK(l, t) (IN_K((t) + B_K(l)) && IN_NF(B_N(l)))
#define B_COPY(dst, src, ok) CP_ASYNC(BW, dst, GLOBAL_ADDR(src), ok)
#else
// Transposing copies of the stored N×K B into Bs[k][n].
#define B_N(l) T_ROW((l) * WGS + lid)
#define B_K(l) T_K((l) * WGS + lid)
#define B_OFF(l, k) ((size_t)B_N(l) * ldb_v + (k) + B_K(l))
#define B_DST(l, b) LOCAL_ADDR((__local real*)Bs[b][B_K(l)] + B_N(l))
#define B_OK(l, t) (IN_K((t) + B_K(l)) && IN_NF(B_N(l)))
#define B_COPY(dst, src, ok) CP_ASYNC(1, dst, GLOBAL_ADDR(src), ok)
#endif

// ISSUE_x(b, t): starts this work-item's copies of tile t into buffer b; a guarded-out copy
// reads from the tile origin (always valid) and is zero-filled.
// Streamed copies: where a work-item has at most STREAM_COPIES copies of an operand per tile,
// each keeps its source (a_src[l], b_src[l]) and its local address in buffer 0 (a_dst[l],
// b_dst[l]) across the K loop, set up before the prologue. Tiles are issued in order, each once,
// so an issue moves the sources one tile, KWG rows of lda_v / ldb_v, on. Why: in the
// 128×128 kernel the copies' addresses, computed again for every tile ((t + k)·lda in 64 bits,
// on the FMA pipe), sit between the barrier and the first local load, and that stretch holds 22 %
// of the cycles in which no warp issues (Nsight Compute on the H200, scripts/gpu/profile.sh).
// Copies that are not streamed compute both per tile. More streamed copies hold more registers:
// with up to four per operand (STREAM_COPIES 4) 512³ runs 25-30 % slower (0.019 -> 0.024 ms), and
// with every form streamed the medium tiles at 1024³ take 0.090 ms instead of 0.066 (H200).
#define STREAM_STATE(src, dst, T, copies, origin, OFF, DST) \
  __global const T* src[copies]; \
  uint dst[copies]; \
  _Pragma("unroll") for (int l = 0; l < (copies); ++l) { \
    src[l] = (origin) + OFF(l, k_begin); \
    dst[l] = DST(l, 0); }
#if A_STREAM
#define STREAM_STATE_A STREAM_STATE(a_src, a_dst, a_t, LPTA, At, A_OFF, A_DST)
#define ISSUE_A(b, t) _Pragma("unroll") for (int l = 0; l < LPTA; ++l) if (A_HAS(l * WGS + lid)) { \
    const int ok = A_OK(l, t); \
    A_COPY(a_dst[l] + (uint)(b) * (uint)sizeof(As[0]), ok ? a_src[l] : At, ok); \
    a_src[l] += KWG * (size_t)lda_v; }
#else
#define STREAM_STATE_A
#define ISSUE_A(b, t) _Pragma("unroll") for (int l = 0; l < LPTA; ++l) if (A_HAS(l * WGS + lid)) { \
    const int ok = A_OK(l, t); \
    A_COPY(A_DST(l, b), At + (ok ? A_OFF(l, t) : 0), ok); }
#endif
#if B_STREAM
#define STREAM_STATE_B STREAM_STATE(b_src, b_dst, b_t, LPTB, B, B_OFF, B_DST)
#define ISSUE_B(b, t) _Pragma("unroll") for (int l = 0; l < LPTB; ++l) { \
    const bool ok = B_OK(l, t); \
    B_COPY(b_dst[l] + (uint)(b) * (uint)sizeof(Bs[0]), ok ? b_src[l] : B, ok); \
    b_src[l] += KWG * (size_t)ldb_v; }
#else
#define STREAM_STATE_B
#define ISSUE_B(b, t) _Pragma("unroll") for (int l = 0; l < LPTB; ++l) { \
    const bool ok = B_OK(l, t); \
    B_COPY(B_DST(l, b), B + (ok ? B_OFF(l, t) : 0), ok); }
#endif
#endif  // ASYNC

// Before the K loop, after the accumulators: the streamed copies' state and tiles 0 .. ASYNC-2 in
// flight, one commit group each (empty past the end, so that the group count stays uniform for
// the waits); or, double-buffered, tile 0 in buffer 0.
// Each tile t of the K loop (not rotated) then begins with TILE_ARRIVES(t) and ends with
// TILE_DONE:
//   ASYNC: wait until this work-item's copies of tile t have landed, and at the barrier until
//     everyone's have and everyone is done with tile t-1; then tile t+ASYNC-1 goes into the buffer
//     tile t-1 used, free since the barrier. The next barrier protects the buffer of tile t.
//   DB: the loads of tile t+1 are issued first and complete while tile t is multiplied; at the
//     end they go to the other buffer, and one barrier says that it is complete and that everyone
//     has finished reading this one (which the next stores overwrite only after the following
//     barrier).
//   Otherwise tile t is loaded, and barriers keep it until everyone has read it.
#if ASYNC
#define PROLOGUE \
  STREAM_STATE_A \
  STREAM_STATE_B \
  _Pragma("unroll") for (int st = 0; st < ASYNC - 1; ++st) { \
    const int ts = k_begin + st * KWG; \
    if (ts < k_end) { \
      ISSUE_A(st, ts) \
      ISSUE_B(st, ts) \
    } \
    CP_COMMIT(); \
  }
#define TILE_ARRIVES(t) \
  CP_WAIT(); \
  barrier(CLK_LOCAL_MEM_FENCE); \
  { \
    const int tn = (t) + (ASYNC - 1) * KWG; \
    const int bn = PREV_BUF(buf); \
    if (tn < k_end) { \
      ISSUE_A(bn, tn) \
      ISSUE_B(bn, tn) \
    } \
    CP_COMMIT(); \
  }
#define TILE_DONE buf = NEXT_BUF(buf);
#elif DB
#define PROLOGUE \
  DB_REGS_A \
  DB_REGS_B \
  LOAD_A(0, k_begin) \
  LOAD_B(0, k_begin) \
  barrier(CLK_LOCAL_MEM_FENCE);
#define TILE_ARRIVES(t) \
  const bool more = (t) + KWG < k_end; \
  if (more) { \
    FETCH_A((t) + KWG) \
    FETCH_B((t) + KWG) \
  }
#define TILE_DONE \
  if (more) { \
    PUT_A(buf ^ 1) \
    PUT_B(buf ^ 1) \
  } \
  barrier(CLK_LOCAL_MEM_FENCE); \
  buf ^= 1;
#elif SA || SB
#define PROLOGUE
#define TILE_ARRIVES(t) \
  LOAD_A(0, t) \
  LOAD_B(0, t) \
  barrier(CLK_LOCAL_MEM_FENCE);
#define TILE_DONE barrier(CLK_LOCAL_MEM_FENCE);
#else
#define PROLOGUE
#define TILE_ARRIVES(t)
#define TILE_DONE
#endif
