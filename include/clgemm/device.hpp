// clgemm/device.hpp — finding OpenCL devices and choosing one by index or name.
#pragma once

#include <CL/opencl.hpp>

#include <string>
#include <vector>

namespace clgemm {

enum class DeviceKind { GPU, CPU, Accelerator, Other };

struct DeviceInfo {
  size_t index = 0;            // position in list_devices(): what `--device N` means
  std::string platform;        // platform name, e.g. "NVIDIA CUDA", "Portable Computing Language"
  std::string name;            // device name
  std::string vendor;
  std::string version;         // CL_DEVICE_VERSION
  std::string driver;          // CL_DRIVER_VERSION
  DeviceKind kind = DeviceKind::Other;
  unsigned compute_units = 0;
  unsigned clock_mhz = 0;
  size_t global_mem_bytes = 0;
  size_t local_mem_bytes = 0;  // CL_DEVICE_LOCAL_MEM_SIZE: on NVIDIA, the limit of dynamic __local arguments
  // The largest static __local array a kernel may declare, which NVIDIA's OpenCL allows far above
  // local_mem_bytes (232,444 bytes against 49,152 on an H200). Only a build shows it, so
  // describe_device sets local_mem_bytes, and planning_device (and gemm() on its context)
  // measures it, once per context and device (kept on disk with the program cache).
  size_t static_local_bytes = 0;
  size_t max_work_group_size = 0;
  std::vector<size_t> max_work_item_sizes;
  size_t max_alloc_bytes = 0;
  bool fp64 = false;
  bool available = true;           // CL_DEVICE_AVAILABLE
  bool compiler_available = true;  // CL_DEVICE_COMPILER_AVAILABLE: clgemm builds kernels from source
  size_t registers_per_work_group = 0;  // NVIDIA only (cl_nv_device_attribute_query); 0 = unknown
  // An NVIDIA sm_90 whose driver builds PTX patched for sm_90a (the wgmma path). Building is the
  // only test, so describe_device leaves it false; gemm() finds it on its context, once.
  bool sm90a_patching = false;
  // With sm90a_patching: libcuda encodes tensor maps for this device, so the wgmma kernel copies
  // its slices by the tensor memory accelerator. Found with sm90a_patching; $CLGEMM_TENSOR_MAPS=0
  // turns it off.
  bool tensor_maps = false;
  std::string architecture;        // e.g. "sm_90" on NVIDIA; the PoCL target CPU ("skylake-avx512"); else 
  std::vector<std::string> extensions;  // all extensions the device reports
  cl::Device device;

  bool has_extension(const std::string& ext) const;
  std::string kind_name() const;
};

// Every device of every platform, in platform order. An empty list is not an error here.
std::vector<DeviceInfo> list_devices();

// Chooses a device. `spec` is an index into list_devices(), or a case-insensitive substring of
// "<platform> <device name>". An empty spec falls back to $CLGEMM_DEVICE, then to the first GPU,
// then to the first CPU device, then to anything. Throws Error(DeviceNotFound) with the list of
// devices when nothing matches.
DeviceInfo choose_device(const std::string& spec = "");

// Fills a DeviceInfo from an OpenCL device handle (index left 0).
DeviceInfo describe_device(const cl::Device& device);

// `device` with static_local_bytes measured where only a build shows it: on NVIDIA GPUs, on a
// context of its own, or from the record a measurement left in the program cache's folder; other
// devices come back as they are.
DeviceInfo with_measured_local_limits(const DeviceInfo& device);

}  // namespace clgemm
