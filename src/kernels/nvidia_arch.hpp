// nvidia_arch.hpp — which NVIDIA architecture a device is, for the kernels whose instructions
// depend on it (cp.async and mma.sync from sm_80, m16n8k8 on doubles from sm_90, wgmma on sm_90a).
#pragma once

#include <clgemm/device.hpp>

#include <exception>
#include <string>

namespace clgemm::detail {

// The compute capability of an NVIDIA GPU as its sm number (80 for "sm_80", 90 for "sm_90"); 0 for
// any other device or an architecture string that does not read as one.
inline int nvidia_sm(const DeviceInfo& dev) {
  const std::string& a = dev.architecture;
  if (dev.vendor.find("NVIDIA") == std::string::npos || a.rfind("sm_", 0) != 0) return 0;
  try {
    return std::stoi(a.substr(3));
  } catch (const std::exception&) {
    return 0;
  }
}

}  // namespace clgemm::detail
