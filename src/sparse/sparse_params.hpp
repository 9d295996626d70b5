// sparse_params.hpp — the tunables of the block-skip kernels, their constraints and device checks.
#pragma once

#include <clgemm/device.hpp>
#include <clgemm/types.hpp>

#include <string>

namespace clgemm::detail {

// Defaults for the device kind, then `overrides`; checks every constraint the kernels #error on
// and the device's work-group and local-memory limits, with messages that name the fix.
KernelParams resolve_sparse_params(const DeviceInfo& dev, const KernelParams& overrides);

// Derived sizes of a resolved configuration.
struct SparseGeometry {
  long rtm, rtn;          // work-items along m and n
  long threads;           // rtm · rtn
  size_t local_bytes;     // local memory of the GEMM kernel (two buffers of A and B slices)
};
SparseGeometry sparse_geometry(const KernelParams& ps);

// -D options for each kernel (only the values it reads, so the program cache is not fragmented).
std::string gemm_options(const KernelParams& ps, bool guard);
std::string map_options(const KernelParams& ps, bool vec);

}  // namespace clgemm::detail
