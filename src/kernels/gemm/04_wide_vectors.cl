// 04_wide_vectors.cl — rung 4: WIDTH-wide vectors for loads, stores and arithmetic.
//
// What changed from rung 3: the single column a work-item owned becomes WIDTH adjacent columns,
// held as one floatWIDTH vector per row. A work-item computes WPT rows (RTS apart, as in rung 3)
// × WIDTH adjacent columns. Tiles of A and B move from global to local memory as whole vectors
// (one 128-bit load and store per float4 instead of four 32-bit ones), the inner loop reads its
// piece of B as one vector, and each multiply-add is a vector operation: acc[w] += a · b.
//
// Why it should be faster: per k-step a work-item does WPT·WIDTH multiply-adds for WPT + 1 local
// loads (WPT scalars of A, one vector of B), against WPT multiply-adds for WPT + 1 loads in rung 3:
// the A value is reused WIDTH times. Global traffic per tile is the same, but it takes WIDTH times
// fewer, wider transactions, and the loop and index overhead is shared by WIDTH times more work.
// (On a GPU a float4 FMA is four scalar FMAs; the win is in the loads, not in the arithmetic.)
//
// Vector loads: through a __global floatWIDTH pointer rather than vloadWIDTH. vloadn only
// promises float alignment, so a compiler that cannot prove more must split it into scalar loads;
// a vector-typed access tells it the address is WIDTH·4-byte aligned. That is true here: buffers
// and sub-buffers start at least CL_DEVICE_MEM_BASE_ADDR_ALIGN-aligned (≥ 128 bytes in OpenCL
// 1.2+ full profile), and the launcher pads K and N to multiples of TS (hence of WIDTH), so every
// row of A, B and C starts on a vector boundary.
//
// Local memory and banks (32 banks of 4 bytes): Asub is read one scalar at a time in the inner
// loop. A warp of 32 work-items spans 32·WIDTH/TS rows of work-items (2 with the defaults); they
// read the same k of Asub rows ty and ty+1, which without padding lie TS floats apart — the same
// bank, a 2-way conflict on every A load. Padding each Asub row by one vector (WIDTH floats)
// moves consecutive rows WIDTH banks apart (conflict-free while WIDTH² ≤ TS, TS a multiple of 32:
// the 32·WIDTH/TS rows of a warp then fit in 32 banks) and keeps rows vector-aligned. Bsub is read
// as consecutive vectors of one row (conflict-free) and needs no padding.
//
// Sizes: M, N, K must be multiples of TS (the launcher pads with zeros); no guards needed.

#ifndef TS
#define TS 64      // tile side: a work-group computes a TS×TS tile of C
#endif
#ifndef WPT
#define WPT 8      // rows of C per work-item (TS/WPT apart)
#endif
#ifndef WIDTH
#define WIDTH 4    // vector width: adjacent columns of C per work-item, and floats per load (1,2,4,8)
#endif

#if WIDTH != 1 && WIDTH != 2 && WIDTH != 4 && WIDTH != 8
#error "WIDTH must be 1, 2, 4 or 8"
#endif
#if TS % WPT != 0
#error "TS must be a multiple of WPT"
#endif
#if TS % WIDTH != 0
#error "TS must be a multiple of WIDTH"
#endif
#define RTS (TS / WPT)     // work-group height; a work-item's rows are RTS apart
#define CTS (TS / WIDTH)   // work-group width; vectors per tile row
#define LDA (TS + WIDTH)   // padded row length of Asub in floats

typedef VECTOR(WIDTH) floatW;  // common/vectors.cl

__kernel __attribute__((reqd_work_group_size(CTS, RTS, 1)))
void gemm_wide_vectors(const int M, const int N, const int K,
                       __global const float* restrict A, __global const float* restrict B,
                       __global float* restrict C) {
  const int tx = get_local_id(0), ty = get_local_id(1);
  const int KW = K / WIDTH, NW = N / WIDTH;  // row lengths in vectors
  (void)M;  // rows need no check: the grid covers exactly the (padded) M rows
  __global const floatW* restrict Av = (__global const floatW*)A;
  __global const floatW* restrict Bv = (__global const floatW*)B;
  __global floatW* restrict Cv = (__global floatW*)C;

  const int row0 = get_group_id(1) * TS + ty;   // first row of C; the others follow every RTS
  const int colv = get_group_id(0) * CTS + tx;  // the vector column of B and C this work-item owns

  __local floatW Asub[TS][CTS + 1];  // one vector of padding per row: see the bank note above
  __local floatW Bsub[TS][CTS];
  // Asub is written as vectors but read as scalars: a float view, rows LDA floats apart.
  const __local float* Af = (const __local float*)Asub;

  floatW acc[WPT];
#pragma unroll
  for (int w = 0; w < WPT; ++w) acc[w] = (floatW)(0.0f);

  for (int t = 0; t < K; t += TS) {
    // A tile: rows of A, vectors along K. B tile: rows of B, vectors along N. Consecutive
    // work-items take consecutive vectors of one row: coalesced.
#pragma unroll
    for (int w = 0; w < WPT; ++w) {
      const int r = ty + w * RTS;
      Asub[r][tx] = Av[(row0 + w * RTS) * KW + t / WIDTH + tx];
      Bsub[r][tx] = Bv[(t + r) * NW + colv];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < TS; ++k) {
      const floatW b = Bsub[k][tx];  // one vector load, used for WPT rows
#pragma unroll
      for (int w = 0; w < WPT; ++w) acc[w] += Af[(ty + w * RTS) * LDA + k] * b;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }

#pragma unroll
  for (int w = 0; w < WPT; ++w) Cv[(row0 + w * RTS) * NW + colv] = acc[w];
}
