// planner.cpp — picks how a GEMM runs on a device: a tensor-core path where one pays
// (tensor_plans.hpp), else the tiny, tall, direct or packed (xgemm) kernel, with parameters from
// the tuning database where it has an entry (entry_choice.hpp), and the ragged edges apart where
// that pays (edge_split.hpp).
#include <clgemm/error.hpp>
#include <clgemm/gemm.hpp>

#include "kernels/precision.hpp"
#include "kernels/descriptor.hpp"
#include "plan/edge_split.hpp"
#include "plan/entry_choice.hpp"
#include "plan/path_choice.hpp"
#include "plan/plan_cache.hpp"
#include "plan/plan_call.hpp"
#include "plan/tensor_plans.hpp"
#include "plan/tile_choice.hpp"
#include "kernels/gemm/direct/direct_kernel.hpp"
#include "kernels/gemm/tall/tall_kernel.hpp"
#include "kernels/gemm/tiny/tiny_kernel.hpp"
#include "kernels/gemm/xgemm/xgemm_kernel.hpp"
#include "kernels/gemm/xmma/xmma_kernel.hpp"
#include "database/database.hpp"
#include "kernels/gemm/tunable_kernels.hpp"

#include <algorithm>
#include <optional>
#include <sstream>
#include <utility>

namespace clgemm {

namespace {

// When copying an unaligned B pays (GemmPlan::pack_b). On the H100 the copy made the GEMM kernel
// 15 % faster at 3999³ (3.147 -> 2.680 ms, copy 0.068 ms) and 10 % at 774³ (0.062 -> 0.056 ms),
// where the copy and its launch (0.010 ms) cost more than that. The copy's share of the work
// falls as 1/M and its launch's as 1/(M·N·K).
constexpr size_t kPackBMinRows = 512;
constexpr double kPackBMinWork = 2147483648.0;  // 2^31, about 1290³

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

// Whether the packed path copies an unaligned B first (GemmPlan::pack_b): reading it in place
// takes one 4-byte cp.async per element instead of one per 16 bytes.
bool packing_b_pays(size_t m, size_t n, size_t k) {
  return m >= kPackBMinRows && double(m) * double(n) * double(k) >= kPackBMinWork;
}

bool pack_b_choice(size_t m, size_t n, size_t k, const GemmOptions& o) {
  if (o.force_pack_b != GemmOptions::Toggle::Auto) return o.force_pack_b == GemmOptions::Toggle::On;
  return packing_b_pays(m, n, k);
}

// The plan for the whole call, edges included; `allow_tall` = false leaves the tall kernel out
// (for calls whose A it cannot read).
GemmPlan plan_whole(const DeviceInfo& device, size_t m, size_t n, size_t k, const GemmOptions& o, bool allow_tall,
                    DataType type, size_t batch);

}  // namespace

std::string GemmPlan::describe() const {
  std::ostringstream os;
  if (path == GemmPath::Tall)
    os << "tall: one kernel that streams op(A) in place along k, with op(B) from the caches (";
  else if (path == GemmPath::Tensor && kernel == "dmma")
    os << "tensor: dmma kernel on FP64 tensor cores, on operands in place where whole tiles, else packed (";
  else if (path == GemmPath::Tensor)
    os << "tensor: xmma kernel on tensor cores, " << (detail::tf32_terms(params) ? "TF32" : "3xTF32")
       << ", on packed operands (";
  else if (path == GemmPath::Packed)
    os << "packed: xgemm kernel on packed operands (";
  else if (path == GemmPath::Wide)
    os << "wide: one kernel that streams the large operand in place along its rows, the short one from the "
          "caches (";
  else if (path == GemmPath::Wgmma)
    os << "wgmma: Hopper tensor-core kernel (PTX patched for sm_90a); operands whose rows start on 128-byte lines "
          "are read in place, others packed first; each launch sets B_MN and TMA, as its command's options show (";
  else if (path == GemmPath::Tiny)
    os << "tiny: one kernel, a work-item per element of C of the whole batch, operands read in place (";
  else
    os << "direct: one guarded kernel, operands read in place (";
  os << detail::build_options(params) << "); parameters from " << source << "; " << reason;
  if (path == GemmPath::Packed && pack_b) os << "; B is copied first where it is not aligned to VWN";
  if (splits > 1 && sk_groups > 0)
    os << "; stream-K: the last " << split_tiles << " tiles shared along K by " << sk_groups
       << " work-groups (the last wave would leave compute units idle)";
  else if (splits > 1)
    os << "; split-K: the last " << split_tiles << " tiles in " << splits << " parts along K (the last wave would "
       << "leave compute units idle)";
  if (interior_m > 0)
    os << "; edges apart: this is the plan of the interior " << interior_m << "x" << interior_n
       << " (whole tiles), and the rows below it and the columns right of it run as two more GEMMs, planned on their own";
  return os.str();
}

namespace {

// Only calls that force nothing but the treatment of edges share plans (the strips of a split
// are planned with it off; GemmOptions::events does not change a plan). The arithmetic asked
// for is not forcing: plans are kept per GemmOptions::math.
bool forces_nothing(const GemmOptions& o) {
  return detail::chooses_freely(o) && o.force_splits == 0 &&
         o.force_split_tiles == 0 && o.force_sk_groups == 0 && o.force_pack_b == GemmOptions::Toggle::Auto;
}

GemmPlan plan_uncached(const DeviceInfo& device, size_t m, size_t n, size_t k, const GemmOptions& o,
                       DataType type, bool allow_tall = true, size_t batch = 1);
GemmPlan plan_elsewhere(const DeviceInfo& device, size_t m, size_t n, size_t k, const GemmOptions& o,
                        DataType type, bool allow_tall, size_t batch);

}  // namespace

namespace detail {

GemmPlan plan_without_tall(const DeviceInfo& device, size_t m, size_t n, size_t k, const GemmOptions& o,
                           DataType type, size_t batch) {
  return plan_uncached(device, m, n, k, o, type, false, batch);
}

}  // namespace detail

GemmPlan plan_gemm(const DeviceInfo& device, size_t m, size_t n, size_t k, const GemmOptions& o, DataType type,
                   size_t batch) {
  if (o.force_path == GemmPath::Wide)
    throw Error(Status::InvalidArgument,
                "the wide path depends on which operand is transposed, which a shape alone does not say: plan the "
                "call (plan_call) instead");
  // Batches that the batched class does not serve plan as one item: the cache keeps one plan for them.
  if (!detail::batched_class_serves(device.kind, m, n, k, batch)) batch = 1;
  if (!forces_nothing(o)) return plan_uncached(device, m, n, k, o, type, true, batch);
  if (auto cached = detail::plan_cache().find(device, m, n, k, o, type, batch)) return *cached;
  const uint64_t generation = detail::user_database_generation();
  GemmPlan plan = plan_uncached(device, m, n, k, o, type, true, batch);
  detail::plan_cache().store(device, m, n, k, o, type, batch, plan, generation);
  return plan;
}

namespace {

GemmPlan plan_uncached(const DeviceInfo& device, size_t m, size_t n, size_t k, const GemmOptions& o,
                       DataType type, bool allow_tall, size_t batch) {
  if (auto wgmma = detail::plan_wgmma(device, m, n, k, o, type, batch)) return *wgmma;
  GemmPlan plan = plan_elsewhere(device, m, n, k, o, type, allow_tall, batch);
  plan.reason += detail::wgmma_refused(device, m, n, k, o, type);
  return plan;
}

// The plan without the wgmma path.
GemmPlan plan_elsewhere(const DeviceInfo& device, size_t m, size_t n, size_t k, const GemmOptions& o,
                        DataType type, bool allow_tall, size_t batch) {
  if (type != DataType::F32 && type != DataType::F64 && o.force_path == GemmPath::Tensor)
    throw Error(Status::InvalidArgument, std::string("the tensor path multiplies f32 or f64 operands; these are ") +
                                             data_type_name(type));
  if (type == DataType::F64)
    if (auto dmma = detail::plan_dmma(device, m, n, k, o, batch)) return *dmma;
  if (type == DataType::F32 && (o.math != Math::Fp32 || o.force_path == GemmPath::Tensor)) {
    if (auto tensor = detail::plan_tensor(device, m, n, k, o)) return *tensor;
    GemmOptions fp32 = o;
    fp32.math = Math::Fp32;
    GemmPlan plan = plan_uncached(device, m, n, k, fp32, type, allow_tall, batch);
    plan.reason += std::string("; float32 arithmetic although ") + detail::math_name(o.math) + " was asked for: " +
                   (!tensor_path_available(device) ? "the device has no tensor path (an NVIDIA GPU, sm_80 or newer)"
                    : !detail::chooses_freely(o) ? "another path or its parameters were forced"
                        : "the shape is too small for the tensor path to pay, or its tiles would leave compute "
                          "units idle where the float32 path's would not (the load-balance model's prediction)");
    return plan;
  }
  const GemmPlan whole = plan_whole(device, m, n, k, o, allow_tall, type, batch);
  // A plan from the batched class's entry covers the padded tiles already: its measurements are
  // of whole batches, edges included.
  if (whole.path != GemmPath::Packed || o.force_edge_split == GemmOptions::Toggle::Off || whole.batched) return whole;
  const size_t tile_m = size_t(detail::p(whole.params, "MWG")), tile_n = size_t(detail::p(whole.params, "NWG"));
  const bool split = o.force_edge_split == GemmOptions::Toggle::On ? detail::interior_of(m, n, tile_m, tile_n).m > 0
                                                                   : detail::edges_apart_pay(device, m, n, k, tile_m, tile_n);
  if (!split) return whole;
  const detail::Interior in = detail::interior_of(m, n, tile_m, tile_n);
  GemmPlan inner = plan_whole(device, in.m, in.n, k, o, allow_tall, type, 1);
  if (inner.path != GemmPath::Packed) return whole;
  inner.interior_m = in.m, inner.interior_n = in.n;
  return inner;
}

GemmPlan plan_whole(const DeviceInfo& device, size_t m, size_t n, size_t k, const GemmOptions& o, bool allow_tall,
                    DataType type, size_t batch) {
  GemmPlan plan;
  const detail::PathChoice tiny_choice = detail::path_choice(o, GemmPath::Tiny);
  const bool tiny = tiny_choice == detail::PathChoice::Forced ||
                    (tiny_choice == detail::PathChoice::Free && detail::tiny_pays(m, n, k, batch));
  if (tiny) {
    plan.path = GemmPath::Tiny;
    plan.kernel = "tiny";
    plan.params = detail::tiny_params(o.force_params, detail::precision_bits(type));
    plan.source = o.force_params.empty() ? "the tiny kernel's default work-group"
                                         : "the caller's overrides of the tiny kernel's work-group";
    plan.reason = o.force_path == GemmPath::Tiny
                      ? "path forced by the caller"
                      : "a batch of " + std::to_string(batch) + " items of at most " +
                            std::to_string(detail::kTinyMaxElements) + " elements of C, " +
                            std::to_string(detail::kTinyMaxK) +
                            " deep: one work-item per element, many items to a work-group";
    return plan;
  }
  // Overrides without a forced path are meant for the kernel the planner would otherwise pick.
  const detail::PathChoice tall_choice = detail::path_choice(o, GemmPath::Tall);
  const bool tall = tall_choice == detail::PathChoice::Forced ||
                    (tall_choice == detail::PathChoice::Free && allow_tall && detail::tall_pays(device, m, n, k));
  if (tall) {
    plan.path = GemmPath::Tall;
    plan.kernel = "tall";
    plan.params = detail::tall_params(device, m, n, k, o.force_params, detail::precision_bits(type));
    plan.source = o.force_params.empty() ? "parameters measured for the tall kernel"
                                         : "the caller's overrides of the tall kernel's parameters";
    plan.reason = o.force_path == GemmPath::Tall
                      ? "path forced by the caller"
                      : "C has at most " + std::to_string(detail::kTallMaxN) + " columns and " + std::to_string(m) +
                            " rows: streaming op(A) in place beats tiles that would be mostly empty (where op(A)'s "
                            "rows are contiguous along k; otherwise the call is planned without this path)";
    return plan;
  }
  plan.pack_b = pack_b_choice(m, n, k, o);  // by size alone, whatever path and parameters follow
  // A batch that the batched class serves (plan_gemm) takes its entry where there is one, else
  // its item's class's.
  std::string cls = detail::shape_class(device.kind, m, n, k);
  std::optional<detail::FoundEntry> found;
  if (batch > 1) found = detail::find_entry(device, "batched", false, type);
  if (found) cls = "batched";
  else found = detail::find_entry(device, cls, false, type);
  if (o.force_path != GemmPath::Auto) {
    plan.path = o.force_path;
    plan.reason = "path forced by the caller";
  } else if (found) {
    plan.path = detail::tunable_family(found->entry.kernel).path;
    plan.reason = "the tuner found this kernel fastest for " + cls + " shapes";
  } else if (packing_pays(device, m, n, k)) {
    plan.path = GemmPath::Packed;
    plan.reason = "large enough that the tiled kernel repays packing (no tuning entry)";
  } else {
    plan.path = GemmPath::Direct;
    plan.reason = "small or thin: reading operands in place beats copying them (no tuning entry)";
  }
  const auto& desc = descriptor_for(plan.path);
  plan.kernel = desc.info.id;
  // Forced parameters apply to the kernel's defaults, never on top of a tuned entry: a partial
  // override mixed into tuned values could form a combination nobody chose (or an invalid one).
  const bool use_entry = found && found->entry.kernel == desc.info.id && o.force_params.empty();
  if (use_entry) {
    try {
      const bool auto_split = detail::splits_k(desc) && o.force_splits == 0;
      const detail::Choice chosen = detail::choose_among(found->entry, device, desc, {m, n, k, cls == "batched" ? batch : 1}, auto_split);
      plan.params = detail::resolve_params(desc, device, chosen.params);
      plan.batched = cls == "batched";
      plan.source = found->origin + ", " + cls + " shapes" + chosen.note;
      const detail::SplitK split = auto_split ? chosen.split : detail::forced_split(desc, plan.params, device, m, n, k, o);
      plan.splits = split.splits, plan.split_tiles = split.split_tiles;
      plan.sk_groups = detail::runnable_sk_groups(auto_split ? split.sk_groups : o.force_sk_groups,
                                                  plan.split_tiles, device);
      return plan;
    } catch (const Error&) {
      // An entry from a related device (same architecture or vendor) that does not fit this
      // one: fall back to the defaults below rather than fail the GEMM.
    }
  }
  KernelParams overrides = o.force_params;
  overrides["PRECISION"] = detail::precision_bits(type);
  plan.params = detail::resolve_params(desc, device, overrides);
  plan.source = o.force_params.empty() ? "the kernel's defaults for a " + device.kind_name()
                                       : "the caller's overrides of the kernel's defaults";
  // Without a measurement the model still tells whether a split pays (it compares the same
  // configuration with itself).
  detail::SplitK split = detail::forced_split(desc, plan.params, device, m, n, k, o);
  if (detail::splits_k(desc) && o.force_splits == 0) {
    const detail::TileCandidate c = detail::candidate_of(desc, plan.params, 1.0, {m, n, k});
    split = detail::best_split(c, {m, n, k}, device.compute_units);
  }
  plan.splits = split.splits, plan.split_tiles = split.split_tiles;
  plan.sk_groups = detail::runnable_sk_groups(o.force_splits != 0 ? o.force_sk_groups : split.sk_groups,
                                              plan.split_tiles, device);
  return plan;
}

}  // namespace

}  // namespace clgemm
