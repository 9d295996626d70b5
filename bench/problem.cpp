// bench/problem.cpp — host inputs for one shape and their float64 reference.
#include "bench/problem.hpp"

#include <clgemm/cpu.hpp>

#include <cblas.h>

#include <random>

namespace clgemm::bench {

std::string CallSettings::describe() const {
  std::string s = layout == Layout::RowMajor ? "row-major" : "column-major";
  if (quant) s += std::string(", ") + quant_format_name(*quant) + " weights W";
  s += std::string(", C = ") + (alpha == 1.0f ? "" : "alpha*") + (a_transpose == Transpose::Yes ? "A^T" : "A") + "*" +
       (quant ? "dequant(W)^T" : b_transpose == Transpose::Yes ? "B^T" : "B") + (beta == 0.0f ? "" : " + beta*C");
  return s;
}

bool CallSettings::is_plain() const {
  return !quant && layout == Layout::RowMajor && a_transpose == Transpose::No && b_transpose == Transpose::No &&
         alpha == 1.0f && beta == 0.0f;
}

namespace {

// Stored rows × columns of an operand that enters the product as rows_op × cols_op.
size_t leading_dim(Layout layout, bool transposed, size_t rows_op, size_t cols_op) {
  const size_t rows = transposed ? cols_op : rows_op, cols = transposed ? rows_op : cols_op;
  return layout == Layout::RowMajor ? cols : rows;
}

// `count` uniform [-1, 1) values of `type` from `seed`.
HostMatrix random_matrix(DataType type, size_t count, uint64_t seed) {
  if (type == DataType::F64) {
    HostMatrix m(type, count);
    std::mt19937_64 gen(seed);
    std::uniform_real_distribution<double> dist(-1.0, 1.0);
    for (auto& x : m.f64()) x = dist(gen);
    return m;
  }
  std::vector<float> values(count);
  cpu::fill_random(values, seed);
  if (type == DataType::F32) return HostMatrix(std::move(values));
  HostMatrix m(type, count);
  for (size_t i = 0; i < count; ++i) m.set(i, values[i]);
  return m;
}

}  // namespace

double Problem::flops() const {
  if (!grouped()) return 2.0 * double(shape.m) * double(shape.n) * double(shape.k) * double(shape.batch);
  double sum = 0;
  for (const GroupMember& g : members) sum += gemm_flops(g.s);
  return sum;
}

Problem make_problem(const Shape& shape, const CallSettings& settings, uint64_t seed) {
  Problem p;
  p.shape = shape;
  p.settings = settings;
  if (shape.grouped()) {
    size_t a = 0, b = 0, c = 0;
    const bool ta = settings.a_transpose == Transpose::Yes, tb = settings.b_transpose == Transpose::Yes;
    for (const GemmShape& s : shape.problems) {
      GroupMember g{s, a, b, c};
      g.lda = leading_dim(settings.layout, ta, s.m, s.k);
      g.ldb = leading_dim(settings.layout, tb, s.k, s.n);
      g.ldc = leading_dim(settings.layout, false, s.m, s.n);
      a += s.m * s.k, b += s.k * s.n, c += s.m * s.n;
      p.members.push_back(g);
    }
    p.a = random_matrix(settings.types.in, a, seed);
    p.b = random_matrix(settings.types.in, b, seed ^ 0x9e3779b97f4a7c15ull);
    p.c0 = random_matrix(settings.types.out, c, seed ^ 0xc2b2ae3d27d4eb4full);
    return p;
  }
  const size_t m = shape.m, n = shape.n, k = shape.k;
  p.lda = leading_dim(settings.layout, settings.a_transpose == Transpose::Yes, m, k);
  p.ldb = leading_dim(settings.layout, settings.b_transpose == Transpose::Yes, k, n);
  p.ldc = leading_dim(settings.layout, false, m, n);
  const size_t items = shape.batch;
  p.a = random_matrix(settings.types.in, m * k * items, seed);
  p.c0 = random_matrix(settings.types.out, m * n * items, seed ^ 0xc2b2ae3d27d4eb4full);
  if (!settings.quant) {
    p.b = random_matrix(settings.types.in, k * n * items, seed ^ 0x9e3779b97f4a7c15ull);
    return p;
  }
  // W's rows of every item at once: rows are independent, so batch·N rows of K are the items'
  // weights one after another.
  std::vector<float> values(n * items * k);
  cpu::fill_random(values, seed ^ 0x9e3779b97f4a7c15ull);
  p.w_row_bytes = quant_row_bytes(*settings.quant, k);
  p.w = quantize(values.data(), n * items, k, *settings.quant);
  const std::vector<float> dequantized = dequantize(p.w.data(), n * items, k, *settings.quant);
  if (settings.types.in == DataType::F32) {
    p.b = HostMatrix(dequantized);
  } else {
    p.b = HostMatrix(settings.types.in, dequantized.size());
    for (size_t i = 0; i < dequantized.size(); ++i) p.b.set(i, dequantized[i]);
  }
  return p;
}

namespace {

std::vector<double> reference_with_b(const Problem& p, const std::vector<double>& b) {
  const auto& s = p.settings;
  std::vector<double> a = p.a.to_doubles(), c = p.c0.to_doubles();
  if (p.shape.m == 0 || p.shape.n == 0) return c;
  // BLAS does not read C when beta = 0; neither does the reference.
  if (s.beta == 0.0f) std::fill(c.begin(), c.end(), 0.0);
  const auto layout = s.layout == Layout::RowMajor ? CblasRowMajor : CblasColMajor;
  const auto ta = s.a_transpose == Transpose::Yes ? CblasTrans : CblasNoTrans;
  const auto tb = s.b_transpose == Transpose::Yes ? CblasTrans : CblasNoTrans;
  for (const GroupMember& g : p.members)
    cblas_dgemm(layout, ta, tb, int(g.s.m), int(g.s.n), int(g.s.k), double(s.alpha), a.data() + g.a_offset, int(g.lda),
                b.data() + g.b_offset, int(g.ldb), double(s.beta), c.data() + g.c_offset, int(g.ldc));
  if (p.grouped()) return c;
  for (size_t i = 0; i < p.batch(); ++i)
    cblas_dgemm(s.layout == Layout::RowMajor ? CblasRowMajor : CblasColMajor,
                s.a_transpose == Transpose::Yes ? CblasTrans : CblasNoTrans,
                s.b_transpose == Transpose::Yes ? CblasTrans : CblasNoTrans, int(p.shape.m), int(p.shape.n),
                int(p.shape.k), double(s.alpha), a.data() + i * p.a_stride(), int(p.lda),
                b.data() + i * p.b_stride(), int(p.ldb), double(s.beta), c.data() + i * p.c_stride(), int(p.ldc));
  return c;
}

}  // namespace

std::vector<double> reference_result(const Problem& p) { return reference_with_b(p, p.b.to_doubles()); }

std::vector<double> quantized_reference(const Problem& p) {
  if (!p.settings.quant) return reference_result(p);
  const std::vector<float> w =
      dequantize(p.w.data(), p.shape.n * p.batch(), p.shape.k, *p.settings.quant, p.w_row_bytes);
  return reference_with_b(p, std::vector<double>(w.begin(), w.end()));
}

}  // namespace clgemm::bench
