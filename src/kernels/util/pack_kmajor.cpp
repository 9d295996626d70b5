// pack_kmajor.cpp — work sizes, options and arguments of util/pack_kmajor.cl.
#include "kernels/util/pack_kmajor.hpp"

#include "kernels/descriptor.hpp"

namespace clgemm::detail {

namespace {
constexpr size_t kTile = 32, kTileRows = 8;
}  // namespace

size_t kmajor_row(size_t depth, DataType type) { return round_up(depth, 128 / data_type_bytes(type)); }

Command pack_kmajor_command(const KMajorSource& src, const KernelArg& dst, const KMajorBatch& batch) {
  const size_t out_ld = kmajor_row(src.depth, src.type);
  Command c;
  c.what = std::string(src.transposed ? "transpose" : "copy") + " into a row-padded " + std::to_string(src.rows) + "x" +
           std::to_string(out_ld) + " temporary";
  c.sources = {"util/pack_kmajor.cl"};
  c.options = "-DELEM_BYTES=" + std::to_string(data_type_bytes(src.type)) + " -DTILE=" + std::to_string(kTile) +
              " -DTILE_ROWS=" + std::to_string(kTileRows) + " -DTRANSPOSE=" + (src.transposed ? "1" : "0") +
              " -DSRC_ARRAY=" + (batch.src_array ? "1" : "0") + " -DSRC_WHICH=" + std::to_string(batch.which);
  c.entry = "pack_kmajor";
  c.dims = 3;
  // The copy takes 16 bytes per work-item along the row, the transpose one element.
  const size_t per_item = src.transposed ? 1 : 16 / data_type_bytes(src.type);
  c.global = {round_up(ceil_div(out_ld, per_item), kTile), round_up(src.rows, kTile) / kTile * kTileRows, batch.count};
  c.local = {kTile, kTileRows, 1};
  c.args = {KernelArg::i32(int64_t(src.rows)), KernelArg::i32(int64_t(src.depth)), src.buffer,
            KernelArg::u64(src.offset),        KernelArg::i32(int64_t(src.ld)),    KernelArg::i32(int64_t(out_ld)),
            dst,                               KernelArg::u64(batch.src_stride),  KernelArg::u64(batch.dst_stride),
            batch.offsets};
  return c;
}

}  // namespace clgemm::detail
