// wgmma_launch.hpp — the commands of the wgmma path (gemm/wgmma.cl): which operands it reads in
// place and which it packs first, and the kernel's build options, patch rules and arguments.
#pragma once

#include <clgemm/gemm.hpp>

#include "exec/problem.hpp"
#include "plan/launch_parts.hpp"

namespace clgemm::detail {

// The wgmma kernel's build options for inputs stored as `in` and C as `out` (BK counts 16-bit
// elements in the parameters, elements of `in` in the kernel).
std::string wgmma_options(const KernelParams& ps, DataType in, DataType out);

void add_wgmma(Builder& b, const RowMajorGemm& g, const BatchSpec& s, const GemmPlan& plan);

}  // namespace clgemm::detail
