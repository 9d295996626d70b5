// bench/impls/cl_operands.hpp — a problem's A, B (or its quantized weights W), C and a pristine
// copy of C0 in OpenCL buffers, each in its element type, shared by the implementations that
// compute on the OpenCL device.
#pragma once

#include <clgemm/context.hpp>

#include "bench/problem.hpp"

#include <vector>

namespace clgemm::bench {

class ClOperands {
 public:
  explicit ClOperands(const Context& ctx) : ctx_(ctx) {}
  enum class Weights { Dense, Quantized };
  // Allocates the four buffers and uploads A, B and C0 (into both C and the copy); with
  // Weights::Quantized, W's bytes (Problem::w) in place of B.
  void upload(const Problem& p, Weights weights = Weights::Dense);
  // C = C0 on the device, then waits for the queue.
  void reset_c();
  HostMatrix read_c();  // in C's type
  void clear();

  const cl::Buffer& a() const { return a_; }
  const cl::Buffer& b() const { return b_; }
  const cl::Buffer& c() const { return c_; }
  const cl::Buffer& w() const { return w_; }

 private:
  const Context& ctx_;
  cl::Buffer a_, b_, w_, c_, c0_;
  DataType c_type_ = DataType::F32;
  size_t c_count_ = 0;
};

}  // namespace clgemm::bench
