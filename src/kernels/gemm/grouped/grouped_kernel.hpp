// grouped_kernel.hpp — the descriptor of gemm/grouped/grouped.cl, the grouped GEMM's kernel: the direct
// kernel's tiles and parameters, with each work-group's problem read from a work list.
#pragma once

#include "kernels/descriptor.hpp"

namespace clgemm::detail {

const GemmKernelDescriptor& grouped_descriptor();

// The numbers per problem in the work list (WORK_FIELDS in grouped.cl), in its order.
constexpr size_t kGroupedWorkFields = 12;

}  // namespace clgemm::detail
