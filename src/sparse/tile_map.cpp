// tile_map.cpp — the host side of tile maps: counting, density, and the map of a host matrix.
#include <clgemm/error.hpp>
#include <clgemm/sparse.hpp>

#include <clgemm/cpu.hpp>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

namespace clgemm {

size_t TileMap::count() const {
  return size_t(std::count_if(nonzero.begin(), nonzero.end(), [](uint8_t f) { return f != 0; }));
}

double TileMap::density() const { return nonzero.empty() ? 0.0 : double(count()) / double(nonzero.size()); }

TileMap tile_map_host(const float* a, size_t m, size_t k, size_t tile) {
  if (tile == 0) throw Error(Status::InvalidArgument, "tile_map_host: the tile size must be at least 1");
  TileMap map;
  map.tile = tile;
  map.rows = (m + tile - 1) / tile;
  map.cols = (k + tile - 1) / tile;
  map.nonzero.assign(map.rows * map.cols, 0);
  for (size_t i = 0; i < m; ++i)
    for (size_t j = 0; j < k; ++j)
      if (a[i * k + j] != 0.0f) map.nonzero[(i / tile) * map.cols + j / tile] = 1;
  return map;
}

std::vector<float> random_tile_sparse(size_t m, size_t k, size_t tile, double density, uint64_t seed) {
  if (tile == 0) throw Error(Status::InvalidArgument, "random_tile_sparse: the tile size must be at least 1");
  if (!(density >= 0.0 && density <= 1.0))
    throw Error(Status::InvalidArgument,
                "random_tile_sparse: density must be in [0, 1], got " + std::to_string(density));
  std::vector<float> a(m * k);
  cpu::fill_random(a, seed);
  const size_t rows = (m + tile - 1) / tile, cols = (k + tile - 1) / tile, tiles = rows * cols;
  const size_t keep = size_t(std::llround(density * double(tiles)));
  std::vector<size_t> order(tiles);
  std::iota(order.begin(), order.end(), size_t(0));
  std::mt19937_64 gen(seed ^ 0x9e3779b97f4a7c15ull);
  std::shuffle(order.begin(), order.end(), gen);
  std::vector<uint8_t> nonzero(tiles, 0);
  for (size_t i = 0; i < keep; ++i) nonzero[order[i]] = 1;
  for (size_t i = 0; i < m; ++i) {
    const size_t tr = i / tile;
    for (size_t tc = 0; tc < cols; ++tc)
      if (!nonzero[tr * cols + tc]) {
        const size_t j0 = tc * tile, j1 = std::min(k, j0 + tile);
        std::fill(a.begin() + i * k + j0, a.begin() + i * k + j1, 0.0f);
      }
  }
  return a;
}

}  // namespace clgemm
