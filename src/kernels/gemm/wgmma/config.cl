// wgmma/config.cl — the wgmma kernel's parameters (set by the host, wgmma_kernel.cpp), the values
// derived from them, and #error for combinations the kernel cannot build (see gemm/wgmma/wgmma.cl).

#ifndef BATCHED
#define BATCHED 0   // set by the host for a batch of more than one item, or one given by arrays
#endif
#ifndef BM
#define BM 128      // rows of C per work-group: 64, 128, 192 or 256
#endif
#ifndef WM
#define WM 64       // rows of C per warpgroup: 64 or 128
#endif
#ifndef BN
#define BN 128      // columns of C per work-group: the N of every wgmma (64, 128, 192 or 256)
#endif
#ifndef BK
#define BK 32       // K-depth of one pipeline slice, in elements (32, 64 or 128 bytes of a row)
#endif
#ifndef STAGES
#define STAGES 3    // slices in the cp.async pipeline
#endif
#ifndef INFLIGHT
#define INFLIGHT 0  // 1: a slice's wgmma may still run while the next one is issued
#endif
#ifndef GROUP_M
#define GROUP_M 8   // tiles of C in a band of rows walked column by column (reuse in L2)
#endif
#ifndef TMA
#define TMA 0       // 1: slices come by the tensor memory accelerator, through tensor maps
#endif
#ifndef B_MN
#define B_MN 0      // 1: B comes as K×N rows of ldb (row-major, as stored), staged N-major
#endif
#ifndef TERMS
#define TERMS 1     // tensor-core products per float32 product: 1, or 3 (3xTF32, float32 inputs)
#endif
#ifndef WS
#define WS 0        // 1: warp-specialised (gemm/wgmma/warp_specialised.cl): a producer warpgroup
                    // copies by TMA, BM/WM consumer warpgroups multiply, persistent over tiles
#endif
#ifndef CONSUMER_REGS
#define CONSUMER_REGS 0  // WS: registers a consumer work-item takes with setmaxnreg (0: none)
#endif
#ifndef PRODUCER_REGS
#define PRODUCER_REGS 0  // WS: registers the producer's work-items give back with setmaxnreg (0: none)
#endif

#if IN_STORAGE == STORAGE_F16 || IN_STORAGE == STORAGE_BF16
#define ELEM 2
typedef ushort in_raw;
#elif IN_STORAGE == STORAGE_F32
#define ELEM 4
typedef uint in_raw;
#else
#error "wgmma takes f16, bf16 or float32 (as TF32) inputs"
#endif

#define WARPGROUPS (BM / WM)                      // the warpgroups that multiply
#define MT (WM / 64)                              // blocks of 64 rows per warpgroup
#define THREADS ((WARPGROUPS + WS) * 128)         // and, with WS, the producer's
#define ROW_BYTES (BK * ELEM)
#define CHUNKS (ROW_BYTES / 16)                   // 16-byte chunks per row
#define CHUNK_ELEMS (16 / ELEM)
#define MMAS (ROW_BYTES / 32)                     // wgmma per slice
#define A_BYTES (BM * ROW_BYTES)
#define STAGE_BYTES ((BM + BN) * ROW_BYTES)
#define NACC (BN / 2)                             // accumulators per work-item
#define COPIES (((BM + BN) * CHUNKS) / THREADS)   // 16-byte copies per work-item per slice

#if (WM != 64 && WM != 128) || BM % WM || BM / WM > 4 || (BM != 64 && BM != 128 && BM != 192 && BM != 256)
#error "BM is 64, 128, 192 or 256, WM 64 or 128, and BM one to four times WM"
#endif
#if BN != 64 && BN != 128 && BN != 192 && BN != 256
#error "BN is 64, 128, 192 or 256"
#endif
#if ROW_BYTES != 32 && ROW_BYTES != 64 && ROW_BYTES != 128
#error "a slice's rows are 32, 64 or 128 bytes (BK of 16, 32 or 64 16-bit elements, 8, 16 or 32 floats)"
#endif
#if INFLIGHT != 0 && INFLIGHT != 1
#error "INFLIGHT is 0 or 1"
#endif
#if STAGES < 2 || STAGES > 8
#error "the pipeline has 2-8 stages"
#endif
#define AHEAD (STAGES - 1)                        // slices being copied while one is multiplied
#if !WS && ((BM + BN) * CHUNKS) % THREADS
#error "a slice must split evenly into 16-byte copies over the work-group"
#endif
#if WS && (!TMA || INFLIGHT || TERMS != 1 || SPLITS > 1 || BATCH_ARRAYS || (B_MN && ELEM == 4))
#error "WS takes TMA, INFLIGHT 0, TERMS 1, no split-K, strided batches and a K-major float32 B"
#endif
#if TMA && (INFLIGHT || BATCH_ARRAYS)
#error "the tensor-map path takes INFLIGHT 0 and strided batches"
#endif
#if B_MN && ELEM == 2 && BK % 16
#error "an N-major 16-bit B takes a BK of 16, 32 or 64"
#endif
#if TERMS != 1 && (TERMS != 3 || ELEM != 4 || INFLIGHT)
#error "TERMS is 1, or 3 (3xTF32) with float32 inputs and INFLIGHT 0"
#endif
// TF32 has no transposed descriptor operand: an N-major float32 B goes through registers, as
// wgmma's A operand, and the kernel computes the tile transposed (B_REGS; see gemm/wgmma/wgmma.cl).
#define B_REGS (B_MN && ELEM == 4)
#if B_REGS && (BM != BN || BN > 128 || (MMAS != 2 && MMAS != 4) || INFLIGHT)
#error "an N-major float32 B takes BM = BN (64 or 128), BK of 16 or 32 floats and INFLIGHT 0"
#endif
#define A_COPIES (BM * CHUNKS)
#define ATOM_COLS (128 / ELEM)                    // columns of an N-major B per 128-byte row
#define B_ATOM_BYTES (BK * 128)                   // an N-major B: ATOM_COLS columns × BK rows
// One lo buffer of the descriptor operand (3xTF32): B's slice, or A's with B_REGS (BM = BN).
#define LO_BYTES (TERMS == 3 ? BN * ROW_BYTES : 0)
// Two lo buffers in turn where another warpgroup may still read slice kt − 1's while slice kt's is
// written; one warpgroup has finished with it by then.
#define LO_BUFFERS (WARPGROUPS == 1 ? 1 : 2)
// The epilogue stages rows of C of EPI_ROW(cols) floats (wgmma/epilogue.cl). With WS it has its
// own area after the stages, WS_EPI_COLS columns of 64 rows per warpgroup, since the producer
// fills the stages with the next tile's slices while the consumers store this one.
#define EPI_ROW(cols) ((cols) + 8)
#define WS_EPI_COLS 32
#define WS_EPI_BYTES (WS ? WARPGROUPS * 64 * EPI_ROW(WS_EPI_COLS) * 4 : 0)
#define LOCAL_BYTES (STAGES * STAGE_BYTES + LO_BUFFERS * LO_BYTES + WS_EPI_BYTES)
// sm_90 gives a work-group's static local memory at most 232,448 bytes, 4 of them the runtime's
// (measured on an H200: runtime/local_limits.hpp); the host checks each configuration against
// the limit it measured on the device, with 1 KiB kept for the barriers and the 1024-byte
// alignment of the stages.
#if LOCAL_BYTES + 1024 > 232448
#error "the stages, lo buffers and epilogue area must fit the 227 KiB of local memory sm_90 has"
#endif
