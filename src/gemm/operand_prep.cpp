// operand_prep.cpp — host side of prepare_operand.cl.
#include "gemm/operand_prep.hpp"

#include "gemm/descriptor.hpp"
#include "runtime/cl_error.hpp"

namespace clgemm::detail {

namespace {
constexpr size_t kTile = 32, kTileRows = 8;
}

cl::Event enqueue_prepare_operand(const Context& ctx, const MatrixView& src, bool transpose, const cl::Buffer& dst,
                                  size_t out_rows, size_t out_cols, const std::vector<cl::Event>* wait) {
  const std::string options = "-DTILE=" + std::to_string(kTile) + " -DTILE_ROWS=" + std::to_string(kTileRows) +
                              " -DTRANSPOSE=" + (transpose ? "1" : "0");
  cl::Kernel k = ctx.kernel({"util/prepare_operand.cl"}, options, "prepare_operand");
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
    ctx.queue().enqueueNDRangeKernel(k, cl::NullRange, global, cl::NDRange(kTile, kTileRows), wait, &ev);
    return ev;
  });
}

}  // namespace clgemm::detail
