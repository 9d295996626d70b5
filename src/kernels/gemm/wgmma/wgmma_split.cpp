// wgmma_split.cpp — see wgmma_split.hpp.
#include "kernels/gemm/wgmma/wgmma_split.hpp"

#include "kernels/descriptor.hpp"
#include "kernels/gemm/wgmma/wgmma_kernel.hpp"
#include "kernels/precision.hpp"

#include <algorithm>

namespace clgemm::detail {

namespace {

constexpr size_t kMaxSplits = 16;
// Parts of fewer slices than this lose more to filling and draining the pipeline than they save
// (H100, f16, 4224×4224×1024: 8 parts of 4 slices 334 TFLOP/s, 2 of 16 344, none 350).
constexpr size_t kMinSlicesPerPart = 16;
// What a round of parts costs beyond its share of K, in rounds of whole tiles: starting each
// work-group and its pipeline over, storing and adding the partial tiles. Measured on an H100
// (f16): 2304³ in 4 parts took 0.83 of a round, 4097³ in 4 parts 0.68, 4352×4096² in 8 0.5.
constexpr double kPartRounds = 0.5;
// The most work-groups per SM at which the rule splits. A lone tile on an SM runs nearly a
// round's time where two share it, so the model holds there; where more share it (3xTF32's 64×64
// tiles, four per SM), a sparse last round is short and a split costs (H100, 4097³ split 76.1
// TFLOP/s against 76.7, 5120×5120×4096 83.6 against 84.6).
constexpr size_t kMaxResidentToSplit = 2;

}  // namespace

WgmmaSplit wgmma_split(const DeviceInfo& device, size_t m, size_t n, size_t k, DataType type, const KernelParams& ps,
                       size_t forced, size_t forced_tiles) {
  if (forced == 1) return {};
  const GemmKernelDescriptor& d = wgmma_descriptor();
  const size_t tiles = ceil_div(m, size_t(p(ps, "BM"))) * ceil_div(n, size_t(p(ps, "BN")));
  const size_t resident = d.resident(ps, device), slots = std::max<size_t>(device.compute_units, 1) * resident;
  // BK counts 16-bit elements: a slice is BK · 2 bytes of K.
  const size_t slices = ceil_div(k * data_type_bytes(type), size_t(p(ps, "BK")) * 2);
  const size_t last_round = tiles - (ceil_div(tiles, slots) - 1) * slots;
  if (forced >= 2) {
    const size_t splits = std::min({forced, slices, kMaxSplits});
    if (splits < 2) return {};
    return {splits, forced_tiles ? std::min(forced_tiles, tiles) : last_round};
  }
  if (tiles <= slots || resident > kMaxResidentToSplit) return {};
  const WgmmaSplit split{std::min({slots / last_round, slices / kMinSlicesPerPart, kMaxSplits}), last_round};
  if (split.splits < 2 || wgmma_rounds(tiles, slots, split) >= wgmma_rounds(tiles, slots, {})) return {};
  return split;
}

double wgmma_rounds(size_t tiles, size_t slots, const WgmmaSplit& split) {
  slots = std::max<size_t>(slots, 1);
  const double rounds = double(ceil_div(tiles, slots));
  if (split.splits < 2) return rounds;
  const double parts_rounds = double(ceil_div(split.split_tiles * split.splits, slots)) / double(split.splits);
  return double(ceil_div(tiles - split.split_tiles, slots)) + parts_rounds + kPartRounds;
}

size_t wgmma_groups(size_t tiles, const WgmmaSplit& split) {
  if (split.splits < 2) return tiles;
  return tiles - split.split_tiles + split.split_tiles * split.splits;
}

}  // namespace clgemm::detail
