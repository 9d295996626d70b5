// bench/impls/cl_operands.hpp — a problem's A, B, C and a pristine copy of C0 in OpenCL buffers,
// shared by the implementations that compute on the OpenCL device.
#pragma once

#include <clgemm/context.hpp>

#include "bench/problem.hpp"

#include <vector>

namespace clgemm::bench {

class ClOperands {
 public:
  explicit ClOperands(const Context& ctx) : ctx_(ctx) {}
  // Allocates the four buffers and uploads A, B and C0 (into both C and the copy).
  void upload(const Problem& p);
  // C = C0 on the device, then waits for the queue.
  void reset_c();
  std::vector<float> read_c();
  void clear();

  const cl::Buffer& a() const { return a_; }
  const cl::Buffer& b() const { return b_; }
  const cl::Buffer& c() const { return c_; }

 private:
  const Context& ctx_;
  cl::Buffer a_, b_, c_, c0_;
  size_t c_count_ = 0;
};

}  // namespace clgemm::bench
