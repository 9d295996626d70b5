// direct_kernel.hpp — the descriptor of gemm/direct/direct.cl, the planner's kernel for small and odd shapes.
#pragma once

#include "kernels/descriptor.hpp"

namespace clgemm::detail {

const GemmKernelDescriptor& direct_descriptor();

}  // namespace clgemm::detail
