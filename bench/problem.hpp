// bench/problem.hpp — one benchmark problem on the host: the call's settings and the inputs that
// every implementation receives, identical to the bit.
#pragma once

#include <clgemm/gemm.hpp>
#include <clgemm/quant.hpp>

#include "bench/gemm_types.hpp"
#include "bench/host_matrix.hpp"
#include "bench/shapes.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace clgemm::bench {

// What is the same for every shape of a run: layout, transposes, alpha and beta, element types.
struct CallSettings {
  Layout layout = Layout::RowMajor;
  Transpose a_transpose = Transpose::No, b_transpose = Transpose::No;
  float alpha = 1.0f, beta = 0.0f;
  GemmTypes types;  // float32 unless --precision says otherwise
  // --quant: B is the dequantized form of quantized weights W (N rows of K), so the product is
  // A·dequant(W)ᵀ. B enters as Bᵀ in row-major and as B in column-major: either way its memory is
  // W's rows, dequantized, one after another.
  std::optional<QuantFormat> quant;

  // "row-major, A·B" / "column-major, A·Bᵀ" and the like, for headers.
  std::string describe() const;
  // Row-major, no transposes, alpha = 1, beta = 0: the only call the ladder rungs and the
  // triple loop compute (and only with float32 types).
  bool is_plain() const;
};

// A dense problem: A, B and C stored without padding in `settings.layout`, so each leading
// dimension is the stored matrix's row length (row-major) or column length (column-major). A and
// B are of type settings.types.in, C0 of settings.types.out. A batch (shape.batch items) stores
// its items one after another: item i of A starts at i·a_stride(), and so on.
//
// A grouped shape stores its problems one after another in each of A, B and C (`members`: each
// problem's shape, offsets and leading dimensions, dense in the settings' layout).
struct GroupMember {
  GemmShape s;
  size_t a_offset = 0, b_offset = 0, c_offset = 0;
  size_t lda = 0, ldb = 0, ldc = 0;
};

struct Problem {
  Shape shape;
  CallSettings settings;
  size_t lda = 0, ldb = 0, ldc = 0;
  HostMatrix a, b;
  HostMatrix c0;  // C before the call: random, so a result that skips elements shows
  // With settings.quant: W's bytes, batch·N rows of w_row_bytes (item i's N rows start at row
  // i·N), quantized from random values; b holds their dequantized values rounded to types.in,
  // the operand the dense implementations receive.
  std::vector<uint8_t> w;
  size_t w_row_bytes = 0;
  std::vector<GroupMember> members;  // a grouped shape's problems

  GemmShape gemm_shape() const { return {shape.m, shape.n, shape.k}; }
  size_t batch() const { return shape.batch; }
  bool grouped() const { return shape.grouped(); }
  size_t a_stride() const { return shape.m * shape.k; }
  size_t b_stride() const { return shape.k * shape.n; }
  size_t c_stride() const { return shape.m * shape.n; }
  size_t w_stride_bytes() const { return shape.n * w_row_bytes; }
  double flops() const;
};

// Fresh uniform [-1, 1) inputs from `seed` (C0 too, whatever beta is: with beta = 0 a correct
// GEMM must overwrite it, so stale values are caught as errors), in the settings' types: float32
// values as cpu::fill_random draws them, rounded to f16 or bf16 for those types, and full float64
// values for f64 (float32 values widened would make every product exact and test less).
Problem make_problem(const Shape& shape, const CallSettings& settings, uint64_t seed);

// alpha·op(A)·op(B) + beta·C0 in float64 (OpenBLAS dgemm on the stored inputs widened to
// double: the values every implementation receives, after rounding to their type), stored like C.
std::vector<double> reference_result(const Problem& p);

// With settings.quant: the same product with W's exact dequantized values in place of b, the
// reference of an implementation that reads W itself (ImplInfo::quantized). For float32
// activations b holds those values already and the two references agree.
std::vector<double> quantized_reference(const Problem& p);

}  // namespace clgemm::bench
