// tensor_plans.cpp — the plans of the tensor-core paths: xmma (TF32 and 3xTF32 on mma.sync), dmma
// (double on the FP64 tensor cores) and wgmma (Hopper), where each pays or is forced.
#include "plan/tensor_plans.hpp"

#include <clgemm/error.hpp>

#include "database/database.hpp"
#include "plan/edge_split.hpp"
#include "plan/entry_choice.hpp"
#include "plan/path_choice.hpp"
#include "plan/tile_choice.hpp"
#include "kernels/gemm/dmma/dmma_kernel.hpp"
#include "kernels/gemm/wgmma/wgmma_kernel.hpp"
#include "kernels/gemm/wgmma/wgmma_short_rows.hpp"
#include "kernels/gemm/wgmma/wgmma_split.hpp"
#include "kernels/gemm/xgemm/xgemm_kernel.hpp"
#include "kernels/gemm/xmma/xmma_kernel.hpp"

#include <algorithm>
#include <sstream>

namespace clgemm::detail {

namespace {

// Where the tensor path starts (tensor_pays).
constexpr size_t kTensorMinSide = 1024;
constexpr double kTensorMinWork = 2048.0 * 2048 * 2048;
constexpr double kTensorMinWaveUse = 0.8;
// Multiply-adds from which a batch of small f64 items takes the dmma kernel: in
// all, and in each item (H100, `force_probe f64`: 32³ items ran 5.1 TFLOP/s there against 5.9 on
// the SIMT kernels at 4096 of them; 64³ items 12.3 against 8.6 at 4096, 7.8 against 5.6 at 256).
constexpr double kBatchInPlace = 67108864.0;  // 2^26
constexpr double kItemInPlace = 64.0 * 64 * 64;

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

// The seconds the load-balance model predicts for the float32 path's tuned packed kernel at this
// shape (0 without a tuned xgemm entry, or one that does not fit the device). Where the float32
// plan would run the ragged edges apart (plan_elsewhere in planner.cpp), the interior's
// prediction scaled up to the whole of C: the strips at the interior's rate, which flatters the
// float32 path a little (2064³ on the H200: 0.38 ms predicted, 0.415 measured). Without it the
// prediction was the padded tiles', and with the entries `clgemm tune` made on an H100 the tensor
// path won 2064³ on paper and lost it by 12 % (0.88×).
double float32_prediction(const DeviceInfo& device, size_t m, size_t n, size_t k) {
  const auto& desc = xgemm_descriptor();
  const auto predict = [&](size_t pm, size_t pn) -> std::pair<double, KernelParams> {
    const auto found = find_entry(device, shape_class(device.kind, pm, pn, k));
    if (!found || found->entry.kernel != "xgemm") return {0, {}};
    const Choice c = choose_among(found->entry, device, desc, {pm, pn, k}, true);
    return {c.seconds, resolve_params(desc, device, c.params)};
  };
  try {
    const auto [seconds, params] = predict(m, n);
    if (seconds <= 0) return 0;
    const size_t tm = size_t(p(params, "MWG")), tn = size_t(p(params, "NWG"));
    if (!edges_apart_pay(device, m, n, k, tm, tn)) return seconds;
    const Interior in = interior_of(m, n, tm, tn);
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

}  // namespace

const char* math_name(Math math) {
  return math == Math::Tf32x3 ? "3xTF32" : math == Math::Tf32 ? "TF32" : "FP32";
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
  if (!forced && (!chooses_freely(o) || !tensor_path_available(device) ||
                  !tensor_pays(m, n, k)))
    return std::nullopt;
  // Accuracy, not speed, sets FK and TERMS (xmma_kernel.cpp): whatever an entry holds, the math
  // asked for decides. TF32's own rounding dwarfs what the MMA's truncating sums add: no float32
  // adds (FK = 0); 3xTF32 adds after every k8 step (FK = 1).
  const GemmKernelDescriptor& desc = xmma_descriptor();
  const auto resolved = [&](KernelParams ps) {
    ps["TERMS"] = terms_of(o.math);
    if (!o.force_params.count("FK")) ps["FK"] = o.math == Math::Tf32 ? 0 : 1;
    return resolve_params(desc, device, ps);
  };
  // The tiles: the caller's; else a tuned entry's (its configuration or an alternative, whichever
  // the load-balance model predicts fastest here; tuned with 3xTF32, used for TF32 too), where it
  // fits this device; else the rule measured by hand on the H200.
  GemmPlan plan;
  plan.path = GemmPath::Tensor;
  plan.kernel = xmma_descriptor().info.id;
  double predicted = 0;  // seconds, from a tuned entry's measurements
  if (!o.force_params.empty()) {
    plan.params = resolved(o.force_params);
    plan.source = "the caller's overrides of the tensor kernel's defaults";
  } else {
    plan.params = resolved(xmma_tiles(device, m, n));
    plan.source = "the tensor kernel's defaults (measured on the H200)";
    if (const auto found = find_entry(device, shape_class(device.kind, m, n, k), true, DataType::F32, "xmma")) {
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
// multiply-adds with no side under 64, on batches of at least 2^31 of items from 256³ (H100,
// `force_probe f64`, TFLOP/s: 256 × 256³ 19.6 in 64×64 tiles against 17.1 on the SIMT kernels in
// one run, 28.6 in 128×64 tiles against 24.4 in 64×64 ones in another), and on batches of
// kBatchInPlace multiply-adds or more of items of at least kItemInPlace and K from 32, in tiles
// that fit them (dmma_batch_tiles). It reads every operand in place (tile_launch.cpp). Other calls
// keep the SIMT kernels and their tuned entries.
std::optional<GemmPlan> plan_dmma(const DeviceInfo& device, size_t m, size_t n, size_t k, const GemmOptions& o,
                                  size_t batch) {
  const bool forced = o.force_path == GemmPath::Tensor;
  if (forced && !tensor_path_available(device))
    throw Error(Status::InvalidArgument, "the tensor path needs an NVIDIA GPU of compute capability 8.0 or newer; " +
                                             device.name + " has none");
  const double item = double(m) * double(n) * double(k);
  const bool large = m >= 64 && n >= 64 && k >= 64 &&
                     (item >= 512.0 * 512 * 512 || (item >= 256.0 * 256 * 256 && item * double(batch) >= 2147483648.0));
  const bool small_items =
      !large && batch > 1 && k >= 32 && item >= kItemInPlace && item * double(batch) >= kBatchInPlace;
  if (!forced && (!chooses_freely(o) || !tensor_path_available(device) ||
                  !(large || small_items)))
    return std::nullopt;
  KernelParams ps = !o.force_params.empty() ? o.force_params
                    : small_items           ? dmma_batch_tiles(device, m, n, k)
                                            : dmma_tiles(device, m, n, batch);
  ps["PRECISION"] = 64;
  GemmPlan plan;
  plan.path = GemmPath::Tensor;
  plan.kernel = dmma_descriptor().info.id;
  plan.params = resolve_params(dmma_descriptor(), device, ps);
  plan.source = !o.force_params.empty() ? "the caller's overrides of the dmma kernel's defaults"
                : small_items           ? "the dmma kernel's tiles for batches of small items"
                                        : "the dmma kernel's defaults";
  // A tuned entry (`clgemm tune --tensor --precision f64`): the rule for fewer tiles than compute
  // units beats tiles tuned at 2048³ or 4096³ where it applies.
  if (o.force_params.empty() && !small_items)
    take_tensor_entry(plan, device, dmma_descriptor(), DataType::F64, {m, n, k}, {{"PRECISION", 64}});
  plan.reason = forced        ? "path forced by the caller"
                : small_items ? "a batch of small double items, read in place by the FP64 tensor cores"
                              : "double on the FP64 tensor cores (mma.sync f64)";
  return plan;
}

// The wgmma path's plan, or nothing where the planner goes on to the other paths: for the
// arithmetic wgmma computes (wgmma_arithmetic), on a device whose driver builds the patched
// program, at shapes where it pays.
std::optional<GemmPlan> plan_wgmma(const DeviceInfo& device, size_t m, size_t n, size_t k, const GemmOptions& o,
                                   DataType type, size_t batch) {
  const bool forced = o.force_path == GemmPath::Wgmma;
  const bool arithmetic = wgmma_arithmetic(type, o.math);
  if (forced && !arithmetic)
    throw Error(Status::InvalidArgument, std::string("the wgmma path multiplies f16 or bf16 operands, or f32 ones with "
                                                     "GemmOptions::math Tf32 or Tf32x3; these are ") +
                                             data_type_name(type) + " with " + math_name(o.math));
  if (forced && !device.sm90a_patching)
    throw Error(Status::InvalidArgument,
                "the wgmma path needs an NVIDIA GPU of compute capability 9.0 whose driver builds PTX patched for "
                "sm_90a; " + device.name + (wgmma_architecture(device) ? " did not build it" : " is not one"));
  const bool three = type == DataType::F32 && o.math == Math::Tf32x3;
  const bool short_rows = !forced && wgmma_short_rows_pay(m, n, k, type, batch);
  if (!forced && (!chooses_freely(o) || !arithmetic ||
                  !device.sm90a_patching || !(wgmma_pays(m, n, k) || short_rows) ||
                  (three && !wgmma_three_terms_pay(device, m, n, k, batch))))
    return std::nullopt;
  GemmPlan plan;
  plan.path = GemmPath::Wgmma;
  plan.kernel = wgmma_descriptor().info.id;
  // The arithmetic asked for sets TERMS, whatever the caller forces. 3xTF32's lo buffers leave
  // the defaults' slices no room, so what a caller forces overrides its own defaults.
  KernelParams ps = short_rows ? wgmma_short_rows_tiles(m)
                   : o.force_params.empty() || three ? wgmma_tiles(device, m, n, k, batch, type, o.math)
                                                     : KernelParams{};
  for (const auto& [name, value] : o.force_params) ps[name] = value;
  ps["TERMS"] = three ? 3 : 1;
  plan.params = resolve_params(wgmma_descriptor(), device, ps);
  plan.source = o.force_params.empty() ? "the wgmma kernel's defaults (measured on an H100)"
                                       : "the caller's overrides of the wgmma kernel's defaults";
  // A tuned entry (`clgemm tune --tensor`): the rules above beat tiles tuned for 2048³ or 4096³
  // where those leave SMs idle. 3xTF32 keeps its rule (its lo buffers take the local memory a tuned
  // slice would), and so do batches of the items the batched class serves (plan_gemm plans larger
  // ones as single products).
  if (o.force_params.empty() && !three && batch <= 1 && !short_rows)
    take_tensor_entry(plan, device, wgmma_descriptor(), type, {m, n, k}, {{"TERMS", 1}});
  if (short_rows) plan.source = "the wgmma kernel's tiles for a few rows against large weights (wgmma_short_rows)";
  // Split-K of a last round of tiles that would leave most SMs idle, for single products (the
  // warp-specialised schedule has none).
  if (batch <= 1 && !wgmma_warp_specialised(plan.params)) {
    const size_t splits = short_rows && o.force_splits == 0 ? wgmma_short_rows_splits(device, m, n, k) : o.force_splits;
    const WgmmaSplit split = wgmma_split(device, m, n, k, type, plan.params, splits, o.force_split_tiles);
    plan.splits = split.splits, plan.split_tiles = split.split_tiles;
  }
  plan.reason = forced ? "path forced by the caller"
                       : std::string(type == DataType::F32 ? math_name(o.math) : data_type_name(type)) +
                             " products on Hopper's tensor cores (wgmma, PTX patched for sm_90a)" +
                             (short_rows ? "; a few rows against large weights: " + std::to_string(wgmma_short_rows_tiles(m).at("BM")) +
                                               "-row tiles, B read once"
                                         : "");
  return plan;
}

// Why a call whose arithmetic wgmma computes runs elsewhere on an sm_90 device ("" where it does
// not matter: another device, or a shape or force that rules the path out anyway).
std::string wgmma_refused(const DeviceInfo& device, size_t m, size_t n, size_t k, const GemmOptions& o, DataType type) {
  if (device.sm90a_patching || !wgmma_architecture(device) || !wgmma_arithmetic(type, o.math) ||
      !chooses_freely(o) || !wgmma_pays(m, n, k))
    return "";
  return "; not the wgmma path: the driver did not build PTX patched for sm_90a (or the device was described "
         "without trying: clgemm::planning_device)";
}

}  // namespace clgemm::detail
