// planner.cpp — picks how a GEMM runs on a device: the direct kernel, or packing plus the tunable
// xgemm kernel, with parameters from the tuning database when it has an entry.
#include <clgemm/error.hpp>
#include <clgemm/gemm.hpp>

#include "gemm/descriptor.hpp"
#include "gemm/direct_kernel.hpp"
#include "gemm/xgemm_kernel.hpp"
#include "tune/database.hpp"

#include <sstream>

namespace clgemm {

namespace {

// Without a tuning entry: packing costs two extra passes over A and B; it pays once there is
// enough arithmetic per element and every dimension fills the default 128×128 (GPU) tiles.
bool packing_pays(const DeviceInfo& d, size_t m, size_t n, size_t k) {
  const double work = double(m) * double(n) * double(k);
  const double min_work = d.kind == DeviceKind::CPU ? 128.0 * 128 * 128 : 256.0 * 256 * 256;
  return m >= 128 && n >= 128 && k >= 64 && work >= min_work;
}

const detail::GemmKernelDescriptor& descriptor_for(GemmPath path) {
  return path == GemmPath::Packed ? detail::xgemm_descriptor() : detail::direct_descriptor();
}

}  // namespace

std::string GemmPlan::describe() const {
  std::ostringstream os;
  if (path == GemmPath::Packed)
    os << "packed: xgemm kernel on packed operands (";
  else
    os << "direct: one guarded kernel, operands read in place (";
  os << detail::build_options(params) << "); parameters from " << source << "; " << reason;
  return os.str();
}

GemmPlan plan_gemm(const DeviceInfo& device, size_t m, size_t n, size_t k, const GemmOptions& o) {
  GemmPlan plan;
  const std::string cls = detail::shape_class(m, n, k);
  const auto found = detail::find_tuning(device, cls);
  if (o.force_path != GemmPath::Auto) {
    plan.path = o.force_path;
    plan.reason = "path forced by the caller";
  } else if (found) {
    plan.path = found->entry.kernel == "xgemm" ? GemmPath::Packed : GemmPath::Direct;
    plan.reason = "the tuner found this kernel fastest for " + cls + " shapes";
  } else if (packing_pays(device, m, n, k)) {
    plan.path = GemmPath::Packed;
    plan.reason = "large enough that the tiled kernel repays packing (no tuning entry)";
  } else {
    plan.path = GemmPath::Direct;
    plan.reason = "small or thin: reading operands in place beats copying them (no tuning entry)";
  }
  const auto& desc = descriptor_for(plan.path);
  // Forced parameters apply to the kernel's defaults, never on top of a tuned entry: a partial
  // override mixed into tuned values could form a combination nobody chose (or an invalid one).
  const bool use_entry = found && found->entry.kernel == desc.info.id && o.force_params.empty();
  if (use_entry) {
    try {
      plan.params = detail::resolve_params(desc, device, found->entry.params);
      plan.source = found->origin + ", " + cls + " shapes";
      return plan;
    } catch (const Error&) {
      // An entry from a related device (same architecture or vendor) that does not fit this
      // one: fall back to the defaults below rather than fail the GEMM.
    }
  }
  plan.params = detail::resolve_params(desc, device, o.force_params);
  plan.source = o.force_params.empty() ? "the kernel's defaults for a " + device.kind_name()
                                       : "the caller's overrides of the kernel's defaults";
  return plan;
}

}  // namespace clgemm
