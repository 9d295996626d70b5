// bench/peak.cpp — FP32 and FP64 peaks from compute units, rate per unit and clock.
#include "bench/peak.hpp"

#include <cctype>
#include <vector>

namespace clgemm::bench {

namespace {

std::vector<std::string> words(const std::string& s) {
  std::vector<std::string> out;
  std::string w;
  for (char c : s) {
    if (std::isalnum(static_cast<unsigned char>(c))) w += char(std::toupper(static_cast<unsigned char>(c)));
    else if (!w.empty()) out.push_back(std::move(w)), w.clear();
  }
  if (!w.empty()) out.push_back(w);
  return out;
}

// The documented NVIDIA families: FP32 lanes and FP64 FMAs per clock per SM.
struct Family {
  const char* name;
  unsigned fp32_lanes;
  unsigned fp64_fma;
  const char* fp64_how;
};

// Hopper (GH100): H100 SXM 132 SMs, 66.9 TFLOP/s FP32 and FP64 tensor, 33.5 FP64 lanes at 1980 MHz.
const Family kHopper{"NVIDIA Hopper", 128, 128, "64 FP64 lanes x 2 on FP64 tensor cores"};
// GA100: A100 108 SMs, 19.5 TFLOP/s FP32 and FP64 tensor at 1410 MHz.
const Family kGa100{"NVIDIA Ampere GA100", 64, 64, "32 FP64 lanes x 2 on FP64 tensor cores"};
// Volta GV100: V100 80 SMs, 15.7 FP32 and 7.8 FP64 TFLOP/s at 1530 MHz.
const Family kVolta{"NVIDIA Volta", 64, 32, "32 FP64 lanes"};
// GA10x and AD10x: FP64 at 1/64 of FP32.
const Family kGa10x{"NVIDIA Ampere/Ada", 128, 2, "2 FP64 lanes"};
const Family kGeforce{"NVIDIA GeForce RTX 30/40", 128, 2, "2 FP64 lanes"};

const Family* nvidia_family(const std::string& device_name) {
  const auto ws = words(device_name);
  bool nvidia = false, rtx = false;
  for (const auto& w : ws) nvidia |= w == "NVIDIA" || w == "GEFORCE" || w == "TESLA" || w == "QUADRO";
  if (!nvidia) return nullptr;
  for (const std::string& w : ws) {
    if (w == "H100" || w == "H200" || w == "H800" || w == "GH200") return &kHopper;
    if (w == "A100" || w == "A800" || w == "A30") return &kGa100;
    if (w == "V100") return &kVolta;
    // GA10x and AD10x data-centre parts.
    if (w == "A10" || w == "A40" || w == "L4" || w == "L40" || w == "L40S") return &kGa10x;
    if (w == "RTX") rtx = true;
    if (rtx && w.size() == 4 && (w.rfind("30", 0) == 0 || w.rfind("40", 0) == 0) &&
        std::isdigit(static_cast<unsigned char>(w[2])))
      return &kGeforce;
  }
  return nullptr;
}

std::optional<Peak> given_peak(double gflops, Precision arithmetic) {
  return Peak{gflops, "given with --peak", arithmetic};
}

}  // namespace

unsigned nvidia_fp32_lanes_per_sm(const std::string& device_name, std::string* family) {
  const Family* f = nvidia_family(device_name);
  if (f && family) *family = f->name;
  return f ? f->fp32_lanes : 0;
}

unsigned nvidia_fp64_fma_per_sm(const std::string& device_name, std::string* how) {
  const Family* f = nvidia_family(device_name);
  if (f && how) *how = std::string(f->fp64_how) + ", " + f->name;
  return f ? f->fp64_fma : 0;
}

namespace {

// compute units × `per_clock` multiply-adds × 2 × clock, where the device reports both.
std::optional<Peak> per_unit_peak(const DeviceInfo& device, unsigned per_clock, const std::string& what,
                                  const std::string& how, Precision arithmetic) {
  if (!per_clock || !device.compute_units || !device.clock_mhz) return std::nullopt;
  Peak p;
  p.gflops = double(device.compute_units) * per_clock * 2.0 * device.clock_mhz * 1e-3;
  p.how = std::to_string(device.compute_units) + " SMs x " + std::to_string(per_clock) + " " + what + " x 2 x " +
          std::to_string(device.clock_mhz) + " MHz (" + how + ")";
  p.arithmetic = arithmetic;
  return p;
}

}  // namespace

std::optional<Peak> fp32_peak(const DeviceInfo& device, double override_gflops) {
  if (override_gflops > 0) return given_peak(override_gflops, Precision::FP32);
  std::string family;
  const unsigned lanes = nvidia_fp32_lanes_per_sm(device.name, &family);
  return per_unit_peak(device, lanes, "FP32 lanes", family, Precision::FP32);
}

std::optional<Peak> fp64_peak(const DeviceInfo& device, double override_gflops) {
  if (override_gflops > 0) return given_peak(override_gflops, Precision::FP64);
  std::string how;
  const unsigned fma = nvidia_fp64_fma_per_sm(device.name, &how);
  return per_unit_peak(device, fma, "FP64 FMA per clock", how, Precision::FP64);
}

std::optional<Peak> run_peak(const DeviceInfo& device, const GemmTypes& types, double override_gflops) {
  const Precision arithmetic = compute_arithmetic(types);
  if (types.is_f32()) return fp32_peak(device, override_gflops);
  if (arithmetic == Precision::FP64) return fp64_peak(device, override_gflops);
  if (override_gflops > 0) return given_peak(override_gflops, arithmetic);
  return std::nullopt;
}

bool peak_applies(const ImplInfo& impl, const DeviceInfo& device, Precision peak_arithmetic) {
  if (impl.precision != peak_arithmetic) return false;
  switch (impl.hardware) {
    case Hardware::OpenCLDevice: return true;
    case Hardware::HostCPU: return device.kind == DeviceKind::CPU;
    case Hardware::CudaDevice: return !impl.hardware_name.empty() && impl.hardware_name == device.name;
  }
  return false;
}

}  // namespace clgemm::bench
