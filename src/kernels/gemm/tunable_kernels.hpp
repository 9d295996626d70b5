// tunable_kernels.hpp — the GEMM kernels that the tuner searches and the tuning database names
// (TuningEntry::kernel): xgemm, direct, xmma, wgmma and dmma, by name.
#pragma once

#include "kernels/descriptor.hpp"

#include <string>

namespace clgemm::detail {

// The descriptor of the kernel named `kernel`; Error(InvalidArgument) for any other name.
const GemmKernelDescriptor& tunable_descriptor(const std::string& kernel);

}  // namespace clgemm::detail
