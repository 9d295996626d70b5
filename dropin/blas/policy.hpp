// policy.hpp — when a BLAS call is worth the device: the variables that decide it, and the model
// used otherwise.
#pragma once

#include "dropin/blas/blas_gemm.hpp"

#include <string>

namespace clgemm::blas {

// Read once from the environment.
struct PolicySettings {
  bool off = false;             // CLGEMM_BLAS=off: every call on the host
  std::string device;           // CLGEMM_BLAS_DEVICE: clgemm's device spec (index or name); empty: the first GPU
  double min_flops = -1;        // CLGEMM_BLAS_MIN_FLOPS: the device from 2·m·n·k of this on; -1: the model
};
const PolicySettings& settings();

// Rates the model takes, measured once (offload.cpp) and kept in the program cache's folder: the
// host BLAS's and the device's floating-point operations per second, and bytes per second to
// and from the device.
struct Rates {
  double host_flops = 0, device_flops = 0, link_bytes = 0;
};

// The model: the device pays where moving A, B and C (C both ways where beta ≠ 0) and computing
// there, plus a fixed cost per call, take less time than the host BLAS computing alone.
bool device_pays(const Rates& rates, const BlasGemm& g);

// The fixed cost per device call in the model (buffers, commands, waits), in seconds.
constexpr double kDeviceCallSeconds = 100e-6;

// Calls below this many floating-point operations never start the one-time measurement: no
// device computes them faster than the time their transfers take on any link.
constexpr double kMeasureFromFlops = 2.0 * 256 * 256 * 256;

}  // namespace clgemm::blas
