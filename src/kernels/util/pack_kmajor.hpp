// pack_kmajor.hpp — the command that copies an operand into the K-major, 16-byte-aligned form the
// wgmma kernel reads (util/pack_kmajor.cl).
#pragma once

#include <clgemm/types.hpp>

#include "kernels/command.hpp"

namespace clgemm::detail {

// The operand copied: `rows` × `depth` of op(X), where X is stored row-major with `ld` elements
// per row from element `offset` of `buffer`: as rows × depth, or (transposed) as depth × rows.
struct KMajorSource {
  KernelArg buffer;
  size_t offset = 0, rows = 0, depth = 0, ld = 0;
  bool transposed = false;
  DataType type = DataType::F16;
};

// A batch of such copies in one launch: item i from offset + i·src_stride (or, with src_array,
// from entry `which` of the offset triples of a batch given by arrays) into dst + i·dst_stride.
struct KMajorBatch {
  size_t count = 1, src_stride = 0, dst_stride = 0;
  KernelArg offsets = KernelArg::mem(BufferRole::None);
  bool src_array = false;
  int which = 0;
};

// Elements of a packed row: depth rounded up to 128 bytes of `type`, so that every row starts on
// a cache line (rows 16 bytes apart from one, as 4097 f16 elements rounded to 16 bytes are, made
// the wgmma kernel's reads of 4097³ 1.7 times slower per element than those of 4096³).
size_t kmajor_row(size_t depth, DataType type);

// dst (rows × kmajor_row(depth), dense) = op(X), zero beyond depth.
Command pack_kmajor_command(const KMajorSource& src, const KernelArg& dst, const KMajorBatch& batch = {});

}  // namespace clgemm::detail
