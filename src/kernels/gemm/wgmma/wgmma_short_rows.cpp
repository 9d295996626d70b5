// wgmma_short_rows.cpp — when a few rows of 16-bit activations take the wgmma kernel.
#include "kernels/gemm/wgmma/wgmma_short_rows.hpp"

#include <algorithm>

namespace clgemm::detail {

namespace {
constexpr size_t kMaxParts = 4;
constexpr size_t kMinPartDepth = 1024;
}  // namespace

bool wgmma_short_rows_pay(size_t m, size_t n, size_t k, DataType type, size_t items) {
  return (type == DataType::F16 || type == DataType::BF16) && items <= 1 && m >= kWgmmaShortRowsMin &&
         m <= kWgmmaShortRowsMax && n >= 64 && k >= 64 && double(n) * double(k) >= kWgmmaShortRowsMinWeights;
}

const KernelParams& wgmma_short_rows_tiles(size_t m) {
  if (m <= kWgmmaOneTileRowsMax) return kWgmmaShortRowTiles;
  return m <= 128 ? kWgmmaMidRowTiles : kWgmmaMidRowWideTiles;
}

size_t wgmma_short_rows_splits(const DeviceInfo& device, size_t m, size_t n, size_t k) {
  const KernelParams& t = wgmma_short_rows_tiles(m);
  const size_t bm = size_t(t.at("BM")), bn = size_t(t.at("BN"));
  const size_t tiles = std::max<size_t>(1, (m + bm - 1) / bm * ((n + bn - 1) / bn));
  const size_t groups_per_unit = bm == 64 ? 2 : 1;
  const size_t wanted = groups_per_unit * std::max<size_t>(device.compute_units, 1) / tiles;
  return std::max<size_t>(1, std::min({wanted, kMaxParts, k / kMinPartDepth}));
}

}  // namespace clgemm::detail
