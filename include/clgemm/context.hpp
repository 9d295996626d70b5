// clgemm/context.hpp — one device, its context and in-order profiling queue, and a cache of
// compiled programs. Safe to share between host threads.
#pragma once

#include <clgemm/device.hpp>

#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace clgemm {

class ProgramCache;
namespace detail {
struct PtxMarkerRule;  // src/runtime/ptx_markers.hpp
}

class Context {
 public:
  explicit Context(const DeviceInfo& device);
  // Shares an existing context (the API's per-context cache); makes its own profiling queue.
  Context(const cl::Context& context, const cl::Device& device);
  ~Context();
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  const DeviceInfo& info() const { return info_; }
  const cl::Context& context() const { return context_; }
  const cl::Device& device() const { return info_.device; }
  const cl::CommandQueue& queue() const { return queue_; }

  // Compiles (or finds in the cache) the program made of `sources` (paths under src/kernels,
  // concatenated in order) with the given build options, and creates kernel `entry` from it.
  // Throws Error(BuildFailure) carrying the build log. `min_groups_per_cu` > 0 asks NVIDIA's
  // assembler to fit that many work-groups on one compute unit (a register cap through PTX
  // .minnctapersm, since OpenCL C has no launch bounds); other devices ignore it.
  cl::Kernel kernel(const std::vector<std::string>& sources, const std::string& options,
                    const std::string& entry, unsigned min_groups_per_cu = 0) const;

  // The kernel built with sm_90a instructions in place of its PTX markers (runtime/ptx_markers.hpp),
  // `markers` naming what replaces each; nullopt where the device returns no PTX or refuses the
  // patched program, so that the caller takes another kernel. `min_groups_per_cu` as for kernel().
  std::optional<cl::Kernel> patched_kernel(const std::vector<std::string>& sources, const std::string& options,
                                           const std::string& entry, const std::vector<detail::PtxMarkerRule>& markers,
                                           const std::string& target = "sm_90a", unsigned min_groups_per_cu = 0) const;

  // What the compiler made of a kernel, built apart from the cache with the driver's verbose flag
  // (NVIDIA: -cl-nv-verbose) and patched like patched_kernel where `markers` is not empty: its PTX
  // as it runs (empty where the device's binary is not text), the build log (NVIDIA's ptxas lines
  // give registers, spills and shared memory), and what the runtime reports of the kernel.
  struct KernelBuildInfo {
    std::string ptx, log;
    size_t local_bytes = 0, private_bytes = 0, work_group_size = 0;
  };
  KernelBuildInfo inspect_kernel(const std::vector<std::string>& sources, const std::string& options,
                                 const std::string& entry, const std::vector<detail::PtxMarkerRule>& markers = {},
                                 unsigned min_groups_per_cu = 0) const;

  // The folder of the on-disk program cache; empty when it is disabled.
  std::string program_cache_dir() const;

  // Allocates a device buffer; throws Error(OutOfResources) with a clear message on failure.
  cl::Buffer buffer(size_t bytes, cl_mem_flags flags = CL_MEM_READ_WRITE) const;
  // The same, filled with zero bytes when created (copied from the host: no command enqueued).
  cl::Buffer zeroed_buffer(size_t bytes) const;

  // A buffer of at least `bytes` kept for reuse by later calls on the in-order queue `queue`, one
  // per `role`; zero-filled when (re)allocated if `zeroed`. For temporaries of a GEMM call (packed
  // operands, split-K's workspace and counts): an in-order queue runs one call's commands after
  // the previous call's, so calls can share them, and a call does not pay for an allocation,
  // which the NVIDIA driver makes when the buffer is first used (about 0.1 ms for 8 MB, measured
  // between two kernels on the H100). The buffers live as long as the Context.
  cl::Buffer scratch(const cl::CommandQueue& queue, const std::string& role, size_t bytes, bool zeroed) const;
  // Held while enqueueing a sequence of commands that pass data through scratch buffers (a pack,
  // then the GEMM that reads it), so that another thread enqueueing on the same queue cannot slip
  // its own pack in between.
  std::unique_lock<std::mutex> scratch_guard() const;

  // A fact about this context's device that only a build or a launch shows (whether the driver
  // takes PTX patched for sm_90a): `test` runs the first time `name` is asked, and its answer is
  // remembered for the context's life. Thread-safe; concurrent first askers run `test` once.
  bool feature(const std::string& name, const std::function<bool()>& test) const;
  // The same for a quantity (the largest static local array a kernel may declare).
  size_t measured(const std::string& name, const std::function<size_t()>& test) const;

 private:
  DeviceInfo info_;
  cl::Context context_;
  cl::CommandQueue queue_;
  std::unique_ptr<ProgramCache> programs_;
  struct ScratchCache;
  std::unique_ptr<ScratchCache> scratch_;
  struct Features;
  std::unique_ptr<Features> features_;
};

// Seconds between the start of the first and the end of the last of `events` (profiling queue).
double elapsed_seconds(const std::vector<cl::Event>& events);

}  // namespace clgemm
