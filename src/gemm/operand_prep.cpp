// operand_prep.cpp — host side of prepare_operand.cl.
#include "gemm/operand_prep.hpp"

#include <clgemm/error.hpp>

#include "gemm/descriptor.hpp"
#include "runtime/cl_error.hpp"

namespace clgemm::detail {

namespace {
constexpr size_t kTile = 32, kTileRows = 8;

cl::Kernel prepare_kernel(const Context& ctx, bool transpose, size_t panel) {
  const std::string options = "-DTILE=" + std::to_string(kTile) + " -DTILE_ROWS=" + std::to_string(kTileRows) +
                              " -DTRANSPOSE=" + (transpose ? "1" : "0") + " -DPANEL=" + std::to_string(panel);
  return ctx.kernel({"util/prepare_operand.cl"}, options, "prepare_operand");
}
}  // namespace

void build_prepare_operand(const Context& ctx, bool transpose, size_t panel) { prepare_kernel(ctx, transpose, panel); }

cl::Event enqueue_prepare_operand(const Context& ctx, const cl::CommandQueue& queue, const MatrixView& src,
                                  bool transpose, const cl::Buffer& dst, size_t out_rows, size_t out_cols,
                                  const std::vector<cl::Event>* wait, size_t panel) {
  if (panel && out_cols % panel)
    throw Error(Status::InternalError, "a panel-packed operand needs a column count that is a multiple of the panel");
  cl::Kernel k = prepare_kernel(ctx, transpose, panel);
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
    const cl::NDRange global(round_up(out_cols, kTile), round_up(out_rows, kTile) / kTile * kTileRows);
    queue.enqueueNDRangeKernel(k, cl::NullRange, global, cl::NDRange(kTile, kTileRows), wait, &ev);
    return ev;
  });
}

}  // namespace clgemm::detail
