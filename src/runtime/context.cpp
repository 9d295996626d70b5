// context.cpp — a device's context, profiling queue, program cache and buffer helper.
#include <clgemm/context.hpp>
#include <clgemm/error.hpp>

#include "runtime/cl_error.hpp"
#include "runtime/kernel_sources.hpp"
#include "runtime/program_cache.hpp"

#include <algorithm>
#include <map>
#include <mutex>
#include <utility>

namespace clgemm {

// Per (queue, role): the buffer and its size. Each entry holds a reference to its queue, so that
// the queue's handle cannot be reused by a new queue, which would then share buffers with work
// still running on the old one. Bounded: past kMaxEntries (queues come and go in long-running
// programs) it starts over, releasing the old buffers and queues (OpenCL keeps a buffer alive
// until the commands that use it have finished).
struct Context::ScratchCache {
  static constexpr size_t kMaxEntries = 32;
  struct Slot {
    cl::CommandQueue queue;
    cl::Buffer buffer;
    size_t bytes = 0;
  };
  std::mutex mutex, enqueue;
  std::map<std::pair<cl_command_queue, std::string>, Slot> buffers;
};

struct Context::Features {
  std::mutex mutex;
  std::map<std::string, bool> known;
  // Its own lock: a feature's test may ask for a quantity (the sm90a probe resolves its kernel's
  // parameters against the static local limit).
  std::mutex size_mutex;
  std::map<std::string, size_t> sizes;
};

Context::Context(const DeviceInfo& device) : info_(device) {
  detail::guard_cl("creating an OpenCL context on " + info_.name, [&] {
    context_ = cl::Context(info_.device);
    queue_ = cl::CommandQueue(context_, info_.device, CL_QUEUE_PROFILING_ENABLE);
  });
  programs_ = std::make_unique<ProgramCache>(context_, info_);
  scratch_ = std::make_unique<ScratchCache>();
  features_ = std::make_unique<Features>();
}

Context::Context(const cl::Context& context, const cl::Device& device) : info_(describe_device(device)), context_(context) {
  detail::guard_cl("creating a command queue on " + info_.name,
                   [&] { queue_ = cl::CommandQueue(context_, info_.device, CL_QUEUE_PROFILING_ENABLE); });
  programs_ = std::make_unique<ProgramCache>(context_, info_);
  scratch_ = std::make_unique<ScratchCache>();
  features_ = std::make_unique<Features>();
}

Context::~Context() = default;

namespace {

// The answer remembered under `name` in `known`, else `test`'s, remembered (held under `mutex`
// while it runs, so that concurrent first askers run it once).
template <typename T>
T remembered(std::mutex& mutex, std::map<std::string, T>& known, const std::string& name,
             const std::function<T()>& test) {
  std::lock_guard<std::mutex> lock(mutex);
  const auto it = known.find(name);
  if (it != known.end()) return it->second;
  const T found = test();
  known.emplace(name, found);
  return found;
}

}  // namespace

bool Context::feature(const std::string& name, const std::function<bool()>& test) const {
  return remembered(features_->mutex, features_->known, name, test);
}

size_t Context::measured(const std::string& name, const std::function<size_t()>& test) const {
  return remembered(features_->size_mutex, features_->sizes, name, test);
}

std::string Context::program_cache_dir() const { return programs_->disk_dir(); }

namespace {

// A program's name in the caches: its source files in order.
std::string program_name(const std::vector<std::string>& sources) {
  std::string name;
  for (const auto& path : sources) name += path + ";";
  return name;
}

// Its text: the files concatenated, each under a line that names it.
std::string program_text(const std::vector<std::string>& sources) {
  std::string text;
  for (const auto& path : sources) text += "// ---- " + path + "\n" + detail::kernel_source(path) + "\n";
  return text;
}

}  // namespace

cl::Kernel Context::kernel(const std::vector<std::string>& sources, const std::string& options,
                           const std::string& entry, unsigned min_groups_per_cu) const {
  cl::Program program =
      programs_->get(program_name(sources), options, [&] { return program_text(sources); }, min_groups_per_cu);
  return detail::guard_cl("creating kernel '" + entry + "'", [&] { return cl::Kernel(program, entry.c_str()); });
}

std::optional<cl::Kernel> Context::patched_kernel(const std::vector<std::string>& sources, const std::string& options,
                                                  const std::string& entry,
                                                  const std::vector<detail::PtxMarkerRule>& markers,
                                                  const std::string& target, unsigned min_groups_per_cu) const {
  const auto program = programs_->get_patched(program_name(sources), options, [&] { return program_text(sources); },
                                              markers, target, min_groups_per_cu);
  if (!program) return std::nullopt;
  return detail::guard_cl("creating kernel '" + entry + "'", [&] { return cl::Kernel(*program, entry.c_str()); });
}

Context::KernelBuildInfo Context::inspect_kernel(const std::vector<std::string>& sources, const std::string& options,
                                                 const std::string& entry,
                                                 const std::vector<detail::PtxMarkerRule>& markers,
                                                 unsigned min_groups_per_cu) const {
  const bool nvidia = info_.vendor.find("NVIDIA") != std::string::npos;
  const auto built = programs_->inspect(program_text(sources), options, nvidia ? " -cl-nv-verbose" : "", markers,
                                        "sm_90a", min_groups_per_cu);
  return detail::guard_cl("inspecting kernel '" + entry + "'", [&] {
    const cl::Kernel k(built.program, entry.c_str());
    KernelBuildInfo out{built.ptx, built.log};
    out.local_bytes = k.getWorkGroupInfo<CL_KERNEL_LOCAL_MEM_SIZE>(info_.device);
    out.private_bytes = k.getWorkGroupInfo<CL_KERNEL_PRIVATE_MEM_SIZE>(info_.device);
    out.work_group_size = k.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(info_.device);
    return out;
  });
}

namespace {

void check_size(const DeviceInfo& info, size_t bytes) {
  if (bytes > info.max_alloc_bytes)
    throw Error(Status::OutOfResources, "a buffer of " + std::to_string(bytes) + " bytes exceeds the device's limit of " +
                                            std::to_string(info.max_alloc_bytes) + " bytes per allocation");
}

// Allocates with the size check and error message every device buffer gets; `host`, if given,
// is copied in (CL_MEM_COPY_HOST_PTR).
cl::Buffer allocate(const cl::Context& context, const DeviceInfo& info, size_t bytes, cl_mem_flags flags,
                    const void* host) {
  check_size(info, bytes);
  return detail::guard_cl("allocating " + std::to_string(bytes) + " bytes on " + info.name, [&] {
    return cl::Buffer(context, host ? flags | CL_MEM_COPY_HOST_PTR : flags, bytes, const_cast<void*>(host));
  });
}

}  // namespace

cl::Buffer Context::buffer(size_t bytes, cl_mem_flags flags) const {
  if (bytes == 0) bytes = 4;  // OpenCL rejects empty buffers; a tiny one keeps callers uniform
  return allocate(context_, info_, bytes, flags, nullptr);
}

cl::Buffer Context::zeroed_buffer(size_t bytes) const {
  if (bytes == 0) bytes = 4;
  check_size(info_, bytes);  // before making the zeros on the host
  const std::vector<unsigned char> zeros(bytes, 0);
  return allocate(context_, info_, bytes, CL_MEM_READ_WRITE, zeros.data());
}

cl::Buffer Context::scratch(const cl::CommandQueue& queue, const std::string& role, size_t bytes, bool zeroed) const {
  std::lock_guard<std::mutex> lock(scratch_->mutex);
  auto& cache = scratch_->buffers;
  const auto key = std::make_pair(queue(), role);
  auto it = cache.find(key);
  if (it != cache.end() && it->second.bytes >= bytes) return it->second.buffer;
  if (it == cache.end() && cache.size() >= ScratchCache::kMaxEntries) cache.clear();
  const cl::Buffer fresh = zeroed ? zeroed_buffer(bytes) : buffer(bytes);
  cache[key] = {queue, fresh, bytes};
  return fresh;
}

std::unique_lock<std::mutex> Context::scratch_guard() const { return std::unique_lock<std::mutex>(scratch_->enqueue); }

double elapsed_seconds(const std::vector<cl::Event>& events) {
  if (events.empty()) return 0.0;
  return detail::guard_cl("reading profiling times", [&] {
    cl_ulong first = ~cl_ulong(0), last = 0;
    for (const auto& e : events) {
      first = std::min(first, e.getProfilingInfo<CL_PROFILING_COMMAND_START>());
      last = std::max(last, e.getProfilingInfo<CL_PROFILING_COMMAND_END>());
    }
    return last > first ? double(last - first) * 1e-9 : 0.0;
  });
}

}  // namespace clgemm
