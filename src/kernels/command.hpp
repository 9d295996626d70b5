// command.hpp — one kernel launch described as data: the program, build options, work sizes and
// arguments. The planner writes commands (plan/launch_builder.hpp), execution runs them as they
// stand (exec/gemm_exec.hpp), and nothing between decides anything.
#pragma once

#include <clgemm/types.hpp>

#include "runtime/ptx_markers.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace clgemm::detail {

// The buffers a command can name: the caller's three, a temporary of the plan, the per-item
// arrays of a batch given by arrays, or none (a null cl_mem).
enum class BufferRole { A, B, C, Temporary, BatchScalars, BatchOffsets, None };

struct KernelArg {
  enum class Kind { Int, Ulong, Scalar, Buffer, Bytes } kind = Kind::Int;
  int64_t integer = 0;                   // Int (32 bits in the kernel), Ulong
  double scalar = 0;                     // Scalar: alpha or beta,
  DataType scalar_type = DataType::F32;  // passed as this type (the kernel's compute type)
  BufferRole buffer = BufferRole::None;  // Buffer
  size_t index = 0;                      // Temporary: its index in the plan; Batch*: the part's
  std::vector<uint8_t> bytes = {};       // Bytes: a struct passed by value

  static KernelArg i32(int64_t v) { return {Kind::Int, v}; }
  static KernelArg u64(uint64_t v) { return {Kind::Ulong, int64_t(v)}; }
  static KernelArg real(double v, DataType compute) { return {Kind::Scalar, 0, v, compute}; }
  static KernelArg raw(const void* data, size_t size) {
    KernelArg a{Kind::Bytes};
    a.bytes.assign(static_cast<const uint8_t*>(data), static_cast<const uint8_t*>(data) + size);
    return a;
  }
  static KernelArg mem(BufferRole role, size_t index = 0) {
    return {Kind::Buffer, 0, 0, DataType::F32, role, index};
  }
};

struct Command {
  std::string what;                  // for descriptions: "pack op(A) into At", "xgemm", ...
  std::vector<std::string> sources;  // the program: files under src/kernels, in order
  std::string options;               // build options (-D values)
  std::string entry;                 // the kernel function
  unsigned min_groups_per_cu = 0;    // Context::kernel's register cap (NVIDIA), 0 for none
  // Markers the program's PTX has replaced (Context::patched_kernel, sm_90a); empty for a plain
  // build.
  std::vector<PtxMarkerRule> ptx_rules;
  size_t dims = 1;
  std::array<size_t, 3> global{1, 1, 1}, local{1, 1, 1};
  std::vector<KernelArg> args;
  size_t part = 0;  // the GEMM of the call it belongs to; the commands of one part run in order
};

}  // namespace clgemm::detail
