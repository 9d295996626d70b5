// planner.cpp — picks how a GEMM runs on a device: the direct kernel, or packing plus the tunable
// xgemm kernel, with parameters from the tuning database when it has an entry.
#include <clgemm/error.hpp>
#include <clgemm/gemm.hpp>

#include "kernels/precision.hpp"
#include "kernels/descriptor.hpp"
#include "plan/edge_split.hpp"
#include "plan/plan_cache.hpp"
#include "plan/plan_call.hpp"
#include "plan/tile_choice.hpp"
#include "kernels/gemm/direct_kernel.hpp"
#include "kernels/gemm/tall_kernel.hpp"
#include "kernels/gemm/tiny_kernel.hpp"
#include "kernels/gemm/xgemm_kernel.hpp"
#include "kernels/gemm/dmma_kernel.hpp"
#include "kernels/gemm/wgmma_kernel.hpp"
#include "kernels/gemm/wgmma_split.hpp"
#include "kernels/gemm/xmma_kernel.hpp"
#include "runtime/warnings.hpp"
#include "database/database.hpp"

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

// Where the tensor path starts (tensor_pays).
constexpr size_t kTensorMinSide = 1024;
constexpr double kTensorMinWork = 2048.0 * 2048 * 2048;
constexpr double kTensorMinWaveUse = 0.8;

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

const detail::GemmKernelDescriptor& descriptor_of_entry(const detail::TuningEntry& e) {
  if (e.kernel == "wgmma") return detail::wgmma_descriptor();
  if (e.kernel == "dmma") return detail::dmma_descriptor();
  return e.kernel == "xmma" ? detail::xmma_descriptor() : e.kernel == "xgemm" ? detail::xgemm_descriptor()
                                                                               : detail::direct_descriptor();
}

// Whether a tuning entry's parameters are valid for its kernel on any device (a hand-edited or
// damaged database can hold a tile of 0 or a negative depth). An invalid entry is passed over
// with a warning, so that the lookup goes on to the next one; an invalid alternative is dropped.
bool entry_is_valid(const detail::TuningEntry& e) {
  const auto& desc = descriptor_of_entry(e);
  try {
    detail::check_param_values(desc, e.params);
    return true;
  } catch (const Error& err) {
    detail::warn_once("skipping the tuning entry for " + e.device + ", " + e.shape_class + " shapes: " + err.what());
    return false;
  }
}

void drop_invalid_alternatives(detail::TuningEntry& e) {
  const auto& desc = descriptor_of_entry(e);
  auto& alts = e.alternatives;
  alts.erase(std::remove_if(alts.begin(), alts.end(),
                            [&](const detail::TuningAlternative& a) {
                              try {
                                detail::check_param_values(desc, a.params);
                                return false;
                              } catch (const Error& err) {
                                detail::warn_once("dropping an alternative of the tuning entry for " + e.device + ", " +
                                                  e.shape_class + " shapes: " + err.what());
                                return true;
                              }
                            }),
             alts.end());
}

// The tuned entry for a shape class (among the tensor path's entries with `tensor`, those of
// `kernel` where it is given). With `borrow`, a class without one borrows from its neighbours (a
// database tuned before the "mid" class existed has only "medium" and "large"; `clgemm tune
// --tensor --classes large` leaves mid without one).
std::optional<detail::FoundEntry> find_entry(const DeviceInfo& device, const std::string& cls, bool tensor = false,
                                             DataType type = DataType::F32, const std::string& kernel = "",
                                             bool borrow = true) {
  const auto usable = [&](const detail::TuningEntry& e) {
    return (kernel.empty() || e.kernel == kernel) && entry_is_valid(e);
  };
  std::vector<std::string> order = {cls};
  if (borrow && cls == "mid") order = {"mid", "large", "medium"};
  if (borrow && cls == "large") order = {"large", "mid"};
  if (borrow && cls == "medium") order = {"medium", "mid"};
  // Operands stored in another type than they are computed in (f16, bf16) reach the tiled kernel
  // widened (packed), so without entries of their own they take their compute type's; f64 has
  // its own register and memory needs, and takes defaults.
  std::vector<DataType> types = {type};
  if (borrow && !detail::stored_as_computed(type)) types.push_back(detail::compute_type(type));
  for (const DataType t : types)
    for (const auto& c : order)
      if (auto found = detail::find_tuning(device, c, tensor, usable, t)) {
        if (c != cls) found->origin += " (borrowed by " + cls + ")";
        if (t != type) found->origin += std::string(" (") + data_type_name(t) + ", borrowed by " + data_type_name(type) + ")";
        drop_invalid_alternatives(found->entry);
        if (!tensor) {
          found->entry.params["PRECISION"] = detail::precision_bits(type);
          for (auto& a : found->entry.alternatives) a.params["PRECISION"] = detail::precision_bits(type);
        }
        return found;
      }
  return std::nullopt;
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

// Split-K is a feature of the xgemm kernel only.
bool splits_k(const detail::GemmKernelDescriptor& desc) { return desc.info.id == "xgemm"; }

struct Choice {
  KernelParams params;
  std::string note;
  detail::SplitK split;
  double seconds = 0;  // the model's prediction (0: none)
};

// The entry's configuration or one of its alternatives, with or without split-K: whichever the
// load-balance model predicts fastest for this shape (tile_choice.hpp). Only this class's entry:
// the model does not know how many blocks share a compute unit, so it misjudges configurations
// measured on shapes far away (it predicted the 2048³ entry's 128×128 tiles split in two
// fastest at 1024³, where they leave most of each unit idle).
Choice choose_among(const detail::TuningEntry& e, const DeviceInfo& device, const detail::GemmKernelDescriptor& desc,
                    const GemmShape& call, bool allow_split) {
  if (!desc.tile || e.shape.m == 0) return {e.params, "", {}};
  std::vector<KernelParams> params;  // the candidates that fit this device, in entry order
  std::vector<size_t> numbers;       // 0 for the entry, i for its alternative i
  std::vector<detail::TileCandidate> cands;
  // Each configuration is predicted from its measurement nearest this call: the entry's shape,
  // or one of its points.
  auto add = [&](const KernelParams& ps, double gflops, const std::vector<detail::TuningPoint>& points, size_t number) {
    try {
      const KernelParams full = detail::resolve_params(desc, device, ps);
      std::vector<detail::TileCandidate> measured{detail::candidate_of(desc, full, gflops, e.shape, device)};
      for (const auto& p : points) measured.push_back(detail::candidate_of(desc, full, p.gflops, p.shape, device));
      cands.push_back(detail::nearest_measurement(measured, call, device.compute_units));
      params.push_back(ps);
      numbers.push_back(number);
    } catch (const Error&) {  // does not fit this device: not a candidate
    }
  };
  add(e.params, e.gflops, e.points, 0);
  for (size_t a = 0; a < e.alternatives.size(); ++a)
    add(e.alternatives[a].params, e.alternatives[a].gflops, e.alternatives[a].points, a + 1);
  if (cands.empty()) return {e.params, "", {}};
  const detail::TilePick pick = detail::pick_tile(cands, call, device.compute_units, allow_split);
  const detail::TileCandidate& c = cands[pick.index];
  std::string note;
  if (numbers[pick.index] > 0)
    note = "; alternative " + std::to_string(numbers[pick.index]) + " of the entry (" + std::to_string(c.tile_m) + "x" +
           std::to_string(c.tile_n) + " tiles, predicted faster here)";
  if (c.tuned.m != e.shape.m || c.tuned.n != e.shape.n || c.tuned.k != e.shape.k || c.tuned.batch != e.shape.batch)
    note += "; predicted from its measurement at " + shape_text(c.tuned);
  return {params[pick.index], note, pick.split, pick.seconds};
}

// The caller's split, or none: for configurations without a measurement (defaults, overrides).
detail::SplitK forced_split(const detail::GemmKernelDescriptor& desc, const KernelParams& full, const DeviceInfo& device,
                            size_t m, size_t n, size_t k, const GemmOptions& o) {
  if (!splits_k(desc) || o.force_splits <= 1) return {};
  return detail::requested_split(detail::candidate_of(desc, full, 1.0, {m, n, k}), {m, n, k}, device.compute_units,
                                 o.force_splits, o.force_split_tiles);
}

const char* math_name(Math math) {
  return math == Math::Tf32x3 ? "3xTF32" : math == Math::Tf32 ? "TF32" : "FP32";
}

// Whether the tensor path pays for a shape when GemmOptions::math allows it. Below it the float32
// path was faster on the H200 (3xTF32 against it: 0.24-0.38× at 256³-516³, 0.89× at 1024³,
// 0.93-0.99× at 1548³-2064³; 1.13-1.19× from 2048³ to 8192³; 0.58× at 4096×256×256), and is
// exact there besides.
bool tensor_pays(size_t m, size_t n, size_t k) {
  return m >= kTensorMinSide && n >= kTensorMinSide && k >= kTensorMinSide &&
         double(m) * double(n) * double(k) >= kTensorMinWork;
}

// Nor where the last wave of tiles leaves many compute units idle: 2064³ (289 tiles of 128×128
// for 132 units, 73 % of three waves used) ran at 0.79× the float32 path.
bool waves_filled(const DeviceInfo& device, size_t m, size_t n, std::pair<size_t, size_t> tile) {
  const size_t count = ((m + tile.first - 1) / tile.first) * ((n + tile.second - 1) / tile.second);
  const size_t units = std::max<size_t>(1, device.compute_units), waves = (count + units - 1) / units;
  return double(count) >= kTensorMinWaveUse * double(waves * units);
}

// Whether a call that forces nothing runs its ragged edges apart, given the tile of C of the plan
// for the whole call (edge_split.hpp; measured on GPUs only).
bool edges_apart_pay(const DeviceInfo& device, size_t m, size_t n, size_t k, size_t tile_m, size_t tile_n) {
  return device.kind == DeviceKind::GPU && detail::edge_split_pays(m, n, k, tile_m, tile_n, device.compute_units);
}

// The seconds the load-balance model predicts for the float32 path's tuned packed kernel at this
// shape (0 without a tuned xgemm entry, or one that does not fit the device). Where the float32
// plan would run the ragged edges apart (plan_uncached), the interior's prediction scaled up to
// the whole of C: the strips at the interior's rate, which flatters the float32 path a little
// (2064³ on the H200: 0.38 ms predicted, 0.415 measured). Without it the prediction was the
// padded tiles', and with the entries `clgemm tune` made on an H100 the tensor path won 2064³ on
// paper and lost it by 12 % (0.88×).
double float32_prediction(const DeviceInfo& device, size_t m, size_t n, size_t k) {
  const auto& desc = detail::xgemm_descriptor();
  const auto predict = [&](size_t pm, size_t pn) -> std::pair<double, KernelParams> {
    const auto found = find_entry(device, detail::shape_class(device.kind, pm, pn, k));
    if (!found || found->entry.kernel != "xgemm") return {0, {}};
    const Choice c = choose_among(found->entry, device, desc, {pm, pn, k}, true);
    return {c.seconds, detail::resolve_params(desc, device, c.params)};
  };
  try {
    const auto [seconds, params] = predict(m, n);
    if (seconds <= 0) return 0;
    const size_t tm = size_t(detail::p(params, "MWG")), tn = size_t(detail::p(params, "NWG"));
    if (!edges_apart_pay(device, m, n, k, tm, tn)) return seconds;
    const detail::Interior in = detail::interior_of(m, n, tm, tn);
    const double interior = predict(in.m, in.n).first;
    return interior > 0 ? interior * (double(m) * double(n)) / (double(in.m) * double(in.n)) : seconds;
  } catch (const Error&) {
    return 0;
  }
}

std::string fixed_ms(double seconds) {
  std::ostringstream os;
  os.setf(std::ios::fixed);
  os.precision(3);
  os << seconds * 1e3;
  return os.str();
}

// The tensor path's plan, or nothing where the planner goes on to the float32 paths.
std::optional<GemmPlan> plan_tensor(const DeviceInfo& device, size_t m, size_t n, size_t k, const GemmOptions& o) {
  const bool forced = o.force_path == GemmPath::Tensor;
  if (forced && o.math == Math::Fp32)
    throw Error(Status::InvalidArgument,
                "the tensor path computes in TF32: set GemmOptions::math to Tf32x3 or Tf32 to force it");
  if (forced && !tensor_path_available(device))
    throw Error(Status::InvalidArgument, "the tensor path needs an NVIDIA GPU of compute capability 8.0 or newer; " +
                                             device.name + " has none");
  if (!forced && (o.force_path != GemmPath::Auto || !o.force_params.empty() || !tensor_path_available(device) ||
                  !tensor_pays(m, n, k)))
    return std::nullopt;
  // Accuracy, not speed, sets FK and TERMS (xmma_kernel.cpp): whatever an entry holds, the math
  // asked for decides. TF32's own rounding dwarfs what the MMA's truncating sums add: no float32
  // adds (FK = 0); 3xTF32 adds after every k8 step (FK = 1).
  const detail::GemmKernelDescriptor& desc = detail::xmma_descriptor();
  const auto resolved = [&](KernelParams ps) {
    ps["TERMS"] = detail::terms_of(o.math);
    if (!o.force_params.count("FK")) ps["FK"] = o.math == Math::Tf32 ? 0 : 1;
    return detail::resolve_params(desc, device, ps);
  };
  // The tiles: the caller's; else a tuned entry's (its configuration or an alternative, whichever
  // the load-balance model predicts fastest here; tuned with 3xTF32, used for TF32 too), where it
  // fits this device; else the rule measured by hand on the H200.
  GemmPlan plan;
  plan.path = GemmPath::Tensor;
  double predicted = 0;  // seconds, from a tuned entry's measurements
  if (!o.force_params.empty()) {
    plan.params = resolved(o.force_params);
    plan.source = "the caller's overrides of the tensor kernel's defaults";
  } else {
    plan.params = resolved(detail::xmma_tiles(device, m, n));
    plan.source = "the tensor kernel's defaults (measured on the H200)";
    if (const auto found = find_entry(device, detail::shape_class(device.kind, m, n, k), true, DataType::F32, "xmma")) {
      const Choice c = choose_among(found->entry, device, desc, {m, n, k}, false);
      try {
        plan.params = resolved(c.params);
        plan.source = found->origin + c.note;
        predicted = c.seconds;
      } catch (const Error&) {  // tuned for another device: keep the defaults
      }
    }
  }
  plan.reason = forced ? "path forced by the caller"
                       : std::string(math_name(o.math)) + " asked for, and the device has TF32 tensor cores";
  if (forced) return plan;
  // Whether the tensor path beats the float32 one here. Where both have measured entries, their
  // load-balance models decide: how well each one's tiles fill the compute units matters as much
  // as the tensor cores' edge (H200, 3xTF32 against float32: 1.19× at 4096³, 1.07× at 3072³,
  // whose 576 tiles of 128×128 fill 73 % of three rounds of 264 places; 0.81× at 2064³, 0.55× at
  // 1024×1024×8192). Otherwise the last wave of tiles must be mostly full.
  const double float32 = float32_prediction(device, m, n, k);
  if (predicted > 0 && float32 > 0) {
    if (predicted >= float32) return std::nullopt;
    plan.reason += "; predicted " + fixed_ms(predicted) + " ms against " + fixed_ms(float32) + " ms for float32";
    return plan;
  }
  if (!waves_filled(device, m, n, desc.tile(plan.params))) return std::nullopt;
  return plan;
}

// The tensor path's plan for double (dmma.cl, FP64 tensor cores), or nothing where the planner
// goes on to the SIMT paths. The products and sums are IEEE double operations either way, so no
// GemmOptions::math asks for it: it runs wherever the device has it, on items of at least 512³
// multiply-adds with no side under 64, and on batches of at least 2^31 of items from 256³ (H100,
// `force_probe f64`, TFLOP/s: 256 × 256³ 19.6 against 17.1 on the SIMT kernels; 1024 × 128³ 13.2
// against 13.3, and 4096 × 64³ 7.6 against 8.7, where packing the operands costs as much as the
// products). Smaller calls keep the SIMT kernels and their tuned entries.
// Where the database holds an entry of `desc`'s kernel (wgmma, dmma) for the call's own class and
// `type`, never borrowed from another class: the plan takes its configuration or an alternative,
// whichever the load-balance model predicts fastest, with `fixed` set whatever the entry holds.
// An entry that does not fit this device leaves the plan as it is.
void take_tensor_entry(GemmPlan& plan, const DeviceInfo& device, const detail::GemmKernelDescriptor& desc,
                       DataType type, const GemmShape& call, const KernelParams& fixed) {
  const auto found =
      find_entry(device, detail::shape_class(device.kind, call.m, call.n, call.k), true, type, desc.info.id, false);
  if (!found) return;
  const Choice c = choose_among(found->entry, device, desc, call, false);
  KernelParams tuned = c.params;
  for (const auto& [name, value] : fixed) tuned[name] = value;
  try {
    plan.params = detail::resolve_params(desc, device, tuned);
    plan.source = found->origin + c.note;
  } catch (const Error&) {  // tuned for another device: keep the rules
  }
}

std::optional<GemmPlan> plan_dmma(const DeviceInfo& device, size_t m, size_t n, size_t k, const GemmOptions& o,
                                  size_t batch) {
  const bool forced = o.force_path == GemmPath::Tensor;
  if (forced && !tensor_path_available(device))
    throw Error(Status::InvalidArgument, "the tensor path needs an NVIDIA GPU of compute capability 8.0 or newer; " +
                                             device.name + " has none");
  const double item = double(m) * double(n) * double(k);
  const bool pays = m >= 64 && n >= 64 && k >= 64 &&
                    (item >= 512.0 * 512 * 512 || (item >= 256.0 * 256 * 256 && item * double(batch) >= 2147483648.0));
  if (!forced && (o.force_path != GemmPath::Auto || !o.force_params.empty() || !tensor_path_available(device) || !pays))
    return std::nullopt;
  KernelParams ps = o.force_params.empty() ? detail::dmma_tiles(device, m, n) : o.force_params;
  ps["PRECISION"] = 64;
  GemmPlan plan;
  plan.path = GemmPath::Tensor;
  plan.params = detail::resolve_params(detail::dmma_descriptor(), device, ps);
  plan.source = o.force_params.empty() ? "the dmma kernel's defaults" : "the caller's overrides of the dmma kernel's defaults";
  // A tuned entry (`clgemm tune --tensor --precision f64`): the rule for fewer tiles than compute
  // units beats tiles tuned at 2048³ or 4096³ where it applies.
  if (o.force_params.empty())
    take_tensor_entry(plan, device, detail::dmma_descriptor(), DataType::F64, {m, n, k}, {{"PRECISION", 64}});
  plan.reason = forced ? "path forced by the caller" : "double on the FP64 tensor cores (mma.sync f64)";
  return plan;
}

// The wgmma path's plan, or nothing where the planner goes on to the other paths: for the
// arithmetic wgmma computes (wgmma_arithmetic), on a device whose driver builds the patched
// program, at shapes where it pays.
std::optional<GemmPlan> plan_wgmma(const DeviceInfo& device, size_t m, size_t n, size_t k, const GemmOptions& o,
                                   DataType type, size_t batch) {
  const bool forced = o.force_path == GemmPath::Wgmma;
  const bool arithmetic = detail::wgmma_arithmetic(type, o.math);
  if (forced && !arithmetic)
    throw Error(Status::InvalidArgument, std::string("the wgmma path multiplies f16 or bf16 operands, or f32 ones with "
                                                     "GemmOptions::math Tf32 or Tf32x3; these are ") +
                                             data_type_name(type) + " with " + math_name(o.math));
  if (forced && !device.sm90a_patching)
    throw Error(Status::InvalidArgument,
                "the wgmma path needs an NVIDIA GPU of compute capability 9.0 whose driver builds PTX patched for "
                "sm_90a; " + device.name + (detail::wgmma_architecture(device) ? " did not build it" : " is not one"));
  const bool three = type == DataType::F32 && o.math == Math::Tf32x3;
  if (!forced && (o.force_path != GemmPath::Auto || !o.force_params.empty() || !arithmetic ||
                  !device.sm90a_patching || !detail::wgmma_pays(m, n, k) ||
                  (three && !detail::wgmma_three_terms_pay(device, m, n, k, batch))))
    return std::nullopt;
  GemmPlan plan;
  plan.path = GemmPath::Wgmma;
  // The arithmetic asked for sets TERMS, whatever the caller forces. 3xTF32's lo buffers leave
  // the defaults' slices no room, so what a caller forces overrides its own defaults.
  KernelParams ps = o.force_params.empty() || three ? detail::wgmma_tiles(device, m, n, k, batch, type, o.math) : KernelParams{};
  for (const auto& [name, value] : o.force_params) ps[name] = value;
  ps["TERMS"] = three ? 3 : 1;
  plan.params = detail::resolve_params(detail::wgmma_descriptor(), device, ps);
  plan.source = o.force_params.empty() ? "the wgmma kernel's defaults (measured on an H100)"
                                       : "the caller's overrides of the wgmma kernel's defaults";
  // A tuned entry (`clgemm tune --tensor`): the rules above beat tiles tuned for 2048³ or 4096³
  // where those leave SMs idle. 3xTF32 keeps its rule (its lo buffers take the local memory a tuned
  // slice would), and so do batches of the items the batched class serves (plan_gemm plans larger
  // ones as single products).
  if (o.force_params.empty() && !three && batch <= 1)
    take_tensor_entry(plan, device, detail::wgmma_descriptor(), type, {m, n, k}, {{"TERMS", 1}});
  // Split-K of a last round of tiles that would leave most SMs idle, for single products.
  if (batch <= 1) {
    const detail::WgmmaSplit split =
        detail::wgmma_split(device, m, n, k, type, plan.params, o.force_splits, o.force_split_tiles);
    plan.splits = split.splits, plan.split_tiles = split.split_tiles;
  }
  plan.reason = forced ? "path forced by the caller"
                       : std::string(type == DataType::F32 ? math_name(o.math) : data_type_name(type)) +
                             " products on Hopper's tensor cores (wgmma, PTX patched for sm_90a)";
  return plan;
}

// Why a call whose arithmetic wgmma computes runs elsewhere on an sm_90 device ("" where it does
// not matter: another device, or a shape or force that rules the path out anyway).
std::string wgmma_refused(const DeviceInfo& device, size_t m, size_t n, size_t k, const GemmOptions& o, DataType type) {
  if (device.sm90a_patching || !detail::wgmma_architecture(device) || !detail::wgmma_arithmetic(type, o.math) ||
      o.force_path != GemmPath::Auto || !o.force_params.empty() || !detail::wgmma_pays(m, n, k))
    return "";
  return "; not the wgmma path: the driver did not build PTX patched for sm_90a (or the device was described "
         "without trying: clgemm::planning_device)";
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
  else if (path == GemmPath::Tensor && params.count("PRECISION") && params.at("PRECISION") == 64)
    os << "tensor: dmma kernel on FP64 tensor cores, on packed operands (";
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
  return o.force_path == GemmPath::Auto && o.force_params.empty() && o.force_splits == 0 &&
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
  if (auto wgmma = plan_wgmma(device, m, n, k, o, type, batch)) return *wgmma;
  GemmPlan plan = plan_elsewhere(device, m, n, k, o, type, allow_tall, batch);
  plan.reason += wgmma_refused(device, m, n, k, o, type);
  return plan;
}

// The plan without the wgmma path.
GemmPlan plan_elsewhere(const DeviceInfo& device, size_t m, size_t n, size_t k, const GemmOptions& o,
                        DataType type, bool allow_tall, size_t batch) {
  if (type != DataType::F32 && type != DataType::F64 && o.force_path == GemmPath::Tensor)
    throw Error(Status::InvalidArgument, std::string("the tensor path multiplies f32 or f64 operands; these are ") +
                                             data_type_name(type));
  if (type == DataType::F64)
    if (auto dmma = plan_dmma(device, m, n, k, o, batch)) return *dmma;
  if (type == DataType::F32 && (o.math != Math::Fp32 || o.force_path == GemmPath::Tensor)) {
    if (auto tensor = plan_tensor(device, m, n, k, o)) return *tensor;
    GemmOptions fp32 = o;
    fp32.math = Math::Fp32;
    GemmPlan plan = plan_uncached(device, m, n, k, fp32, type, allow_tall, batch);
    plan.reason += std::string("; float32 arithmetic although ") + math_name(o.math) + " was asked for: " +
                   (!tensor_path_available(device) ? "the device has no tensor path (an NVIDIA GPU, sm_80 or newer)"
                    : o.force_path != GemmPath::Auto || !o.force_params.empty()
                        ? "another path or its parameters were forced"
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
                                                                   : edges_apart_pay(device, m, n, k, tile_m, tile_n);
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
  const bool tiny = o.force_path == GemmPath::Tiny ||
                    (o.force_path == GemmPath::Auto && o.force_params.empty() && detail::tiny_pays(m, n, k, batch));
  if (tiny) {
    plan.path = GemmPath::Tiny;
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
  const bool tall = o.force_path == GemmPath::Tall || (o.force_path == GemmPath::Auto && o.force_params.empty() &&
                                                       allow_tall && detail::tall_pays(device, m, n, k));
  if (tall) {
    plan.path = GemmPath::Tall;
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
  if (batch > 1) found = find_entry(device, "batched", false, type);
  if (found) cls = "batched";
  else found = find_entry(device, cls, false, type);
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
      const bool auto_split = splits_k(desc) && o.force_splits == 0;
      const Choice chosen = choose_among(found->entry, device, desc, {m, n, k, cls == "batched" ? batch : 1}, auto_split);
      plan.params = detail::resolve_params(desc, device, chosen.params);
      plan.batched = cls == "batched";
      plan.source = found->origin + ", " + cls + " shapes" + chosen.note;
      const detail::SplitK split = auto_split ? chosen.split : forced_split(desc, plan.params, device, m, n, k, o);
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
  detail::SplitK split = forced_split(desc, plan.params, device, m, n, k, o);
  if (splits_k(desc) && o.force_splits == 0) {
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
