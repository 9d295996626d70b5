// wgmma_split.hpp — split-K of the wgmma kernel's last round of tiles (gemm/wgmma/split.cl): when
// it pays, and how many parts.
#pragma once

#include <clgemm/gemm.hpp>

#include <cstddef>

namespace clgemm::detail {

// The last `split_tiles` tiles of a product (of each item, in a batch), each computed in `splits`
// parts along K; splits = 1: none.
struct WgmmaSplit {
  size_t splits = 1, split_tiles = 0;
};

// The split of an m×n×k product of `type` inputs in the configuration `ps` (resolved), on
// `device`. `forced` is GemmOptions::force_splits: 0 for the rule below, 1 for none, S >= 2 for S
// parts of the last round's tiles, or of the last `forced_tiles` tiles where that is set (tests).
//
// The rule: where the tiles take more than one round of the device's work-group slots, and at
// most two work-groups share an SM, the last round's tiles are cut into as many parts as that
// round has slots for (at most 16, and at least 16 slices of K each), where wgmma_rounds predicts
// that this takes fewer rounds: three parts or more, for a last round at most a third full.
WgmmaSplit wgmma_split(const DeviceInfo& device, size_t m, size_t n, size_t k, DataType type, const KernelParams& ps,
                       size_t forced = 0, size_t forced_tiles = 0);

// Rounds of work-group slots that `tiles` tiles take with `split`, where a round has `slots`:
// whole rounds, then with a split the parts' share of K and what a round of parts costs beyond
// it (half a round, measured).
double wgmma_rounds(size_t tiles, size_t slots, const WgmmaSplit& split);

// The largest workspace of partial tiles a launch takes (a batch's items have one each): 256 MiB,
// 4096 parts of 128×128 tiles.
constexpr size_t kMaxSplitWorkspaceBytes = size_t(256) << 20;

// The work-groups a launch with `split` has: the whole tiles, and `splits` per split tile.
size_t wgmma_groups(size_t tiles, const WgmmaSplit& split);

}  // namespace clgemm::detail
