// tensor_maps.cpp — see tensor_maps.hpp.
#include "runtime/tensor_maps.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <map>
#include <mutex>
#include <string>
#include <utility>

#ifndef CL_DEVICE_PCI_BUS_ID_NV
#define CL_DEVICE_PCI_BUS_ID_NV 0x4008
#endif
#ifndef CL_DEVICE_PCI_DOMAIN_ID_NV
#define CL_DEVICE_PCI_DOMAIN_ID_NV 0x400A
#endif

namespace clgemm::detail {

namespace {

// The few libcuda entry points used, by their documented C signatures (cuda.h is not needed).
using CuInit = int (*)(unsigned);
using CuDeviceGetCount = int (*)(int*);
using CuDeviceGet = int (*)(int*, int);
using CuDeviceGetAttribute = int (*)(int*, int, int);
using CuPrimaryCtxRetain = int (*)(void**, int);
using CuPrimaryCtxGetState = int (*)(int, unsigned*, int*);
using CuCtxSetCurrent = int (*)(void*);
using CuCtxGetCurrent = int (*)(void**);
using CuTensorMapEncodeTiled = int (*)(void*, int, uint32_t, void*, const uint64_t*, const uint64_t*, const uint32_t*,
                                       const uint32_t*, int, int, int, int);
constexpr int kAttributePciBusId = 33, kAttributePciDomainId = 50;
constexpr int kDataTypeUint16 = 1, kDataTypeUint32 = 2;
constexpr int kSwizzle32 = 1, kSwizzle64 = 2, kSwizzle128 = 3;
constexpr int kL2Promotion128 = 2;

struct Libcuda {
  bool loaded = false;
  CuDeviceGetCount device_count = nullptr;
  CuDeviceGet device_get = nullptr;
  CuDeviceGetAttribute attribute = nullptr;
  CuPrimaryCtxRetain retain = nullptr;
  CuPrimaryCtxGetState state = nullptr;
  CuCtxSetCurrent set_current = nullptr;
  CuCtxGetCurrent get_current = nullptr;
  CuTensorMapEncodeTiled encode = nullptr;
};

std::mutex& lock() {
  static std::mutex m;
  return m;
}

// Loaded once and never unloaded: the retained contexts live as long as the process.
const Libcuda& libcuda() {
  static const Libcuda lib = [] {
    Libcuda l;
    void* handle = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!handle) return l;
    auto init = reinterpret_cast<CuInit>(dlsym(handle, "cuInit"));
    l.device_count = reinterpret_cast<CuDeviceGetCount>(dlsym(handle, "cuDeviceGetCount"));
    l.device_get = reinterpret_cast<CuDeviceGet>(dlsym(handle, "cuDeviceGet"));
    l.attribute = reinterpret_cast<CuDeviceGetAttribute>(dlsym(handle, "cuDeviceGetAttribute"));
    l.retain = reinterpret_cast<CuPrimaryCtxRetain>(dlsym(handle, "cuDevicePrimaryCtxRetain"));
    l.state = reinterpret_cast<CuPrimaryCtxGetState>(dlsym(handle, "cuDevicePrimaryCtxGetState"));
    l.set_current = reinterpret_cast<CuCtxSetCurrent>(dlsym(handle, "cuCtxSetCurrent"));
    l.get_current = reinterpret_cast<CuCtxGetCurrent>(dlsym(handle, "cuCtxGetCurrent"));
    l.encode = reinterpret_cast<CuTensorMapEncodeTiled>(dlsym(handle, "cuTensorMapEncodeTiled"));
    l.loaded = init && l.device_count && l.device_get && l.attribute && l.retain && l.state && l.set_current &&
               l.get_current && l.encode && init(0) == 0;
    return l;
  }();
  return lib;
}

// The OpenCL device's PCI domain and bus (cl_nv_device_attribute_query), or -1s where it has none.
std::pair<int, int> pci_of(const DeviceInfo& device) {
  cl_uint bus = 0, domain = 0;
  if (!device.has_extension("cl_nv_device_attribute_query") ||
      clGetDeviceInfo(device.device(), CL_DEVICE_PCI_BUS_ID_NV, sizeof bus, &bus, nullptr) != CL_SUCCESS)
    return {-1, -1};
  if (clGetDeviceInfo(device.device(), CL_DEVICE_PCI_DOMAIN_ID_NV, sizeof domain, &domain, nullptr) != CL_SUCCESS)
    domain = 0;
  return {int(domain), int(bus)};
}

// $CLGEMM_TENSOR_MAPS: "0" never, "1" always (retaining the primary context where nobody holds it),
// else only where another library in the process already holds it.
enum class Mode { Off, On, IfHeld };

Mode mode() {
  const char* env = std::getenv("CLGEMM_TENSOR_MAPS");
  const std::string v = env ? env : "";
  return v == "0" ? Mode::Off : v == "1" ? Mode::On : Mode::IfHeld;
}

// The CUDA device at the OpenCL device's PCI address (the only CUDA device, where the address is
// unknown), or -1.
int cuda_ordinal(const DeviceInfo& device) {
  const Libcuda& cu = libcuda();
  const auto pci = pci_of(device);
  int count = 0;
  if (cu.device_count(&count) != 0) return -1;
  for (int i = 0; i < count; ++i) {
    int dev = 0, bus = -1, domain = -1;
    if (cu.device_get(&dev, i) != 0) continue;
    cu.attribute(&bus, kAttributePciBusId, dev);
    cu.attribute(&domain, kAttributePciDomainId, dev);
    if (pci.second < 0 ? count == 1 : (bus == pci.second && domain == pci.first)) return dev;
  }
  return -1;
}

// That device's primary CUDA context, retained once and kept; or null. A context costs about half
// a gigabyte of device memory (H100: 524 MiB), which is why, unless told to, clgemm only shares
// one that is active already (PyTorch's, cuBLAS's) and does not create its own. Every call of a
// wgmma arithmetic asks: the device is looked up once, and while no context is active the answer
// costs one query.
void* context_for(const DeviceInfo& device, Mode m) {
  struct Known {
    int ordinal = -1;
    void* context = nullptr;
  };
  static std::map<cl_device_id, Known> known;
  const Libcuda& cu = libcuda();
  if (!cu.loaded || m == Mode::Off) return nullptr;
  const cl_device_id id = device.device();
  auto it = known.find(id);
  if (it == known.end()) it = known.emplace(id, Known{cuda_ordinal(device), nullptr}).first;
  Known& k = it->second;
  if (k.context || k.ordinal < 0) return k.context;
  int active = 0;
  unsigned flags = 0;
  if (m == Mode::IfHeld && (cu.state(k.ordinal, &flags, &active) != 0 || !active)) return nullptr;
  if (cu.retain(&k.context, k.ordinal) != 0) k.context = nullptr, k.ordinal = -1;  // not asked again
  return k.context;
}

std::function<std::optional<TensorMapBytes>(const TiledMapSpec&)>& test_encoder() {
  static std::function<std::optional<TensorMapBytes>(const TiledMapSpec&)> f;
  return f;
}

}  // namespace

void set_tensor_map_encoder_for_testing(std::function<std::optional<TensorMapBytes>(const TiledMapSpec&)> encoder) {
  std::lock_guard<std::mutex> guard(lock());
  test_encoder() = std::move(encoder);
}

bool tensor_maps_available(const DeviceInfo& device) {
  if (mode() == Mode::Off) return false;
  {
    std::lock_guard<std::mutex> guard(lock());
    if (test_encoder()) return test_encoder()(TiledMapSpec{}).has_value();
  }
  if (device.kind != DeviceKind::GPU || device.vendor.find("NVIDIA") == std::string::npos) return false;
  std::lock_guard<std::mutex> guard(lock());
  return context_for(device, mode()) != nullptr;
}

std::optional<TensorMapBytes> encode_tensor_map(const DeviceInfo& device, const TiledMapSpec& spec) {
  std::lock_guard<std::mutex> guard(lock());
  if (test_encoder()) return test_encoder()(spec);
  void* ctx = context_for(device, mode());
  if (!ctx || (spec.element_bytes != 2 && spec.element_bytes != 4) || spec.rank < 2 || spec.rank > 3) return std::nullopt;
  const Libcuda& cu = libcuda();
  // The encoder wants a current context. Contexts are current per thread, and the caller's thread
  // gets back whichever it had (a CUDA program's own, perhaps on another device).
  void* previous = nullptr;
  if (cu.get_current(&previous) != 0 || cu.set_current(ctx) != 0) return std::nullopt;
  const int swizzle = spec.swizzle_bytes == 128 ? kSwizzle128 : spec.swizzle_bytes == 64 ? kSwizzle64 : kSwizzle32;
  const uint32_t unit[3] = {1, 1, 1};
  alignas(64) TensorMapBytes map{};
  const int status = cu.encode(map.data(), spec.element_bytes == 4 ? kDataTypeUint32 : kDataTypeUint16, uint32_t(spec.rank),
                               reinterpret_cast<void*>(kTensorMapPlaceholder), spec.dims.data(), spec.strides.data(),
                               spec.box.data(), unit, 0, swizzle, kL2Promotion128, 0);
  cu.set_current(previous);
  if (status != 0) return std::nullopt;
  return map;
}

}  // namespace clgemm::detail
