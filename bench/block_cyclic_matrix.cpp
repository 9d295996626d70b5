// block_cyclic_matrix.cpp — filling and checking a rank's local blocks.
#include "bench/block_cyclic_matrix.hpp"

#include <algorithm>
#include <cmath>
#include <thread>

namespace clgemm::bench {

double element(uint64_t seed, size_t i, size_t j) {
  uint64_t x = seed * 0x9E3779B97F4A7C15ull ^ (uint64_t(i) << 32 | uint64_t(uint32_t(j)));
  x ^= x >> 31;
  x *= 0xbf58476d1ce4e5b9ull;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebull;
  x ^= x >> 31;
  return double(x >> 11) / double(1ull << 52) - 1.0;
}

namespace {
size_t local_count(size_t n, size_t nb, int p, int procs) {
  const size_t blocks = n / nb, full = blocks / size_t(procs) * nb, extra = blocks % size_t(procs);
  return full + (size_t(p) < extra ? nb : size_t(p) == extra ? n % nb : 0);
}
size_t to_global(size_t l, size_t nb, int p, int procs) { return (l / nb * size_t(procs) + size_t(p)) * nb + l % nb; }
}  // namespace

template <class T>
LocalMatrix<T>::LocalMatrix(const GridPlace& g, size_t n, size_t nb, uint64_t seed) : g_(g), nb_(nb) {
  local_rows = local_count(n, nb, g.row, g.rows);
  local_cols = local_count(n, nb, g.col, g.cols);
  const size_t lld = std::max<size_t>(local_rows, 1);
  const int d[9] = {1, g.context, int(n), int(n), int(nb), int(nb), 0, 0, int(lld)};
  std::copy(d, d + 9, desc);
  data.resize(lld * std::max<size_t>(local_cols, 1));
  const unsigned threads = std::max(1u, std::min(32u, std::thread::hardware_concurrency()));
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      for (size_t lj = t; lj < local_cols; lj += threads) {
        const size_t gj = global_col(lj);
        T* col = data.data() + lj * lld;
        for (size_t li = 0; li < local_rows; ++li) col[li] = T(element(seed, global_row(li), gj));
      }
    });
  for (auto& t : pool) t.join();
}

template <class T>
size_t LocalMatrix<T>::global_row(size_t li) const { return to_global(li, nb_, g_.row, g_.rows); }
template <class T>
size_t LocalMatrix<T>::global_col(size_t lj) const { return to_global(lj, nb_, g_.col, g_.cols); }

template <class T>
double sampled_error(const LocalMatrix<T>& c, size_t n, uint64_t seed_a, uint64_t seed_b, size_t samples) {
  if (c.local_rows == 0 || c.local_cols == 0) return 0;
  double worst = 0;
  uint64_t state = 12345;
  for (size_t s = 0; s < samples; ++s) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    const size_t li = (state >> 33) % c.local_rows, lj = (state >> 13) % c.local_cols;
    const size_t gi = c.global_row(li), gj = c.global_col(lj);
    double sum = 0, mag = 0;
    for (size_t t = 0; t < n; ++t) {
      const double p = double(T(element(seed_a, gi, t))) * double(T(element(seed_b, t, gj)));
      sum += p;
      mag += std::fabs(p);
    }
    worst = std::max(worst, std::fabs(double(c.data[li + lj * std::max<size_t>(c.local_rows, 1)]) - sum) / mag);
  }
  return worst;
}

template struct LocalMatrix<float>;
template struct LocalMatrix<double>;
template double sampled_error<float>(const LocalMatrix<float>&, size_t, uint64_t, uint64_t, size_t);
template double sampled_error<double>(const LocalMatrix<double>&, size_t, uint64_t, uint64_t, size_t);

}  // namespace clgemm::bench
