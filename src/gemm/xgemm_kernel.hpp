// xgemm_kernel.hpp — the descriptor of gemm/xgemm.cl, the tunable kernel of the packed path.
#pragma once

#include "gemm/descriptor.hpp"

namespace clgemm::detail {

const GemmKernelDescriptor& xgemm_descriptor();

// Work-items of one xgemm work-group (MDIMC·NDIMC).
long wgs(const KernelParams& ps);

// Whether the device has PTX cp.async (NVIDIA, sm_80 or newer): the ASYNC pipeline needs it.
bool has_cp_async(const DeviceInfo& dev);

}  // namespace clgemm::detail
