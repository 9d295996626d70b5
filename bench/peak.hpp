// bench/peak.hpp — the device's FP32 peak, where it can be stated from what the device reports.
#pragma once

#include <clgemm/device.hpp>

#include "bench/impl.hpp"

#include <optional>
#include <string>

namespace clgemm::bench {

struct Peak {
  double gflops = 0;
  std::string how;  // "132 CUs x 128 FP32 lanes x 2 x 1980 MHz (NVIDIA Hopper)" or "--peak"
};

// FP32 lanes per compute unit for the NVIDIA GPU families whose figure is documented (Hopper and
// GA10x/AD10x: 128 per SM; GA100 and Volta: 64 per SM); 0 for any other device.
unsigned nvidia_fp32_lanes_per_sm(const std::string& device_name, std::string* family = nullptr);

// The FP32 peak: `override_gflops` when positive (--peak), else compute units × lanes × 2 (one
// FMA is two FLOPs) × the clock the device reports, for the families above; nullopt otherwise.
std::optional<Peak> fp32_peak(const DeviceInfo& device, double override_gflops = 0);

// Whether an implementation's "% of peak" refers to the device the peak describes: OpenCL
// implementations always; host-CPU ones when the OpenCL device is a CPU (PoCL runs on those same
// cores); CUDA ones when the CUDA device has the OpenCL device's name.
bool peak_applies(const ImplInfo& impl, const DeviceInfo& device);

}  // namespace clgemm::bench
