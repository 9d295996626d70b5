// block_cyclic_matrix.hpp — a rank's local blocks of an N x N matrix in ScaLAPACK's layout, filled
// in parallel from a seeded function of the global indices, so that any rank can check any
// element of C (clgemm dist-bench), and that function itself (the distributed tests).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace clgemm::bench {

struct GridPlace {
  int context = -1, rows = 1, cols = 1, row = 0, col = 0;
};

// A value in [-1, 1) for element (i, j) of the matrix with this seed.
double element(uint64_t seed, size_t i, size_t j);

template <class T>
struct LocalMatrix {
  int desc[9] = {};
  size_t local_rows = 0, local_cols = 0;
  std::vector<T> data;
  // N x N in blocks of nb over the grid, from process (0, 0); filled from `seed`.
  LocalMatrix(const GridPlace& g, size_t n, size_t nb, uint64_t seed);
  size_t global_row(size_t li) const;
  size_t global_col(size_t lj) const;

 private:
  GridPlace g_;
  size_t nb_;
};

// The largest relative error over `samples` elements of this rank's C = A·B (seeds of A and B),
// against float64 sums over the stored values.
template <class T>
double sampled_error(const LocalMatrix<T>& c, size_t n, uint64_t seed_a, uint64_t seed_b, size_t samples);

}  // namespace clgemm::bench
