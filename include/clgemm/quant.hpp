// clgemm/quant.hpp — GEMM and GEMV with quantized weights in GGUF's block formats:
// C = alpha·A·dequant(W)ᵀ + beta·C.
//
// W is N rows of K weights, as a language model's GGUF file stores a weight tensor: each row a
// run of blocks along K, `row_bytes` bytes from one row's start to the next. A holds M rows of K
// activations (f32, f16 or bf16) and C is M×N (f32, f16 or bf16), both row- or column-major as
// `layout` says. The kernels read W as stored and dequantize it in registers, block by block;
// no dequantized copy of W is made. Products and sums are float32.
//
// The formats (ggml's layouts, little-endian; "half" is IEEE binary16):
//   Q8_0  34-byte blocks of 32: half d; int8 q[32];                 w = d·q
//   Q4_0  18-byte blocks of 32: half d; uint8 qs[16];               w = d·(nibble − 8): element j < 16
//         is the low nibble of qs[j], element j + 16 its high nibble
//   Q4_K  144-byte blocks of 256: half d, dmin; uint8 scales[12]; uint8 qs[128]. Eight sub-blocks
//         of 32 with a 6-bit scale s and a 6-bit min m each (packed in scales[]);
//         w = d·s·nibble − dmin·m
//   Q6_K  210-byte blocks of 256: uint8 ql[128], qh[64]; int8 scales[16]; half d. Sixteen
//         sub-blocks of 16 with an 8-bit signed scale s each; w = d·s·(q − 32), q of 6 bits (four
//         from ql, two from qh)
#pragma once

#include <clgemm/gemm.hpp>
#include <clgemm/types.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace clgemm {

// The numbers are the C API's (clgemmQuantFormat).
enum class QuantFormat : int { Q8_0 = 0, Q4_0 = 1, Q4_K = 2, Q6_K = 3 };

// "q8_0", "q4_0", "q4_k", "q6_k": how messages, the CLI and Python name a format.
const char* quant_format_name(QuantFormat format);
// The format named so (case-insensitive); throws Error(InvalidQuantFormat) for another name.
QuantFormat quant_format_from_name(const std::string& name);
// Weights per block (32 or 256) and bytes per block (34, 18, 144, 210).
size_t quant_block_elements(QuantFormat format);
size_t quant_block_bytes(QuantFormat format);
// The bytes a row of k weights takes: k / block elements · block bytes. Throws
// Error(QuantBlockMismatch) where k is not a multiple of the block.
size_t quant_row_bytes(QuantFormat format, size_t k);

// Quantizes `rows` rows of k floats (row-major, dense) into `format`, each row `row_bytes` apart
// (0: quant_row_bytes; the bytes past a row's blocks are zero). Scales come from each block's
// largest magnitude (for Q4_K also its smallest value), rounded to nearest; the result holds the
// format's blocks exactly as a GGUF file holds them.
std::vector<uint8_t> quantize(const float* x, size_t rows, size_t k, QuantFormat format, size_t row_bytes = 0);
// The weights that blocks in `format` stand for, as float (exactly: every weight of the four
// formats is a float). `w` holds `rows` rows of k weights, row_bytes apart (0: quant_row_bytes).
std::vector<float> dequantize(const uint8_t* w, size_t rows, size_t k, QuantFormat format, size_t row_bytes = 0);

// Quantized weights in a device buffer: N rows, the first at byte `offset`, each `row_bytes`
// after the one before (at least quant_row_bytes(format, k)).
struct QuantizedRef {
  cl_mem buffer = nullptr;
  QuantFormat format = QuantFormat::Q8_0;
  size_t offset = 0;     // bytes
  size_t row_bytes = 0;  // bytes
};

// One call: C = alpha·A·dequant(W)ᵀ + beta·C, A m×k and C m×n in `layout` (offsets and leading
// dimensions in elements of their types), W n rows of k. The GemmCall of the dense GEMM with
// op(B) = dequant(W)ᵀ, without B's transpose and type, which GGUF's layout fixes.
struct QuantGemmCall {
  Layout layout = Layout::RowMajor;
  size_t m = 0, n = 0, k = 0;
  double alpha = 1.0, beta = 0.0;  // used in float32
  MatrixRef a;
  DataType a_type = DataType::F32;  // f32, f16 or bf16
  QuantizedRef w;
  MatrixRef c;
  DataType c_type = DataType::F32;  // f32, f16 or bf16
};

// Enqueues the call on `queue`, like gemm(): beta = 0 does not read C; k = 0 gives C = beta·C;
// m = 0 or n = 0 does nothing. Throws Error before enqueueing anything: InvalidLayout,
// InvalidQuantFormat, UnsupportedTypes (an f64 A or C), QuantBlockMismatch (k not a multiple of
// the format's block), InvalidLeadingDimension (a_ld, c_ld, or w row_bytes below a row's blocks),
// BufferTooSmall, BufferAccess, OverlappingOperands (C sharing memory with A, W or itself) and
// the buffer and queue statuses of gemm(). GemmOptions::events receives the call's events; no
// other option applies.
void gemm_quantized(const QuantGemmCall& call, cl_command_queue queue, cl_event* event = nullptr,
                    const GemmOptions& options = {});
// batch_count such calls, item i's A, W and C at a_stride, w_stride_bytes and c_stride (elements,
// bytes, elements) times i after the first's. A stride of 0 shares the operand (one W for every
// item of activations); C's items must not overlap.
void gemm_quantized_strided_batched(const QuantGemmCall& call, size_t a_stride, size_t w_stride_bytes,
                                    size_t c_stride, size_t batch_count, cl_command_queue queue,
                                    cl_event* event = nullptr, const GemmOptions& options = {});

// The kernel a call runs, as `clgemm plan` and the tests see it (nothing is enqueued).
struct QuantPlan {
  std::string kernel;   // "qgemv" (m ≤ 16: the weights streamed once) or "qgemm" (tiles of C)
  std::string options;  // its build options
  size_t global[3] = {1, 1, 1}, local[3] = {1, 1, 1};
};
QuantPlan plan_quantized(const DeviceInfo& device, const QuantGemmCall& call, size_t batch_count = 1);

}  // namespace clgemm
