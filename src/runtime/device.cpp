// device.cpp — enumerating OpenCL devices and choosing one by index, name or default rule.
#include <clgemm/device.hpp>
#include <clgemm/error.hpp>

#include "runtime/cl_error.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <sstream>

namespace clgemm {

namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

std::string trim(std::string s) {
  // Some drivers pad names with spaces or trailing NULs.
  while (!s.empty() && (s.back() == '\0' || std::isspace(static_cast<unsigned char>(s.back())))) s.pop_back();
  size_t i = 0;
  while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
  return s.substr(i);
}

bool is_index(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c); });
}

std::string device_list_text(const std::vector<DeviceInfo>& devices) {
  if (devices.empty()) return "  (no OpenCL devices found: is an ICD installed under /etc/OpenCL/vendors?)\n";
  std::ostringstream os;
  for (const auto& d : devices) os << "  " << d.index << ": " << d.platform << " / " << d.name << " (" << d.kind_name() << ")\n";
  return os.str();
}

// Tuning results carry over between devices of one architecture, so the database can fall back
// to it: NVIDIA reports its compute capability, PoCL names the CPU it compiles for.
std::string architecture_of(DeviceInfo& d) {
  if (d.has_extension("cl_nv_device_attribute_query")) {
    cl_uint major = 0, minor = 0, regs = 0;
    const cl_device_id id = d.device();
    // CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV / MINOR_NV / CL_DEVICE_REGISTERS_PER_BLOCK_NV
    if (clGetDeviceInfo(id, 0x4000, sizeof major, &major, nullptr) == CL_SUCCESS &&
        clGetDeviceInfo(id, 0x4001, sizeof minor, &minor, nullptr) == CL_SUCCESS) {
      if (clGetDeviceInfo(id, 0x4002, sizeof regs, &regs, nullptr) == CL_SUCCESS) d.registers_per_work_group = regs;
      return "sm_" + std::to_string(major) + std::to_string(minor);
    }
  }
  // PoCL: "pthread-skylake-avx512-Intel(R) ..." or "cpu-skylake-avx512-..."; the version string
  // carries "HSTR: pthread-x86_64-pc-linux-gnu-skylake-avx512".
  const auto hstr = d.version.find("HSTR: ");
  if (hstr != std::string::npos) {
    const std::string target = d.version.substr(hstr + 6);
    const auto last = target.rfind("-gnu-");
    return last != std::string::npos ? target.substr(last + 5) : target;
  }
  return "";
}

}  // namespace

bool DeviceInfo::has_extension(const std::string& ext) const {
  return std::find(extensions.begin(), extensions.end(), ext) != extensions.end();
}

std::string DeviceInfo::kind_name() const {
  switch (kind) {
    case DeviceKind::GPU: return "GPU";
    case DeviceKind::CPU: return "CPU";
    case DeviceKind::Accelerator: return "accelerator";
    case DeviceKind::Other: return "other";
  }
  return "other";
}

DeviceInfo describe_device(const cl::Device& dev) {
  return detail::guard_cl("querying an OpenCL device", [&] {
    DeviceInfo d;
    d.device = dev;
    cl::Platform platform(dev.getInfo<CL_DEVICE_PLATFORM>());
    d.platform = trim(platform.getInfo<CL_PLATFORM_NAME>());
    d.name = trim(dev.getInfo<CL_DEVICE_NAME>());
    d.vendor = trim(dev.getInfo<CL_DEVICE_VENDOR>());
    d.version = trim(dev.getInfo<CL_DEVICE_VERSION>());
    d.driver = trim(dev.getInfo<CL_DRIVER_VERSION>());
    const cl_device_type type = dev.getInfo<CL_DEVICE_TYPE>();
    d.kind = (type & CL_DEVICE_TYPE_GPU)           ? DeviceKind::GPU
             : (type & CL_DEVICE_TYPE_CPU)         ? DeviceKind::CPU
             : (type & CL_DEVICE_TYPE_ACCELERATOR) ? DeviceKind::Accelerator
                                                   : DeviceKind::Other;
    d.compute_units = dev.getInfo<CL_DEVICE_MAX_COMPUTE_UNITS>();
    d.clock_mhz = dev.getInfo<CL_DEVICE_MAX_CLOCK_FREQUENCY>();
    d.global_mem_bytes = dev.getInfo<CL_DEVICE_GLOBAL_MEM_SIZE>();
    d.local_mem_bytes = dev.getInfo<CL_DEVICE_LOCAL_MEM_SIZE>();
    d.static_local_bytes = d.local_mem_bytes;  // until measured (runtime/local_limits.hpp)
    d.max_work_group_size = dev.getInfo<CL_DEVICE_MAX_WORK_GROUP_SIZE>();
    d.max_work_item_sizes = dev.getInfo<CL_DEVICE_MAX_WORK_ITEM_SIZES>();
    d.max_alloc_bytes = dev.getInfo<CL_DEVICE_MAX_MEM_ALLOC_SIZE>();
    std::istringstream exts(dev.getInfo<CL_DEVICE_EXTENSIONS>());
    for (std::string e; exts >> e;) d.extensions.push_back(e);
    d.available = dev.getInfo<CL_DEVICE_AVAILABLE>();
    d.compiler_available = dev.getInfo<CL_DEVICE_COMPILER_AVAILABLE>();
    d.architecture = architecture_of(d);
    d.fp64 = d.has_extension("cl_khr_fp64") || dev.getInfo<CL_DEVICE_DOUBLE_FP_CONFIG>() != 0;
    return d;
  });
}

std::vector<DeviceInfo> list_devices() {
  std::vector<DeviceInfo> out;
  std::vector<cl::Platform> platforms;
  // With no ICD registered, clGetPlatformIDs fails with CL_PLATFORM_NOT_FOUND_KHR: that is an
  // empty list, not an error.
  if (cl::Platform::get(&platforms) != CL_SUCCESS) return out;
  for (auto& p : platforms) {
    std::vector<cl::Device> devices;
    try {
      p.getDevices(CL_DEVICE_TYPE_ALL, &devices);
    } catch (const cl::Error&) {
      continue;  // a platform with no devices
    }
    for (auto& dev : devices) {
      DeviceInfo d = describe_device(dev);
      d.index = out.size();
      out.push_back(std::move(d));
    }
  }
  return out;
}

DeviceInfo choose_device(const std::string& spec_in) {
  std::string spec = trim(spec_in);
  if (spec.empty()) {
    if (const char* env = std::getenv("CLGEMM_DEVICE")) spec = trim(env);
  }
  std::vector<DeviceInfo> devices;
  try {
    devices = list_devices();
  } catch (const cl::Error& e) {
    detail::rethrow_cl(e, "listing OpenCL platforms");
  }
  if (devices.empty()) throw Error(Status::DeviceNotFound, "no OpenCL device found.\n" + device_list_text(devices));

  if (spec.empty()) {
    for (DeviceKind want : {DeviceKind::GPU, DeviceKind::CPU}) {
      for (const auto& d : devices)
        if (d.kind == want) return d;
    }
    return devices.front();
  }
  if (is_index(spec)) {
    const unsigned long long i = std::strtoull(spec.c_str(), nullptr, 10);
    if (i < devices.size()) return devices[i];
    throw Error(Status::DeviceNotFound, "device index " + spec + " is out of range; the devices are:\n" +
                                            device_list_text(devices));
  }
  const std::string want = lower(spec);
  for (const auto& d : devices) {
    if (lower(d.platform + " " + d.name).find(want) != std::string::npos) return d;
  }
  throw Error(Status::DeviceNotFound,
              "no OpenCL device matches '" + spec + "'; the devices are:\n" + device_list_text(devices));
}

}  // namespace clgemm
