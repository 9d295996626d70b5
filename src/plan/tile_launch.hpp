// tile_launch.hpp — the commands of the packed path (gemm/xgemm/xgemm.cl) and of the tensor path
// (gemm/xmma/xmma.cl for f32, gemm/dmma/dmma.cl for f64): the packs of the operands that the kernel cannot
// read in place, and the kernel's launches, a batch in pieces where its packs would be large.
#pragma once

#include <clgemm/gemm.hpp>

#include "exec/problem.hpp"
#include "plan/launch_parts.hpp"

namespace clgemm::detail {

void add_packed(Builder& b, const RowMajorGemm& g, const BatchSpec& s, const GemmPlan& plan);
void add_tensor(Builder& b, const RowMajorGemm& g, const BatchSpec& s, const GemmPlan& plan);

}  // namespace clgemm::detail
