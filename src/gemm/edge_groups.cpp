// edge_groups.cpp — how many work-groups compute the ragged edges (edge_groups.hpp).
#include "gemm/edge_groups.hpp"

#include "gemm/edge_split.hpp"
#include "gemm/xgemm_kernel.hpp"

#include <algorithm>

namespace clgemm::detail {

size_t edge_elements(size_t m, size_t n, size_t tile_m, size_t tile_n) {
  const Interior in = interior_of(m, n, tile_m, tile_n);
  if (in.m == 0) return 0;
  return (m - in.m) * n + in.m * (n - in.n);
}

size_t edge_segments(size_t m, size_t n, size_t tile_m, size_t tile_n) {
  const Interior in = interior_of(m, n, tile_m, tile_n);
  if (in.m == 0) return 0;
  const auto runs = [](size_t side) { return (side + kEdgeRun - 1) / kEdgeRun; };
  return runs(m - in.m) * n + runs(n - in.n) * in.m;
}

size_t edge_group_count(size_t m, size_t n, size_t k, size_t tile_m, size_t tile_n, size_t work_items, size_t units) {
  const size_t segments = edge_segments(m, n, tile_m, tile_n);
  if (segments == 0 || work_items == 0) return 0;
  const size_t per_pass = std::max<size_t>(1, work_items / edge_slices(k, work_items));
  const size_t groups = std::max<size_t>(1, std::min(std::max<size_t>(units, 1), (segments + per_pass - 1) / per_pass));
  const size_t row = n / tile_n;  // interior tiles per row of the grid
  return (groups + row - 1) / row * row;
}

}  // namespace clgemm::detail
