// xgemm_kernel.hpp — the descriptor of gemm/xgemm.cl, the tunable kernel of the packed path.
#pragma once

#include "gemm/descriptor.hpp"

namespace clgemm::detail {

const GemmKernelDescriptor& xgemm_descriptor();

// Work-items of one xgemm work-group (MDIMC·NDIMC).
long wgs(const KernelParams& ps);

// The parts of K that an edge group (GemmPlan::edge_groups) splits each element's dot product
// into: the most, a power of two, that leave at least 16 elements per pass of `work_items`
// work-items and at least 32 k per part (fewer dependent loads per work-item, while each pass
// still covers neighbouring columns).
size_t edge_slices(size_t k, size_t work_items);

// Whether the device has PTX cp.async (NVIDIA, sm_80 or newer): the ASYNC pipeline needs it.
bool has_cp_async(const DeviceInfo& dev);

}  // namespace clgemm::detail
