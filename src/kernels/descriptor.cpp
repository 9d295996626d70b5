// descriptor.cpp — parameter resolution and the shared constraints of kernel descriptors.
#include "kernels/descriptor.hpp"

#include "kernels/nvidia_arch.hpp"

#include <clgemm/error.hpp>

#include <algorithm>
#include <optional>
#include <sstream>

namespace clgemm::detail {

Constraint divides(const std::string& divisor, const std::string& dividend) {
  return {dividend + " divisible by " + divisor, [=](const KernelParams& ps, const DeviceInfo&) {
            const long d = ps.at(divisor);
            return d > 0 && ps.at(dividend) % d == 0;
          }};
}

Constraint one_of(const std::string& name, std::vector<long> allowed) {
  std::ostringstream os;
  os << name << " in {";
  for (size_t i = 0; i < allowed.size(); ++i) os << (i ? "," : "") << allowed[i];
  os << "}";
  return {os.str(), [=](const KernelParams& ps, const DeviceInfo&) {
            return std::find(allowed.begin(), allowed.end(), ps.at(name)) != allowed.end();
          }};
}

Constraint positive(const std::string& name) {
  return {name + " > 0", [=](const KernelParams& ps, const DeviceInfo&) { return ps.at(name) > 0; }};
}

std::string build_options(const KernelParams& ps) {
  std::string out;
  for (const auto& [name, value] : ps) {
    if (!out.empty()) out += ' ';
    out += "-D" + name + "=" + std::to_string(value);
  }
  return out;
}

namespace {
// "rung 6 (register-blocking)" for ladder kernels, "kernel xgemm" for production ones.
std::string label(const GemmKernelDescriptor& d) {
  return d.info.number > 0 ? "rung " + std::to_string(d.info.number) + " (" + d.info.id + ")" : "kernel " + d.info.id;
}
}  // namespace

void check_param_values(const GemmKernelDescriptor& d, const KernelParams& overrides) {
  for (const auto& [name, value] : overrides) {
    const auto spec = std::find_if(d.params.begin(), d.params.end(), [&](const ParamSpec& s) { return s.name == name; });
    if (spec == d.params.end()) {
      std::string known;
      for (const auto& s : d.params) known += (known.empty() ? "" : ", ") + s.name;
      throw Error(Status::InvalidArgument, label(d) +
                                               " has no parameter '" + name + "'; its parameters are: " +
                                               (known.empty() ? "(none)" : known));
    }
    if (value < spec->least || value > kMostParamValue)
      throw Error(Status::InvalidArgument, label(d) + ": " + name + " = " + std::to_string(value) + " is outside " +
                                               std::to_string(spec->least) + ".." + std::to_string(kMostParamValue) +
                                               " (" + spec->meaning + ")");
  }
}

size_t resident_by_registers(const DeviceInfo& dev, size_t registers, size_t items) {
  const size_t by_registers = dev.registers_per_work_group ? dev.registers_per_work_group / (registers * items) : 1;
  return std::max<size_t>(1, std::min(by_registers, 2048 / items));
}

size_t local_limit(const DeviceInfo& dev, LocalMemoryKind kind) {
  const TensorCapabilities c = tensor_capabilities(dev);
  return kind == LocalMemoryKind::Static ? c.static_local_bytes : c.dynamic_local_bytes;
}

ParamSpec precision_param() {
  return {"PRECISION", 32, 32, "bits of the arithmetic and of packed operands: 32 (float) or 64 (double)", {}, 32};
}

namespace {

// Why `ps` break a constraint or do not fit the device's work-group, local memory or registers, as
// the error a caller gets; nothing where they fit. Checked before a launch, so that a bad
// configuration is a clear error, not a failed launch.
std::optional<Error> misfit(const GemmKernelDescriptor& d, const DeviceInfo& dev, const KernelParams& ps) {
  for (const auto& c : d.constraints) {
    if (!c.holds(ps, dev))
      return Error(Status::InvalidArgument,
                   label(d) + ": parameters " + build_options(ps) + " break the constraint '" + c.name + "'");
  }
  const cl::NDRange local = d.local(ps);
  size_t items = 1;
  for (size_t i = 0; i < local.dimensions(); ++i) {
    items *= local[i];
    if (i < dev.max_work_item_sizes.size() && local[i] > dev.max_work_item_sizes[i])
      return Error(Status::OutOfResources, label(d) + ": work-group dimension " + std::to_string(i) + " is " +
                                               std::to_string(local[i]) + ", more than the device's " +
                                               std::to_string(dev.max_work_item_sizes[i]));
  }
  if (items > dev.max_work_group_size)
    return Error(Status::OutOfResources, label(d) + ": " + std::to_string(items) + " work-items per group with " +
                                             build_options(ps) + ", more than the device's " +
                                             std::to_string(dev.max_work_group_size));
  const size_t lmem = d.local_bytes ? d.local_bytes(ps) : 0;
  const size_t lmem_limit = local_limit(dev, d.local_kind);
  if (lmem > lmem_limit) {
    const bool static_kind = d.local_kind == LocalMemoryKind::Static;
    return Error(Status::OutOfResources, label(d) + ": " + std::to_string(lmem) + " bytes of " +
                                             (static_kind ? "static" : "dynamic") + " local memory with " +
                                             build_options(ps) + ", more than the device's " +
                                             std::to_string(lmem_limit) + " for " +
                                             (static_kind ? "static __local arrays" : "__local arguments"));
  }
  if (d.registers && dev.registers_per_work_group) {
    const size_t regs = d.registers(ps);
    if (regs > 255 || regs * items > dev.registers_per_work_group)
      return Error(Status::OutOfResources, label(d) + ": about " + std::to_string(regs) +
                                               " registers per work-item with " + build_options(ps) +
                                               " exceeds the device's " +
                                               std::to_string(dev.registers_per_work_group) +
                                               " per work-group (or 255)");
  }
  return std::nullopt;
}

}  // namespace

KernelParams resolve_params(const GemmKernelDescriptor& d, const DeviceInfo& dev, const KernelParams& overrides) {
  // Before any constraint, which may divide by a value.
  check_param_values(d, overrides);
  const auto defaults = [&](bool cpu) {
    KernelParams ps;
    for (const auto& spec : d.params) ps[spec.name] = cpu ? spec.cpu_default : spec.gpu_default;
    for (const auto& [name, value] : overrides) ps[name] = value;
    return ps;
  };
  KernelParams ps = defaults(dev.kind == DeviceKind::CPU);
  std::optional<Error> why = misfit(d, dev, ps);
  // A GPU smaller than the defaults assume (32 KiB of local memory, 256 work-items: Mali, Adreno,
  // Oclgrind) takes the smaller defaults made for CPU devices, for the parameters not given.
  if (why && dev.kind != DeviceKind::CPU) {
    KernelParams small = defaults(true);
    if (!misfit(d, dev, small)) ps = small, why.reset();
  }
  if (why) throw *why;
  return ps;
}

}  // namespace clgemm::detail
