// operand_prep.cpp — one prepare_operand command, run at once.
#include "exec/operand_prep.hpp"

#include "exec/gemm_exec.hpp"
#include "kernels/util/prepare_operand.hpp"

namespace clgemm::detail {

cl::Event enqueue_prepare_operand(const Context& ctx, const cl::CommandQueue& queue, const MatrixView& src,
                                  bool transpose, const cl::Buffer& dst, size_t out_rows, size_t out_cols,
                                  size_t panel) {
  LaunchPlan plan;
  plan.commands.push_back(prepare_operand_command(ctx.info(),
                                                  {KernelArg::mem(BufferRole::A), src.offset, src.rows, src.cols, src.ld},
                                                  transpose, KernelArg::mem(BufferRole::C), out_rows, out_cols, panel));
  return enqueue_plan(ctx, queue, plan, {(*src.buffer)(), nullptr, dst()});
}

}  // namespace clgemm::detail
