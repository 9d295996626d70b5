// rank_device.cpp — one OpenCL device per rank: the one named, else $CLGEMM_DEVICE, else the GPU
// of the rank's index on its host, else the default device (a CPU one where there is no GPU).
#include "dist/launcher_env.hpp"

#include <clgemm/dist.hpp>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <mutex>

namespace clgemm::dist {
namespace {

std::mutex device_mutex;
std::string chosen_spec;            // set_rank_device
std::unique_ptr<Context> context;   // made on first use

DeviceInfo rank_device(const std::string& spec) {
  if (!spec.empty() || std::getenv("CLGEMM_DEVICE")) return choose_device(spec);
  std::vector<DeviceInfo> gpus;
  for (auto& d : list_devices())
    if (d.kind == DeviceKind::GPU) gpus.push_back(d);
  if (gpus.empty()) return choose_device("");
  return gpus[size_t(local_rank()) % gpus.size()];
}

}  // namespace

int local_rank() { return std::max(launcher_local_rank(), 0); }

Context& rank_context() {
  std::lock_guard<std::mutex> lock(device_mutex);
  if (!context) context = std::make_unique<Context>(rank_device(chosen_spec));
  return *context;
}

void set_rank_device(const std::string& spec) {
  DeviceInfo device = rank_device(spec);  // throws before anything changes
  std::lock_guard<std::mutex> lock(device_mutex);
  chosen_spec = spec;
  if (!context || context->device()() != device.device()) context = std::make_unique<Context>(device);
}

}  // namespace clgemm::dist
