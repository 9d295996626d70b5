// planner.cpp — picks how a GEMM runs on a device: the direct kernel, or packing plus a fast
// ladder kernel.
#include <clgemm/error.hpp>
#include <clgemm/gemm.hpp>

#include "gemm/descriptor.hpp"
#include "gemm/direct_kernel.hpp"

#include <sstream>

namespace clgemm {

namespace {

// The fastest ladder rung, as measured with `clgemm ladder` (docs/ladder.md): 2D register blocking
// won on the H200 (44.8 TFLOP/s at 4096³) and on PoCL (32 GFLOP/s at 512³).
int fast_rung(const DeviceInfo&) { return 6; }

// Packing costs two extra passes over A and B and one over C; it pays once there is enough
// arithmetic per element and every dimension is large enough to fill the fast kernel's tiles.
bool packing_pays(const DeviceInfo& d, size_t m, size_t n, size_t k) {
  const double work = double(m) * double(n) * double(k);
  const double min_work = d.kind == DeviceKind::CPU ? 128.0 * 128 * 128 : 256.0 * 256 * 256;
  return m >= 128 && n >= 128 && k >= 64 && work >= min_work;
}

}  // namespace

std::string GemmPlan::describe() const {
  std::ostringstream os;
  if (path == GemmPath::Packed) os << "packed: operands copied into padded temporaries, ladder rung " << rung;
  else os << "direct: one guarded kernel, operands read in place";
  os << " (" << detail::build_options(params) << "); " << reason;
  return os.str();
}

GemmPlan plan_gemm(const DeviceInfo& device, size_t m, size_t n, size_t k, const GemmOptions& o) {
  GemmPlan plan;
  if (o.force_path != GemmPath::Auto) {
    plan.path = o.force_path;
    plan.reason = "path forced by the caller";
  } else if (packing_pays(device, m, n, k)) {
    plan.path = GemmPath::Packed;
    plan.reason = "large enough that a fast tiled kernel repays the copies";
  } else {
    plan.path = GemmPath::Direct;
    plan.reason = "small or thin: reading operands in place beats copying them";
  }
  if (plan.path == GemmPath::Packed) {
    plan.rung = o.force_rung ? o.force_rung : fast_rung(device);
    plan.params = detail::resolve_params(detail::ladder_descriptor(plan.rung), device, o.force_params);
  } else {
    if (o.force_rung) throw Error(Status::InvalidArgument, "a ladder rung can only be forced with the packed path");
    plan.params = detail::resolve_params(detail::direct_descriptor(), device, o.force_params);
  }
  return plan;
}

}  // namespace clgemm
