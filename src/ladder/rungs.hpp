// rungs.hpp — the descriptors of the ladder's rungs, in teaching order. Each comes from its own file
// in rungs/, beside the kernel it describes (src/kernels/gemm/0N_*.cl).
#pragma once

#include "kernels/descriptor.hpp"

#include <vector>

namespace clgemm::detail {

const std::vector<GemmKernelDescriptor>& ladder_descriptors();
const GemmKernelDescriptor& ladder_descriptor(int rung);

}  // namespace clgemm::detail
