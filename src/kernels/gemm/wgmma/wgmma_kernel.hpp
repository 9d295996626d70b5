// wgmma_kernel.hpp — the descriptor of gemm/wgmma/wgmma.cl, Hopper's tensor cores through wgmma, and the
// PTX that replaces its markers (runtime/ptx_markers.hpp).
#pragma once

#include <clgemm/gemm.hpp>

#include "kernels/descriptor.hpp"
#include "kernels/nvidia_arch.hpp"  // wgmma_architecture
#include "runtime/ptx_markers.hpp"

namespace clgemm::detail {

const GemmKernelDescriptor& wgmma_descriptor();

// The input types wgmma multiplies here: f16 and bf16 (products exact in float32), and float32
// read as TF32.
bool wgmma_input(DataType input);

// Whether a call's arithmetic is one the wgmma kernel computes: f16 or bf16 operands (float32
// sums, as the SIMT kernels), or f32 operands with Math::Tf32 or Math::Tf32x3.
bool wgmma_arithmetic(DataType input, Math math);

// The tile parameters for `items` products of m×n×k of `type` inputs (the batch as the planner
// sees it: 1 for a batch planned as one item): overrides of the defaults (128×128 tiles of two
// warpgroups, slices of 32 16-bit elements in three stages), empty where those fill the device and
// K is deep. Where they would leave compute units idle, 64×64 tiles of one warpgroup in three
// slices of 128-byte rows. Batches of 16-bit products with K up to 512 and items up to 384 on a
// side take 64×128 tiles in two slices of 64. Single 16-bit and TF32 products that fill every SM
// with 128×256 tiles take wgmma_ws_tiles where the device takes tensor maps. Other 16-bit calls take
// 128×128 tiles of one warpgroup where three of them per SM fill the last round of work-groups
// clearly better than two.
KernelParams wgmma_tiles(const DeviceInfo& device, size_t m, size_t n, size_t k, size_t items, DataType type,
                         Math math = Math::Fp32);

// Where the wgmma path pays for itself on its own: C of at least 64×64 and K of at least 64
// (smaller products leave most of a 128×128 tile empty; the tall, wide and tiny kernels take
// those shapes).
bool wgmma_pays(size_t m, size_t n, size_t k);

// Where 3xTF32 on wgmma (TERMS 3) beats float32 on its own: `items` products of m×n×k that make
// at least one 64×64 tile per compute unit and 2^31 multiply-adds in all. Below either the float32
// kernels, which also split a deep K, win (H100, TFLOP/s: 1024³ 30 against 33, 256²×65536 in 16
// tiles 4.2 against 27; above them 1024²×2048 38 against 35, 256 × 256³ 40 against 39).
bool wgmma_three_terms_pay(const DeviceInfo& device, size_t m, size_t n, size_t k, size_t items);

// Whether a configuration computes float32 products as 3xTF32 (TERMS 3).
bool wgmma_three_terms(const KernelParams& ps);

// Whether a TF32 or 3xTF32 tile can take B as stored (K×N, N-major) through registers (B_REGS in
// gemm/wgmma/wgmma.cl): square tiles of 64 or 128, slices of 16 or 32 floats (BK 32 or 64) and
// INFLIGHT 0.
bool wgmma_b_registers_fit(const KernelParams& ps);

// The warp-specialised tiles large 16-bit products take where TMA runs: 128×256, two consumer
// warpgroups, four slices of 64 elements.
inline const KernelParams kWgmmaWideTiles = {{"WS", 1}, {"BM", 128}, {"BN", 256}, {"WM", 64}, {"BK", 64}, {"STAGES", 4}};

// How fast warp-specialised 192×192 tiles compute a full round against kWgmmaWideTiles (H200).
constexpr double kWgmmaSquareTileSpeed = 0.96;

// The warp-specialised tiles of an m×n product on `units` SMs: kWgmmaWideTiles, or the same in
// 192×192 where the rounds of tiles they fill, times kWgmmaSquareTileSpeed, beat 128×256's.
KernelParams wgmma_ws_tiles(size_t units, size_t m, size_t n);

// Whether a configuration takes the warp-specialised schedule (WS 1, gemm/wgmma/warp_specialised.cl).
bool wgmma_warp_specialised(const KernelParams& ps);

// The registers a WS producer's work-items keep after setmaxnreg: it only computes addresses and
// waits on barriers.
constexpr size_t kWgmmaProducerRegisters = 40;

// WS's register budget where `resident` work-groups share an SM's 65,536 registers: the producer's
// kWgmmaProducerRegisters, the rest shared by the consumers' work-items in multiples of 8, at most
// 240; {0, 0} (no setmaxnreg) where that gives the consumers no more than the cap at entry, the
// registers shared out evenly.
struct WgmmaRegisterBudget {
  long consumer = 0, producer = 0;
};
WgmmaRegisterBudget wgmma_ws_registers(const KernelParams& ps, size_t resident);

// The rules that turn the kernel's markers into wgmma for inputs of `input` type (F16, BF16, or
// F32 for TF32) and the configuration's BN and BK.
std::vector<PtxMarkerRule> wgmma_rules(const KernelParams& ps, DataType input);

}  // namespace clgemm::detail
