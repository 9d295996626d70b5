// nvidia_arch.hpp — what a device offers the tensor-core kernel families, in one record: the
// instructions its NVIDIA architecture has (cp.async and mma.sync from sm_80, m16n8k8 on doubles
// from sm_90, wgmma on sm_90a), and the facts that only a build or a probe shows, which
// planning_device measures into DeviceInfo (sm_90a patching, tensor maps, the static local limit).
// The kernels' descriptors and the planner ask this record rather than the architecture string.
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

struct TensorCapabilities {
  int sm = 0;                       // nvidia_sm: 0 for every device that is not an NVIDIA GPU
  bool cp_async = false;            // sm_80+: cp.async, and mma.sync on TF32 and on doubles (m8n8k4)
  bool f64_m16 = false;             // sm_90+: m16n8k8 and m16n8k16 on doubles
  bool wgmma = false;               // sm_90 exactly: wgmma, through PTX patched for sm_90a
  bool sm90a_patching = false;      // measured: the driver builds that patched PTX
  bool tensor_maps = false;         // measured: TMA tensor maps encode here
  size_t static_local_bytes = 0;    // the largest static __local array (measured on NVIDIA GPUs)
  size_t dynamic_local_bytes = 0;   // the largest __local arguments (CL_DEVICE_LOCAL_MEM_SIZE)
};

inline TensorCapabilities tensor_capabilities(const DeviceInfo& dev) {
  TensorCapabilities c;
  c.sm = nvidia_sm(dev);
  c.cp_async = c.sm >= 80;
  c.f64_m16 = c.sm >= 90;
  c.wgmma = c.sm == 90;
  c.sm90a_patching = c.wgmma && dev.sm90a_patching;
  c.tensor_maps = c.sm90a_patching && dev.tensor_maps;
  c.dynamic_local_bytes = dev.local_mem_bytes;
  c.static_local_bytes = dev.static_local_bytes > 0 ? dev.static_local_bytes : dev.local_mem_bytes;
  return c;
}

// Whether the device has PTX cp.async (NVIDIA, sm_80 or newer): xgemm's ASYNC pipeline and the
// mma.sync kernels need it.
inline bool has_cp_async(const DeviceInfo& dev) { return tensor_capabilities(dev).cp_async; }

// Whether a device can take the wgmma kernel, as far as its description says: an NVIDIA GPU of
// compute capability 9.0 (sm_90a instructions exist for exactly that architecture). Whether its
// driver accepts the patched program is found by building it (Context::patched_kernel).
inline bool wgmma_architecture(const DeviceInfo& dev) { return tensor_capabilities(dev).wgmma; }

}  // namespace clgemm::detail
