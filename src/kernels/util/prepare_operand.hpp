// prepare_operand.hpp — the command that copies a matrix into a zero-padded, and optionally
// transposed or panel-packed, temporary (util/prepare_operand.cl).
#pragma once

#include <clgemm/device.hpp>
#include <clgemm/types.hpp>

#include "kernels/command.hpp"

namespace clgemm::detail {

// The matrix copied: `rows` × `cols`, row-major with `ld` floats per row, from element `offset`
// of `buffer`.
struct OperandSource {
  KernelArg buffer;
  size_t offset = 0, rows = 0, cols = 0, ld = 0;
  DataType type = DataType::F32;
};

// A batch of such copies in one launch: item i copies from src.offset + i·src_stride (or, with
// src_array, from the offset triples of a batch given by arrays, entry `which`: 0 for A, 1 for
// B) into dst + i·dst_stride.
struct OperandBatch {
  size_t count = 1;
  size_t src_stride = 0, dst_stride = 0;
  KernelArg offsets = KernelArg::mem(BufferRole::None);
  bool src_array = false;
  int which = 0;
  bool starts_on_4 = true;  // every item's first element (src.offset, or its array entry) a multiple of 4
};

// dst (out_rows × out_cols, dense row-major) = src, or its transpose when `transpose`, with zeros
// outside the source. With `panel` > 0 the output is stored panel by panel (see
// prepare_operand.cl); out_cols must then be a multiple of it. A transposing copy of rows on
// 16-byte boundaries takes the float4 entry, on devices that run its 256 work-items per group.
Command prepare_operand_command(const DeviceInfo& device, const OperandSource& src, bool transpose,
                                const KernelArg& dst, size_t out_rows, size_t out_cols, size_t panel = 0,
                                const OperandBatch& batch = {});

}  // namespace clgemm::detail
