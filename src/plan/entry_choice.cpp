// entry_choice.cpp — the tuning database's entries as the planner reads them: valid ones only, a
// class's own or a neighbour's, and the configuration the load-balance model predicts fastest.
#include "plan/entry_choice.hpp"

#include <clgemm/error.hpp>

#include "database/database.hpp"
#include "kernels/gemm/tunable_kernels.hpp"
#include "kernels/precision.hpp"
#include "runtime/warnings.hpp"

#include <algorithm>

namespace clgemm::detail {

namespace {

// Whether a tuning entry's parameters are valid for its kernel on any device (a hand-edited or
// damaged database can hold a tile of 0 or a negative depth). An invalid entry is passed over
// with a warning, so that the lookup goes on to the next one; an invalid alternative is dropped.
bool entry_is_valid(const TuningEntry& e) {
  const auto& desc = tunable_descriptor(e.kernel);
  try {
    check_param_values(desc, e.params);
    return true;
  } catch (const Error& err) {
    warn_once("skipping the tuning entry for " + e.device + ", " + e.shape_class + " shapes: " + err.what());
    return false;
  }
}

void drop_invalid_alternatives(TuningEntry& e) {
  const auto& desc = tunable_descriptor(e.kernel);
  auto& alts = e.alternatives;
  alts.erase(std::remove_if(alts.begin(), alts.end(),
                            [&](const TuningAlternative& a) {
                              try {
                                check_param_values(desc, a.params);
                                return false;
                              } catch (const Error& err) {
                                warn_once("dropping an alternative of the tuning entry for " + e.device + ", " +
                                                  e.shape_class + " shapes: " + err.what());
                                return true;
                              }
                            }),
             alts.end());
}

}  // namespace

std::optional<FoundEntry> find_entry(const DeviceInfo& device, const std::string& cls, bool tensor, DataType type,
                                     const std::string& kernel, bool borrow) {
  const auto usable = [&](const TuningEntry& e) {
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
  if (borrow && !stored_as_computed(type)) types.push_back(compute_type(type));
  for (const DataType t : types)
    for (const auto& c : order)
      if (auto found = find_tuning(device, c, tensor, usable, t)) {
        if (c != cls) found->origin += " (borrowed by " + cls + ")";
        if (t != type) found->origin += std::string(" (") + data_type_name(t) + ", borrowed by " + data_type_name(type) + ")";
        drop_invalid_alternatives(found->entry);
        if (!tensor) {
          found->entry.params["PRECISION"] = precision_bits(type);
          for (auto& a : found->entry.alternatives) a.params["PRECISION"] = precision_bits(type);
        }
        return found;
      }
  return std::nullopt;
}

Choice choose_among(const TuningEntry& e, const DeviceInfo& device, const GemmKernelDescriptor& desc,
                    const GemmShape& call, bool allow_split) {
  if (!desc.tile || e.shape.m == 0) return {e.params, "", {}};
  std::vector<KernelParams> params;  // the candidates that fit this device, in entry order
  std::vector<size_t> numbers;       // 0 for the entry, i for its alternative i
  std::vector<TileCandidate> cands;
  // Each configuration is predicted from its measurement nearest this call: the entry's shape,
  // or one of its points.
  auto add = [&](const KernelParams& ps, double gflops, const std::vector<TuningPoint>& points, size_t number) {
    try {
      const KernelParams full = resolve_params(desc, device, ps);
      std::vector<TileCandidate> measured{candidate_of(desc, full, gflops, e.shape, device)};
      for (const auto& p : points) measured.push_back(candidate_of(desc, full, p.gflops, p.shape, device));
      cands.push_back(nearest_measurement(measured, call, device.compute_units));
      params.push_back(ps);
      numbers.push_back(number);
    } catch (const Error&) {  // does not fit this device: not a candidate
    }
  };
  add(e.params, e.gflops, e.points, 0);
  for (size_t a = 0; a < e.alternatives.size(); ++a)
    add(e.alternatives[a].params, e.alternatives[a].gflops, e.alternatives[a].points, a + 1);
  if (cands.empty()) return {e.params, "", {}};
  const TilePick pick = pick_tile(cands, call, device.compute_units, allow_split);
  const TileCandidate& c = cands[pick.index];
  std::string note;
  if (numbers[pick.index] > 0)
    note = "; alternative " + std::to_string(numbers[pick.index]) + " of the entry (" + std::to_string(c.tile_m) + "x" +
           std::to_string(c.tile_n) + " tiles, predicted faster here)";
  if (c.tuned.m != e.shape.m || c.tuned.n != e.shape.n || c.tuned.k != e.shape.k || c.tuned.batch != e.shape.batch)
    note += "; predicted from its measurement at " + shape_text(c.tuned);
  return {params[pick.index], note, pick.split, pick.seconds};
}

bool splits_k(const GemmKernelDescriptor& desc) {
  const KernelFamily* f = find_tunable_family(desc.info.id);
  return f && f->splits_k;
}

SplitK forced_split(const GemmKernelDescriptor& desc, const KernelParams& full, const DeviceInfo& device, size_t m,
                    size_t n, size_t k, const GemmOptions& o) {
  if (!splits_k(desc) || o.force_splits <= 1) return {};
  return requested_split(candidate_of(desc, full, 1.0, {m, n, k}), {m, n, k}, device.compute_units, o.force_splits,
                         o.force_split_tiles);
}

void take_tensor_entry(GemmPlan& plan, const DeviceInfo& device, const GemmKernelDescriptor& desc,
                       DataType type, const GemmShape& call, const KernelParams& fixed) {
  const auto found =
      find_entry(device, shape_class(device.kind, call.m, call.n, call.k), true, type, desc.info.id, false);
  if (!found) return;
  const Choice c = choose_among(found->entry, device, desc, call, false);
  KernelParams tuned = c.params;
  for (const auto& [name, value] : fixed) tuned[name] = value;
  try {
    plan.params = resolve_params(desc, device, tuned);
    plan.source = found->origin + c.note;
  } catch (const Error&) {  // tuned for another device: keep the rules
  }
}

}  // namespace clgemm::detail
