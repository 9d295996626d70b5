// context_registry.cpp — the bounded, least-recently-used cache behind the queue-based API.
#include "api/context_registry.hpp"

#include <clgemm/error.hpp>

#include <list>
#include <mutex>
#include <utility>

namespace clgemm::detail {

namespace {

struct Entry {
  cl_context context;
  cl_device_id device;
  std::shared_ptr<const Context> state;
};

struct Registry {
  std::mutex mutex;
  std::list<Entry> entries;  // most recently used first
};

// Never destroyed: at exit the OpenCL runtime may already have torn down its own state (Oclgrind's
// thread-local stacks go before static destructors run, and releasing a program then writes into
// freed memory), so the Contexts still cached are left to the end of the process.
Registry& registry() {
  static Registry* r = new Registry;
  return *r;
}

}  // namespace

std::shared_ptr<const Context> context_for_queue(cl_command_queue queue) {
  cl_context ctx = nullptr;
  cl_device_id dev = nullptr;
  if (clGetCommandQueueInfo(queue, CL_QUEUE_CONTEXT, sizeof ctx, &ctx, nullptr) != CL_SUCCESS ||
      clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE, sizeof dev, &dev, nullptr) != CL_SUCCESS || !ctx || !dev)
    throw Error(Status::InvalidQueue, "queue is not a valid OpenCL command queue");
  Registry& r = registry();
  std::unique_lock<std::mutex> lock(r.mutex);
  for (auto it = r.entries.begin(); it != r.entries.end(); ++it)
    if (it->context == ctx && it->device == dev) {
      r.entries.splice(r.entries.begin(), r.entries, it);
      return it->state;
    }
  // Made under the lock, so that two threads never build two Contexts for one key. The Context
  // retains the OpenCL context, so the key's handle cannot be reused by another context while
  // the entry exists.
  auto state = std::make_shared<const Context>(cl::Context(ctx, true), cl::Device(dev, true));
  r.entries.push_front({ctx, dev, state});
  std::list<Entry> evicted;
  while (r.entries.size() > kMaxContexts) evicted.splice(evicted.begin(), r.entries, std::prev(r.entries.end()));
  lock.unlock();  // the evicted Contexts are released outside the lock: that can wait on the device
  return state;
}

void clear_contexts() {
  std::list<Entry> dropped;
  {
    Registry& r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    dropped.swap(r.entries);
  }
}

size_t registered_contexts() {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  return r.entries.size();
}

}  // namespace clgemm::detail
