// edge_split.cpp — the blocks of C that an edge split runs as GEMMs of their own, and when the
// split pays.
#include "plan/edge_split.hpp"

namespace clgemm::detail {

namespace {

// Below this many multiply-adds the strips' launches and their own slow start cost more than
// the padded tiles they save: on the H200 the host enqueues a kernel every 13-16 µs, and the
// strips of 1032³ (8 rows or columns) took 21 µs each.
constexpr double kMinWork = 4294967296.0;  // 2^32, about 1625³

}  // namespace

GemmBlock block_of(const RowMajorGemm& g, const BatchSpec& batch, size_t row0, size_t rows, size_t col0, size_t cols) {
  // Row r of op(A) is row r of a stored A, or column r of a stored (transposed) Aᵀ; column c of
  // op(B) is column c of a stored B, or row c of a stored Bᵀ.
  const size_t da = g.trans_a ? row0 : row0 * g.a.ld;
  const size_t db = g.trans_b ? col0 * g.b.ld : col0;
  const size_t dc = row0 * g.c.ld + col0;
  GemmBlock out{g, batch};
  out.g.m = rows, out.g.n = cols;
  out.g.a.offset += da, out.g.b.offset += db, out.g.c.offset += dc;
  for (size_t& o : out.batch.a_offsets) o += da;
  for (size_t& o : out.batch.b_offsets) o += db;
  for (size_t& o : out.batch.c_offsets) o += dc;
  return out;
}

Interior interior_of(size_t m, size_t n, size_t tile_m, size_t tile_n) {
  if (tile_m == 0 || tile_n == 0) return {};
  const size_t im = m / tile_m * tile_m, in = n / tile_n * tile_n;
  if (im == 0 || in == 0 || (im == m && in == n)) return {};
  return {im, in};
}

std::vector<Block> edge_strips(size_t m, size_t n, const Interior& in) {
  std::vector<Block> out;
  if (m > in.m) out.push_back({in.m, m - in.m, 0, n});
  if (n > in.n && in.m > 0) out.push_back({0, in.m, in.n, n - in.n});
  return out;
}

bool edge_split_pays(size_t m, size_t n, size_t k, size_t tile_m, size_t tile_n, size_t units) {
  const Interior in = interior_of(m, n, tile_m, tile_n);
  if (in.m == 0 || units == 0) return false;
  if (double(m) * double(n) * double(k) < kMinWork) return false;
  if (m - in.m > kMaxEdge || n - in.n > kMaxEdge) return false;
  const size_t whole = (m + tile_m - 1) / tile_m * ((n + tile_n - 1) / tile_n);
  const size_t inner = in.m / tile_m * (in.n / tile_n);
  return (inner + units - 1) / units < (whole + units - 1) / units;
}

bool edges_apart_pay(const DeviceInfo& device, size_t m, size_t n, size_t k, size_t tile_m, size_t tile_n) {
  return device.kind == DeviceKind::GPU && edge_split_pays(m, n, k, tile_m, tile_n, device.compute_units);
}

}  // namespace clgemm::detail
