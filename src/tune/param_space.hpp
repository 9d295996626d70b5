// param_space.hpp — a kernel's parameter space as the tuner walks it: random configurations that
// pass every constraint and device limit, the defaults cut down to a thin shape, and the
// neighbours of a configuration. Each suits the shape (no tile beyond the next power of two of a
// dimension) and keeps the parameters `fixed` sets.
#pragma once

#include <clgemm/device.hpp>
#include <clgemm/types.hpp>

#include "kernels/descriptor.hpp"

#include <optional>
#include <random>
#include <vector>

namespace clgemm::detail {

// `ps` with the parameters `fixed` sets in place of its own.
KernelParams with_fixed(KernelParams ps, const KernelParams& fixed);

// The largest tile side worth trying for a dimension: the next power of two (at least 16). A tile
// twice the matrix only multiplies padding.
size_t fit(size_t x);

// Whether the configuration's tile stays within fit() of the shape's M and N.
bool fits_shape(const GemmKernelDescriptor& d, const KernelParams& ps, const GemmShape& s);

// A random configuration that passes every constraint and device limit and suits the shape, or
// none after many tries.
std::optional<KernelParams> random_valid(const GemmKernelDescriptor& d, const DeviceInfo& dev, const GemmShape& s,
                                         const KernelParams& fixed, std::mt19937_64& rng);

// The defaults with the tile cut down to the shape (and the work-group shape with it), so thin
// shapes start from a sensible point: halve the tile's rows or columns while it exceeds the fit.
// None for the tensor kernels, whose targets fit their largest tiles already.
std::optional<KernelParams> fitted_defaults(const GemmKernelDescriptor& d, const DeviceInfo& dev, const GemmShape& s,
                                            const KernelParams& fixed);

// Every valid configuration one step away from `ps` along one parameter's list of values, the
// parameters `fixed` sets left alone.
std::vector<KernelParams> neighbours(const GemmKernelDescriptor& d, const DeviceInfo& dev, const KernelParams& ps,
                                     const GemmShape& s, const KernelParams& fixed);

}  // namespace clgemm::detail
