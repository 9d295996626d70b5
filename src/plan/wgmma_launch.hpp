// wgmma_launch.hpp — the commands of the wgmma path (gemm/wgmma/wgmma.cl): which operands it reads in
// place and which it packs first, and the kernel's build options, patch rules and arguments.
#pragma once

#include <clgemm/gemm.hpp>

#include "exec/problem.hpp"
#include "plan/launch_parts.hpp"
#include "runtime/tensor_maps.hpp"

namespace clgemm::detail {

// The wgmma kernel's build options for inputs stored as `in` and C as `out` (BK counts 16-bit
// elements in the parameters, elements of `in` in the kernel).
std::string wgmma_options(const KernelParams& ps, DataType in, DataType out);

// How the kernel sees one operand in memory: `rows` rows of `depth` elements (K for a K-major
// operand; N, with K rows, for B_MN), `ld` elements apart, items `stride` elements apart.
struct OperandLayout {
  size_t rows = 0, depth = 0, ld = 0, stride = 0;
};

// The tensor map of a K-major operand for the configuration `ps`: boxes of `box_rows` rows × one
// slice of K, swizzled as wide as the slice's rows; 3-D where `count` items are more than one.
TiledMapSpec wgmma_kmajor_map(const OperandLayout& o, size_t count, size_t box_rows, const KernelParams& ps, DataType type);

// The tensor map of a B read as stored (B_MN: K rows of N): boxes of one slice's rows × 64
// columns, 128-byte swizzled.
TiledMapSpec wgmma_nmajor_map(const OperandLayout& o, size_t count, const KernelParams& ps, DataType type);

// The smallest call, in multiply-adds, that copies by TMA. Each work-group first completes its
// own copy of the maps. With a 16-bit B K-major, TMA saves 4-11 % of the kernel's time (H100, f16,
// the kernel alone: equal at 1024³ and 2048³, 1.09× at 4096³, 1.12× at 8192³), which pays from
// about 4096×4096×2048; with B as stored, read N-major, it saves 19 % at 2048³ against cp.async's
// reads of it (wgmma_launch.cpp). TF32 moves twice the bytes per multiply-add, and TMA pays from
// 2048³ with its B K-major too (H100, scripts/gpu/force_probe.cpp: 178 against 164 TFLOP/s).
constexpr double kWgmmaTmaMinMultiplyAdds = 34359738368.0;       // 2^35
constexpr double kWgmmaTmaMinMultiplyAddsNMajor = 8589934592.0;  // 2^33, and TF32's
bool wgmma_tma_pays(size_t m, size_t n, size_t k, size_t count, DataType type, bool b_n_major);

// The wgmma path's commands. Where TMA pays, b's device takes tensor maps
// (DeviceInfo::tensor_maps), the batch is strided and both maps encode, every launch copies by TMA
// (TMA = 1), with the maps passed by value and a temporary for the work-groups' copies of them;
// otherwise the kernel copies with cp.async. With TMA, rows that start on 16 bytes are read in
// place. A warp-specialised configuration (WS 1) launches persistent work-groups, as many as the
// SMs hold, with its setmaxnreg budget and .minnctapersm; where the maps do not encode it falls
// back to the same tile without WS (else the defaults), by cp.async.
void add_wgmma(Builder& b, const RowMajorGemm& g, const BatchSpec& s, const GemmPlan& plan);

}  // namespace clgemm::detail
