// wgmma_short_rows.cpp — when a few rows of 16-bit activations take the wgmma kernel.
#include "kernels/gemm/wgmma/wgmma_short_rows.hpp"

#include <algorithm>

namespace clgemm::detail {

namespace {
constexpr size_t kMaxParts = 4;
constexpr size_t kMinPartDepth = 1024;
constexpr size_t kGroupsPerUnit = 2;
}  // namespace

bool wgmma_short_rows_pay(size_t m, size_t n, size_t k, DataType type, size_t items) {
  return (type == DataType::F16 || type == DataType::BF16) && items <= 1 && m >= kWgmmaShortRowsMin &&
         m <= kWgmmaShortRowsMax && n >= 64 && k >= 64 && double(n) * double(k) >= kWgmmaShortRowsMinWeights;
}

size_t wgmma_short_rows_splits(const DeviceInfo& device, size_t m, size_t n, size_t k) {
  const size_t tiles = std::max<size_t>(1, (m + 63) / 64 * ((n + 63) / 64));
  const size_t wanted = kGroupsPerUnit * std::max<size_t>(device.compute_units, 1) / tiles;
  return std::max<size_t>(1, std::min({wanted, kMaxParts, k / kMinPartDepth}));
}

}  // namespace clgemm::detail
