// context_registry.cpp — the per-(context, device) cache behind the queue-based API.
#include "gemm/context_registry.hpp"

#include "runtime/cl_error.hpp"

#include <map>
#include <memory>
#include <mutex>

namespace clgemm::detail {

namespace {
std::mutex registry_mutex;
std::map<std::pair<cl_context, cl_device_id>, std::unique_ptr<Context>>& registry() {
  static std::map<std::pair<cl_context, cl_device_id>, std::unique_ptr<Context>> r;
  return r;
}
}  // namespace

const Context& context_for_queue(cl_command_queue queue) {
  cl_context ctx = nullptr;
  cl_device_id dev = nullptr;
  if (clGetCommandQueueInfo(queue, CL_QUEUE_CONTEXT, sizeof ctx, &ctx, nullptr) != CL_SUCCESS ||
      clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE, sizeof dev, &dev, nullptr) != CL_SUCCESS)
    throw Error(Status::InvalidQueue, "queue is not a valid OpenCL command queue");
  std::lock_guard<std::mutex> lock(registry_mutex);
  auto& slot = registry()[{ctx, dev}];
  // The Context retains the OpenCL context, so the key's handle cannot be reused by another
  // context while the entry exists.
  if (!slot) slot = std::make_unique<Context>(cl::Context(ctx, true), cl::Device(dev, true));
  return *slot;
}

void clear_contexts() {
  std::lock_guard<std::mutex> lock(registry_mutex);
  registry().clear();
}

}  // namespace clgemm::detail
