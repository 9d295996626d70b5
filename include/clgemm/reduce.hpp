// clgemm/reduce.hpp — sum of a float32 array on the device, in two phases, compensated.
//
// Phase 1: many work-groups each sum a grid-strided share of the array (float4 loads) and leave
// one partial; phase 2: one work-group sums the partials. Every running sum carries its rounding
// error (TwoSum), so the result is close to the correctly rounded sum whatever the length and
// the signs: typically within one or two float32 ulps of the float64 sum.
//
//   float s = clgemm::reduce_sum(ctx, buf, n);                 // blocking, simple
//
//   clgemm::Reduction r(ctx, n);                              // prepared: for timing loops
//   auto ev = r.enqueue(buf);  ...  float s = r.result();
#pragma once

#include <clgemm/context.hpp>
#include <clgemm/types.hpp>

#include <memory>
#include <string>
#include <vector>

namespace clgemm {

// Tunables of the reduction kernels: WG (work-items per group, a power of two), UNROLL (float4
// loads in flight per work-item), GROUPS_PER_CU (phase-1 groups per compute unit, at most),
// CONTIGUOUS (1: each work-item sums one contiguous run, for CPUs; 0: grid stride, for GPUs).
struct ReduceParamInfo {
  std::string name;
  long gpu_default;
  long cpu_default;
  std::string meaning;
};
const std::vector<ReduceParamInfo>& reduce_params();

// The sum of n floats prepared for one context: kernels compiled, partials and result buffers
// allocated, the number of groups chosen. Not safe to use from two threads at once.
class Reduction {
 public:
  // n may be 0 (the sum is 0). Throws Error(InvalidArgument) for unknown or invalid parameters or
  // an n too large for 32-bit float4 indexing (about 2^34), Error(OutOfResources) when the
  // work-group does not fit the device.
  Reduction(const Context& ctx, size_t n, const KernelParams& overrides = {});
  ~Reduction();
  Reduction(Reduction&&) noexcept;
  Reduction& operator=(Reduction&&) noexcept;

  // Enqueues the sum of x[offset .. offset+n) (offset in elements, any alignment) on ctx.queue();
  // returns the two kernel events. Throws Error(InvalidArgument) when the buffer is too small.
  std::vector<cl::Event> enqueue(const cl::Buffer& x, size_t offset = 0);

  // The buffer holding the result (one float) after enqueue(); stays valid while *this lives.
  const cl::Buffer& result_buffer() const;
  // Reads the result of the last enqueue() (blocking).
  float result() const;

  size_t size() const;            // n
  size_t groups() const;          // phase-1 work-groups
  const KernelParams& params() const;
  std::string build_options() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Sum of x[offset .. offset+n) (blocking). Compiled programs are cached in the Context, so
// repeated calls only pay for two small buffers.
float reduce_sum(const Context& ctx, const cl::Buffer& x, size_t n, size_t offset = 0);

}  // namespace clgemm
