// operand_prep_test.cpp — the copy of an operand into a padded (and transposed, or panel-packed)
// temporary, on both the element-wise and the float4 kernels: exact values, zeros in the padding,
// nothing written outside the output.
#include "exec/operand_prep.hpp"
#include "kernels/util/prepare_operand.hpp"
#include "test_support.hpp"

#include <random>

namespace clgemm::test {
namespace {

struct PrepCase {
  size_t rows, cols, ld, offset;
  bool transpose;
  size_t out_rows, out_cols, panel;
  bool float4;  // which kernel the case is meant to reach (asserted, so the cases keep covering both)
};

// The value dst must hold at (r, c) of the logical output: the source element, or zero outside it.
float expected_at(const PrepCase& p, const std::vector<float>& src, size_t r, size_t c) {
  const size_t sr = p.transpose ? c : r, sc = p.transpose ? r : c;
  return sr < p.rows && sc < p.cols ? src[p.offset + sr * p.ld + sc] : 0.0f;
}

size_t stored_index(const PrepCase& p, size_t r, size_t c) {
  return p.panel ? (c / p.panel) * p.out_rows * p.panel + r * p.panel + c % p.panel : r * p.out_cols + c;
}

void check_case(const PrepCase& p) {
  const Context& ctx = shared_context();
  const uint64_t seed = fresh_seed();
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> src(p.offset + p.rows * p.ld);
  for (float& x : src) x = dist(rng);
  const cl::Buffer src_buf = upload(ctx, src);
  const detail::MatrixView view{&src_buf, p.offset, p.rows, p.cols, p.ld};
  const std::string what = std::to_string(p.rows) + "x" + std::to_string(p.cols) + " ld " + std::to_string(p.ld) +
                           " offset " + std::to_string(p.offset) + (p.transpose ? " transposed" : "") + " into " +
                           std::to_string(p.out_rows) + "x" + std::to_string(p.out_cols) + " panel " +
                           std::to_string(p.panel) + ", seed " + std::to_string(seed);
  const detail::Command command = detail::prepare_operand_command(
      ctx.info(), {detail::KernelArg::mem(detail::BufferRole::A), p.offset, p.rows, p.cols, p.ld}, p.transpose,
      detail::KernelArg::mem(detail::BufferRole::C), p.out_rows, p.out_cols, p.panel);
  ASSERT_EQ(command.entry == "prepare_operand_t4", p.float4 && ctx.info().max_work_group_size >= 256) << what;

  GuardedBuffer dst(ctx, p.out_rows * p.out_cols);
  dst.poison();
  detail::enqueue_prepare_operand(ctx, ctx.queue(), view, p.transpose, dst.view(), p.out_rows, p.out_cols, p.panel)
      .wait();
  const std::vector<float> out = dst.read();
  EXPECT_EQ(dst.guard_damage(), "") << what;
  size_t wrong = 0;
  for (size_t r = 0; r < p.out_rows; ++r)
    for (size_t c = 0; c < p.out_cols; ++c) {
      const float got = out[stored_index(p, r, c)], want = expected_at(p, src, r, c);
      if (!(got == want) && wrong++ < 5)
        ADD_FAILURE() << what << ": (" << r << ", " << c << ") holds " << got << ", expected " << want;
    }
  EXPECT_EQ(wrong, 0u) << what;
}

size_t up(size_t x, size_t m) { return (x + m - 1) / m * m; }

TEST(OperandPrep, TransposeFloat4AndElementwise) {
  for (size_t n : {1, 7, 63, 65, 127, 129, 1000}) {
    const size_t rows = n, cols = n + 3;  // not square, so a swapped index shows
    // Aligned rows, output width a multiple of 4 (the GEMM's At: K×M padded to its tile).
    check_case({rows, cols, up(cols, 4), 0, true, up(cols, 16), up(rows, 64), 0, true});
    // An offset and an ld on 16-byte boundaries, a wider ld than the row.
    check_case({rows, cols, up(cols, 4) + 8, 12, true, up(cols, 16), up(rows, 32), 0, true});
    // Rows off 16-byte boundaries (odd ld, odd offset): the element-wise kernel.
    check_case({rows, cols, cols + 1, 3, true, up(cols, 16), up(rows, 64), 0, false});
    check_case({rows, cols, up(cols, 4), 1, true, up(cols, 16), up(rows, 64), 0, false});
    // Output width not a multiple of 4: element-wise.
    check_case({rows, cols, up(cols, 4), 0, true, cols, rows, 0, rows % 4 == 0});
    // Panel-packed output (the ladder's operands), both kernels.
    check_case({rows, cols, up(cols, 4), 0, true, up(cols, 8), up(rows, 32), 16, true});
    check_case({rows, cols, up(cols, 4), 0, true, up(cols, 8), up(rows, 6), 6, false});
  }
}

TEST(OperandPrep, CopyWithPadding) {
  for (size_t n : {1, 7, 65, 129, 1000}) {
    check_case({n, n + 2, n + 2, 0, false, up(n, 32), up(n + 2, 32), 0, false});
    check_case({n, n + 2, n + 5, 7, false, up(n, 16) + 16, up(n + 2, 64), 0, false});
    check_case({n, n + 2, n + 2, 0, false, up(n, 16), up(n + 2, 16), 16, false});
  }
}

}  // namespace
}  // namespace clgemm::test
