// prepare_operand.cpp — work sizes, options and arguments of util/prepare_operand.cl.
#include "kernels/util/prepare_operand.hpp"

#include <clgemm/error.hpp>

#include "kernels/descriptor.hpp"
#include "kernels/precision.hpp"

namespace clgemm::detail {

namespace {
constexpr size_t kTile = 32, kTileRows = 8;
constexpr size_t kT4Tile = 64, kT4Side = 16;  // prepare_operand_t4: 64×64 tiles, 16×16 work-items
}  // namespace

Command prepare_operand_command(const DeviceInfo& device, const OperandSource& src, bool transpose,
                                const KernelArg& dst, size_t out_rows, size_t out_cols, size_t panel,
                                const OperandBatch& batch) {
  if (panel && out_cols % panel)
    throw Error(Status::InternalError, "a panel-packed operand needs a column count that is a multiple of the panel");
  // Every source row and every output vector must start on a 16-byte boundary (buffers themselves
  // are aligned far more), in every item of a batch.
  const bool starts_aligned = batch.starts_on_4 && src.offset % 4 == 0 && batch.src_stride % 4 == 0;
  const bool t4 = transpose && src.ld % 4 == 0 && starts_aligned && out_cols % 4 == 0 && panel % 4 == 0 &&
                  batch.dst_stride % 4 == 0 && device.max_work_group_size >= kT4Side * kT4Side;
  Command c;
  c.what = std::string(transpose ? "transpose" : "copy") + " into a padded " + std::to_string(out_rows) + "x" +
           std::to_string(out_cols) + " temporary";
  c.sources = {"common/vectors.cl", "util/prepare_operand.cl"};
  // One program holds both transposing entries.
  c.options = "-DTILE=" + std::to_string(kTile) + " -DTILE_ROWS=" + std::to_string(kTileRows) +
              " -DTRANSPOSE=" + (transpose ? "1" : "0") + " -DPANEL=" + std::to_string(panel) +
              " -DSRC_ARRAY=" + (batch.src_array ? "1" : "0") + " -DSRC_WHICH=" + std::to_string(batch.which) +
              precision_option(src.type) + storage_options(src.type, compute_type(src.type));
  c.entry = t4 ? "prepare_operand_t4" : "prepare_operand";
  c.dims = 3;
  if (t4) {
    c.global = {round_up(out_cols, kT4Tile) / kT4Tile * kT4Side, round_up(out_rows, kT4Tile) / kT4Tile * kT4Side,
                batch.count};
    c.local = {kT4Side, kT4Side, 1};
  } else {
    c.global = {round_up(out_cols, kTile), round_up(out_rows, kTile) / kTile * kTileRows, batch.count};
    c.local = {kTile, kTileRows, 1};
  }
  c.args = {KernelArg::i32(int64_t(src.rows)), KernelArg::i32(int64_t(src.cols)), src.buffer,
            KernelArg::u64(src.offset),        KernelArg::i32(int64_t(src.ld)),   KernelArg::i32(int64_t(out_rows)),
            KernelArg::i32(int64_t(out_cols)), dst,
            KernelArg::u64(batch.src_stride),  KernelArg::u64(batch.dst_stride), batch.offsets};
  return c;
}

}  // namespace clgemm::detail
