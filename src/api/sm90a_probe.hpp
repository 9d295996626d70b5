// sm90a_probe.hpp — whether a device takes the wgmma path: its driver must build PTX patched for
// sm_90a, which only building shows.
#pragma once

#include <clgemm/context.hpp>
#include <clgemm/gemm.hpp>

namespace clgemm::detail {

// Whether ctx's driver builds the wgmma kernel (its default configuration, f16 operands) patched
// for sm_90a; false at once on devices that are not NVIDIA sm_90. Tried once per context
// (Context::feature); later calls only look the answer up.
bool sm90a_patching(const Context& ctx);

// The device that a call of `type` operands and `math` is planned for: ctx.info(), with the
// static local limit found where a tensor-core kernel may serve the call (wgmma's arithmetic, or
// f64 and TF32 on mma.sync; elsewhere no kernel needs more than local_mem_bytes), and
// sm90a_patching (and then tensor_maps) where wgmma computes it.
// `scratch` holds the copy when one is needed; the result refers to it or to ctx.info().
const DeviceInfo& planning_device(const Context& ctx, DataType type, Math math, DeviceInfo& scratch);

}  // namespace clgemm::detail
