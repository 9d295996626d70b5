// descriptor.hpp — a GEMM kernel described by data: source, tunables, constraints, work sizes.
// The launcher, the CLI, the tests and (later) the tuner all read the same descriptor.
#pragma once

#include <clgemm/device.hpp>
#include <clgemm/ladder.hpp>

#include <functional>
#include <string>
#include <vector>

namespace clgemm::detail {

// No tunable of any kernel comes near it; the bound keeps products of four parameters (tile areas
// times depths, local-memory sizes) far from overflowing a long.
constexpr long kMostParamValue = 4096;

struct ParamSpec {
  std::string name;
  long gpu_default;     // default on GPUs and accelerators
  long cpu_default;     // default on CPU devices (PoCL): smaller tiles, fewer work-items
  std::string meaning;  // one line for documentation and error messages
  std::vector<long> values = {};  // the tuner's search space for this parameter (empty: not tuned)
  long least = 1;       // the smallest valid value: 1 for sizes and counts, 0 for switches
};

// A named predicate over parameter values and the device, e.g. "TS divisible by WPT".
struct Constraint {
  std::string name;
  std::function<bool(const KernelParams&, const DeviceInfo&)> holds;
};

// How a kernel holds its local memory: as `__local` arrays declared in the kernel (static), or as
// `__local` pointer arguments sized at launch (dynamic). NVIDIA's OpenCL gives them different limits
// (DeviceInfo::static_local_bytes and local_mem_bytes).
enum class LocalMemoryKind { Static, Dynamic };

// The limit of a device for local memory of that kind: static_local_bytes (local_mem_bytes where
// it is unset, as in a DeviceInfo made by hand) or local_mem_bytes.
size_t local_limit(const DeviceInfo& dev, LocalMemoryKind kind);

// How the kernel wants an operand: as stored (row-major) or transposed.
enum class OperandForm { AsStored, Transposed };

// The kernel's view of the problem: sizes it can take without guards.
struct Multiples {
  size_t m = 1, n = 1, k = 1;  // 1 = the kernel guards this dimension itself
};

struct GemmKernelDescriptor {
  RungInfo info;
  std::string entry;                   // kernel function name
  std::vector<std::string> sources;    // files concatenated before `info.file` (shared helpers)
  // What a build compiles: `sources`, then `info.file`.
  std::vector<std::string> program_sources() const {
    std::vector<std::string> all = sources;
    all.push_back(info.file);
    return all;
  }
  std::vector<ParamSpec> params;
  // Known-good configurations the tuner measures first (where valid on the device), so that a
  // short search starts from what the project measured instead of from the defaults alone.
  std::vector<KernelParams> seeds;
  std::vector<Constraint> constraints;
  OperandForm a_form = OperandForm::AsStored;  // A as m×k, or At as k×m
  OperandForm b_form = OperandForm::AsStored;  // B as k×n, or Bt as n×k
  // Panel-packed operands (0 = plain row-major): the operand, in the form above, stored as
  // contiguous column panels of this width (see util/prepare_operand.cl). Always a temporary.
  std::function<size_t(const KernelParams&)> a_panel, b_panel;
  std::function<Multiples(const KernelParams&)> multiples;
  // Global and local work sizes for the (padded) problem the kernel sees.
  std::function<cl::NDRange(const GemmShape&, const KernelParams&)> global;
  std::function<cl::NDRange(const KernelParams&)> local;
  // Bytes of local memory the kernel declares, to reject configurations before building, and of
  // which kind: each kind is checked against its own limit (local_limit).
  std::function<size_t(const KernelParams&)> local_bytes;
  LocalMemoryKind local_kind = LocalMemoryKind::Static;
  // Rows and columns of C one work-group computes (the tuner skips tiles far larger than a shape).
  std::function<std::pair<size_t, size_t>(const KernelParams&)> tile;
  // A rough count of 32-bit registers per work-item (0 = unknown), checked against the device
  // where it reports its register file (NVIDIA), so hopeless configurations are never built.
  std::function<size_t(const KernelParams&)> registers;
  // Work-groups one compute unit runs at once, for the load-balance model (tile_choice.hpp);
  // unset: 1, which is what the xgemm entries' rules were measured against.
  std::function<size_t(const KernelParams&, const DeviceInfo&)> resident;
  // How many times faster a work-group runs with its compute unit to itself than among
  // `resident` others (the model's last round, when it holds at most one per unit); unset: 1.
  std::function<double(const KernelParams&, const DeviceInfo&)> alone;
};

// ---- helpers for writing descriptors ----------------------------------------------------------
inline size_t round_up(size_t x, size_t m) { return m <= 1 ? x : (x + m - 1) / m * m; }
inline size_t ceil_div(size_t a, size_t b) { return (a + b - 1) / b; }
inline long p(const KernelParams& ps, const char* name) { return ps.at(name); }

// PRECISION, the parameter of the kernels written in `real` (common/vectors.cl): 32 for float, 64
// for double. The planner sets it from the call's types; it is not searched.
ParamSpec precision_param();
// Bytes of one `real` of a configuration (4 where it has no PRECISION).
inline size_t element_bytes(const KernelParams& ps) {
  const auto it = ps.find("PRECISION");
  return it != ps.end() && it->second == 64 ? 8 : 4;
}

// Work-groups of `items` work-items, `registers` each, that one NVIDIA SM holds at once, as its
// register file allows (1 where the device does not report it) and at most 2048 work-items
// (sm_80 and sm_90; 1536 on sm_86 and sm_89 makes this an upper bound there): the `resident`
// count of the tensor-core kernels, before any other limit of theirs.
size_t resident_by_registers(const DeviceInfo& dev, size_t registers, size_t items);

// Constraints shared by many kernels.
Constraint divides(const std::string& divisor, const std::string& dividend);  // dividend % divisor == 0
Constraint one_of(const std::string& name, std::vector<long> allowed);
Constraint positive(const std::string& name);

// Throws Error(InvalidArgument) for a name the kernel does not have or a value outside
// [least, kMostParamValue]: what makes `overrides` invalid on any device.
void check_param_values(const GemmKernelDescriptor& d, const KernelParams& overrides);

// Parameter values for a device: defaults by device kind, then `overrides`. Throws for unknown
// names, values outside [least, kMostParamValue] (checked before any constraint, which may divide
// by them), failed constraints, and work-group or local-memory sizes the device cannot run.
KernelParams resolve_params(const GemmKernelDescriptor& d, const DeviceInfo& dev, const KernelParams& overrides);

std::string build_options(const KernelParams& ps);
// " -DNAME=1" or " -DNAME=0": a switch of a kernel that is not one of its parameters.
inline std::string flag(const char* name, bool on) { return std::string(" -D") + name + (on ? "=1" : "=0"); }

}  // namespace clgemm::detail
