// operand_prep.cpp — host side of prepare_operand.cl.
#include "exec/operand_prep.hpp"

#include <clgemm/error.hpp>

#include "kernels/descriptor.hpp"
#include "runtime/cl_error.hpp"

namespace clgemm::detail {

namespace {
constexpr size_t kTile = 32, kTileRows = 8;
constexpr size_t kT4Tile = 64, kT4Side = 16;  // prepare_operand_t4: 64×64 tiles, 16×16 work-items

cl::Kernel prepare_kernel(const Context& ctx, bool transpose, size_t panel, const char* entry = "prepare_operand") {
  const std::string options = "-DTILE=" + std::to_string(kTile) + " -DTILE_ROWS=" + std::to_string(kTileRows) +
                              " -DTRANSPOSE=" + (transpose ? "1" : "0") + " -DPANEL=" + std::to_string(panel);
  return ctx.kernel({"util/prepare_operand.cl"}, options, entry);
}
}  // namespace

// Every source row and every output vector must start on a 16-byte boundary (buffers themselves
// are aligned far more), and the device must take 256 work-items in a group.
bool uses_float4_transpose(const Context& ctx, const MatrixView& src, bool transpose, size_t out_cols, size_t panel) {
  return transpose && src.ld % 4 == 0 && src.offset % 4 == 0 && out_cols % 4 == 0 && panel % 4 == 0 &&
         ctx.info().max_work_group_size >= kT4Side * kT4Side;
}

// One program holds both transposing entries, so this builds whichever the enqueue picks.
void build_prepare_operand(const Context& ctx, bool transpose, size_t panel) { prepare_kernel(ctx, transpose, panel); }

cl::Event enqueue_prepare_operand(const Context& ctx, const cl::CommandQueue& queue, const MatrixView& src,
                                  bool transpose, const cl::Buffer& dst, size_t out_rows, size_t out_cols,
                                  const std::vector<cl::Event>* wait, size_t panel) {
  if (panel && out_cols % panel)
    throw Error(Status::InternalError, "a panel-packed operand needs a column count that is a multiple of the panel");
  const bool t4 = uses_float4_transpose(ctx, src, transpose, out_cols, panel);
  cl::Kernel k = prepare_kernel(ctx, transpose, panel, t4 ? "prepare_operand_t4" : "prepare_operand");
  return guard_cl("preparing a GEMM operand", [&] {
    k.setArg(0, cl_int(src.rows));
    k.setArg(1, cl_int(src.cols));
    k.setArg(2, *src.buffer);
    k.setArg(3, cl_ulong(src.offset));
    k.setArg(4, cl_int(src.ld));
    k.setArg(5, cl_int(out_rows));
    k.setArg(6, cl_int(out_cols));
    k.setArg(7, dst);
    cl::Event ev;
    if (t4) {
      const cl::NDRange global(round_up(out_cols, kT4Tile) / kT4Tile * kT4Side,
                               round_up(out_rows, kT4Tile) / kT4Tile * kT4Side);
      queue.enqueueNDRangeKernel(k, cl::NullRange, global, cl::NDRange(kT4Side, kT4Side), wait, &ev);
    } else {
      const cl::NDRange global(round_up(out_cols, kTile), round_up(out_rows, kTile) / kTile * kTileRows);
      queue.enqueueNDRangeKernel(k, cl::NullRange, global, cl::NDRange(kTile, kTileRows), wait, &ev);
    }
    return ev;
  });
}

}  // namespace clgemm::detail
