// bench/peak.cpp — FP32 peak from compute units, lanes per unit and clock.
#include "bench/peak.hpp"

#include <cctype>
#include <sstream>
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

}  // namespace

unsigned nvidia_fp32_lanes_per_sm(const std::string& device_name, std::string* family) {
  const auto ws = words(device_name);
  auto set = [family](const char* f, unsigned lanes) {
    if (family) *family = f;
    return lanes;
  };
  bool nvidia = false, rtx = false;
  for (const auto& w : ws) nvidia |= w == "NVIDIA" || w == "GEFORCE" || w == "TESLA" || w == "QUADRO";
  if (!nvidia) return 0;
  for (size_t i = 0; i < ws.size(); ++i) {
    const std::string& w = ws[i];
    // Hopper (GH100): 128 FP32 cores per SM.
    if (w == "H100" || w == "H200" || w == "H800" || w == "GH200") return set("NVIDIA Hopper", 128);
    // GA100: 64 FP32 cores per SM (A100: 108 SMs, 19.5 TFLOP/s at 1410 MHz).
    if (w == "A100" || w == "A800" || w == "A30") return set("NVIDIA Ampere GA100", 64);
    // Volta GV100: 64 FP32 cores per SM.
    if (w == "V100") return set("NVIDIA Volta", 64);
    // GA10x and AD10x (data-centre and GeForce parts): 128 FP32 cores per SM.
    if (w == "A10" || w == "A40" || w == "L4" || w == "L40" || w == "L40S") return set("NVIDIA Ampere/Ada", 128);
    if (w == "RTX") rtx = true;
    if (rtx && w.size() == 4 && (w.rfind("30", 0) == 0 || w.rfind("40", 0) == 0) &&
        std::isdigit(static_cast<unsigned char>(w[2])))
      return set("NVIDIA GeForce RTX 30/40", 128);
  }
  return 0;
}

std::optional<Peak> fp32_peak(const DeviceInfo& device, double override_gflops) {
  if (override_gflops > 0) {
    std::ostringstream os;
    os << "given with --peak";
    return Peak{override_gflops, os.str()};
  }
  std::string family;
  const unsigned lanes = nvidia_fp32_lanes_per_sm(device.name, &family);
  if (!lanes || !device.compute_units || !device.clock_mhz) return std::nullopt;
  Peak p;
  p.gflops = double(device.compute_units) * lanes * 2.0 * device.clock_mhz * 1e-3;
  p.how = std::to_string(device.compute_units) + " SMs x " + std::to_string(lanes) + " FP32 lanes x 2 x " +
          std::to_string(device.clock_mhz) + " MHz (" + family + ")";
  return p;
}

bool peak_applies(const ImplInfo& impl, const DeviceInfo& device) {
  if (impl.precision != Precision::FP32) return false;
  switch (impl.hardware) {
    case Hardware::OpenCLDevice: return true;
    case Hardware::HostCPU: return device.kind == DeviceKind::CPU;
    case Hardware::CudaDevice: return !impl.hardware_name.empty() && impl.hardware_name == device.name;
  }
  return false;
}

}  // namespace clgemm::bench
