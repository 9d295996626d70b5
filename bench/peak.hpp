// bench/peak.hpp — the device's peak for the run's arithmetic (FP32, or FP64 for --precision f64),
// where it can be stated from what the device reports.
#pragma once

#include <clgemm/device.hpp>

#include "bench/gemm_types.hpp"
#include "bench/impl.hpp"

#include <optional>
#include <string>

namespace clgemm::bench {

struct Peak {
  double gflops = 0;
  std::string how;  // "132 CUs x 128 FP32 lanes x 2 x 1980 MHz (NVIDIA Hopper)" or "--peak"
  Precision arithmetic = Precision::FP32;  // "% of peak" is quoted for implementations of this arithmetic
};

// FP32 lanes per compute unit for the NVIDIA GPU families whose figure is documented (Hopper and
// GA10x/AD10x: 128 per SM; GA100 and Volta: 64 per SM); 0 for any other device.
unsigned nvidia_fp32_lanes_per_sm(const std::string& device_name, std::string* family = nullptr);

// FP64 fused multiply-adds per clock per SM for the same families, at the fastest rate the
// family computes float64: on FP64 tensor cores where it has them (Hopper 128 = 64 lanes x 2,
// GA100 64 = 32 x 2: that is what cuBLAS DGEMM reaches for), else its FP64 lanes (Volta 32,
// GA10x/AD10x 2); 0 for any other device. `how` says which.
unsigned nvidia_fp64_fma_per_sm(const std::string& device_name, std::string* how = nullptr);

// The FP32 peak: `override_gflops` when positive (--peak), else compute units × lanes × 2 (one
// FMA is two FLOPs) × the clock the device reports, for the families above; nullopt otherwise.
std::optional<Peak> fp32_peak(const DeviceInfo& device, double override_gflops = 0);

// The FP64 peak likewise, from nvidia_fp64_fma_per_sm.
std::optional<Peak> fp64_peak(const DeviceInfo& device, double override_gflops = 0);

// The peak for a run of these types: FP32's for float32, FP64's for float64. For 16-bit operands
// only a given one (--peak): clgemm computes them in float32 while tensor-core peers run at the
// 16-bit rate, so neither the FP32 peak nor a 16-bit one stated here would be right for both.
std::optional<Peak> run_peak(const DeviceInfo& device, const GemmTypes& types, double override_gflops = 0);

// Whether an implementation's "% of peak" refers to the device and arithmetic the peak describes:
// its arithmetic must be the peak's, and OpenCL implementations always run on the device;
// host-CPU ones when the OpenCL device is a CPU (PoCL runs on those same cores); CUDA ones when
// the CUDA device has the OpenCL device's name.
bool peak_applies(const ImplInfo& impl, const DeviceInfo& device, Precision peak_arithmetic = Precision::FP32);

}  // namespace clgemm::bench
