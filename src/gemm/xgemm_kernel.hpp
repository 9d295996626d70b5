// xgemm_kernel.hpp — the descriptor of gemm/xgemm.cl, the tunable kernel of the packed path.
#pragma once

#include "gemm/descriptor.hpp"

namespace clgemm::detail {

const GemmKernelDescriptor& xgemm_descriptor();

}  // namespace clgemm::detail
