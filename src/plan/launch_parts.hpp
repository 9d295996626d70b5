// launch_parts.hpp — what the launch builders share (launch_builder.cpp, tile_launch.cpp,
// wgmma_launch.cpp): the pieces a batch is cut into, the alignment of an operand's rows, and the
// collector of a part's commands and temporaries.
#pragma once

#include <clgemm/device.hpp>

#include "exec/launch_plan.hpp"
#include "exec/problem.hpp"
#include "kernels/precision.hpp"

#include <algorithm>
#include <type_traits>
#include <vector>

namespace clgemm::detail {

// A batch runs in one launch per command, its items along an NDRange dimension, up to this many:
// NVIDIA runs at most 65535 work-groups along the second and third dimensions (CUDA's grid), and
// a batch whose operands are packed packs them all before its GEMM, which takes memory.
constexpr size_t kMaxItemsPerLaunch = 65535;
constexpr size_t kMaxPackedBytes = size_t(256) << 20;

using Arg = KernelArg;

// A piece of a batch, in one launch per command: its first item's offsets in g, and the strides
// or arrays of its items in s.
struct Piece {
  RowMajorGemm g;
  BatchSpec s;
};

// The batch in pieces of at most `most` items (one piece if it holds no more).
inline std::vector<Piece> pieces(const RowMajorGemm& g, const BatchSpec& s, size_t most) {
  most = std::max<size_t>(1, std::min(most, kMaxItemsPerLaunch));
  if (s.count <= most) return {{g, s}};
  std::vector<Piece> out;
  for (size_t first = 0; first < s.count; first += most) {
    Piece p{g, s};
    p.s.count = std::min(most, s.count - first);
    if (s.arrays) {
      auto slice = [&](const auto& v) { return std::decay_t<decltype(v)>(v.begin() + first, v.begin() + first + p.s.count); };
      p.s.alphas = slice(s.alphas), p.s.betas = slice(s.betas);
      p.s.a_offsets = slice(s.a_offsets), p.s.b_offsets = slice(s.b_offsets), p.s.c_offsets = slice(s.c_offsets);
    } else {
      p.g.a.offset += first * s.a_stride, p.g.b.offset += first * s.b_stride, p.g.c.offset += first * s.c_stride;
    }
    out.push_back(std::move(p));
  }
  return out;
}

// Whether an operand's leading dimension, offset, batch stride and per-batch offsets are all
// multiples of w floats (so that every row of every batch item starts on a w-float boundary).
inline bool aligned_to(size_t ld, size_t offset, size_t stride, const std::vector<size_t>& offsets, size_t w) {
  bool ok = ld % w == 0 && offset % w == 0 && stride % w == 0;
  for (size_t off : offsets) ok = ok && off % w == 0;
  return ok;
}

// Collects one part's commands and the plan's temporaries.
class Builder {
 public:
  Builder(const DeviceInfo& device, LaunchPlan& plan, size_t part, DataType type)
      : device_(device), plan_(plan), part_(part), type_(type) {}

  void add(Command c) {
    c.part = part_;
    plan_.commands.push_back(std::move(c));
  }
  size_t temporary(const char* role, size_t bytes, bool zeroed = false) {
    plan_.temporaries.push_back({role, bytes, zeroed});
    return plan_.temporaries.size() - 1;
  }
  // A piece's per-item arrays (BATCH_ARRAYS), uploaded once for all the commands that read them.
  std::pair<Arg, Arg> batch_arrays(const BatchSpec& s) {
    if (!s.arrays) return {Arg::mem(BufferRole::None), Arg::mem(BufferRole::None)};
    BatchArrays arrays;
    arrays.scalar_type = compute_type(type_);
    for (size_t i = 0; i < s.count; ++i) {
      arrays.scalars.insert(arrays.scalars.end(), {s.alphas[i], s.betas[i]});
      arrays.offsets.insert(arrays.offsets.end(), {s.a_offsets[i], s.b_offsets[i], s.c_offsets[i]});
    }
    plan_.batch_arrays.push_back(std::move(arrays));
    const size_t index = plan_.batch_arrays.size() - 1;
    return {Arg::mem(BufferRole::BatchScalars, index), Arg::mem(BufferRole::BatchOffsets, index)};
  }
  const DeviceInfo& device() const { return device_; }

 private:
  const DeviceInfo& device_;
  LaunchPlan& plan_;
  size_t part_;
  DataType type_;
};

}  // namespace clgemm::detail
