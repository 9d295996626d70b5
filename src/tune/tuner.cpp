// tuner.cpp — staged random sampling plus local refinement over a kernel's parameter space.
#include "tune/tuner.hpp"

#include <clgemm/error.hpp>
#include <clgemm/gemm.hpp>

#include "kernels/descriptor.hpp"
#include "kernels/gemm/tunable_kernels.hpp"
#include "kernels/precision.hpp"
#include "plan/tile_choice.hpp"
#include "tune/candidate_clock.hpp"
#include "tune/param_space.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <random>
#include <set>

namespace clgemm::detail {

namespace {

using Clock = std::chrono::steady_clock;

bool has_param(const GemmKernelDescriptor& d, const std::string& name) {
  return std::any_of(d.params.begin(), d.params.end(), [&](const ParamSpec& spec) { return spec.name == name; });
}

// PRECISION for `precision` where the kernel has the parameter: 32 for f32, f16 and bf16 (whose
// operands the kernels widen to float32), 64 for f64.
KernelParams precision_of(const GemmKernelDescriptor& d, DataType precision) {
  if (!has_param(d, "PRECISION")) return {};
  return {{"PRECISION", precision_bits(precision)}};
}

std::string today() {
  const std::time_t t = std::time(nullptr);
  char buf[16];
  std::strftime(buf, sizeof buf, "%Y-%m-%d", std::gmtime(&t));
  return buf;
}

// The operands of the family's kernel: any type for xgemm and direct; f32 for xmma; f16, bf16 or
// f32 (as TF32) for wgmma; f64 for dmma.
void check_kernel_precision(const GemmKernelDescriptor& d, DataType precision) {
  const KernelFamily& family = tunable_family(d.info.id);
  if (!family.multiplies(precision))
    throw Error(Status::InvalidArgument, "the " + family.id + " kernel multiplies " + family.operands +
                                             " operands, not " + data_type_name(precision));
}

// --try's split: absent or 1 none, 0 the model's choice, S >= 2 the last partial wave in S parts
// (or exactly the last `split_tiles` tiles, when given).
SplitK choose_split(const GemmKernelDescriptor& d, const KernelParams& full, const GemmShape& s, long splits,
                    long split_tiles, size_t units) {
  if (splits == 1 || splits < 0 || !d.tile) return {};
  const TileCandidate c = candidate_of(d, full, 1.0, s);
  if (splits == 0) return best_split(c, s, units);
  return requested_split(c, s, units, size_t(splits), size_t(std::max(0L, split_tiles)));
}

}  // namespace

std::vector<TuneTarget> default_targets(const DeviceInfo& dev, double total, const std::vector<std::string>& classes,
                                        bool tensor, DataType precision) {
  // Shapes big enough to be typical of their class, small enough to measure quickly; CPUs get
  // smaller ones (a 4096³ product takes seconds on two cores).
  const bool cpu = dev.kind == DeviceKind::CPU;
  const size_t large = cpu ? 1024 : 4096, mid = cpu ? 768 : 2048, medium = cpu ? 512 : 1024, small = cpu ? 128 : 256,
               wide = cpu ? 1024 : 4096;
  struct Share {
    std::string cls;
    GemmShape shape;
    std::string kernel;
    double weight;
  };
  // The tensor path runs only calls of at least 2048³ (tensor_plans.cpp, tensor_pays): the mid and
  // large classes, on their GPU shapes: dmma for f64; on a Hopper card whose driver builds
  // patched PTX, the wgmma kernel (for f16, bf16 and TF32: the planner's rules serve the other
  // classes and 3xTF32); else xmma.
  const std::string tensor_kernel = precision == DataType::F64 ? "dmma" : dev.sm90a_patching ? "wgmma" : "xmma";
  const std::vector<Share> tensor_shares = {{"large", {4096, 4096, 4096}, tensor_kernel, 0.6},
                                            {"mid", {2048, 2048, 2048}, tensor_kernel, 0.4}};
  const std::vector<Share> float32_shares = {
      {"large", {large, large, large}, "xgemm", 0.25},   {"mid", {mid, mid, mid}, "xgemm", 0.15},
      {"medium", {medium, medium, medium}, "xgemm", 0.15},
      {"medium", {medium, medium, medium}, "direct", 0.05}, {"small", {small, small, small}, "direct", 0.10},
      {"small", {small, small, small}, "xgemm", 0.05},   {"skinny", {16, wide, wide}, "direct", 0.15},
      {"skinny", {16, wide, wide}, "xgemm", 0.10},
      // Strided batches: items of 128³ (GPUs) or 64³ (CPUs), enough of them to fill the device
      // several times over.
      {"batched", cpu ? GemmShape{64, 64, 64, 256} : GemmShape{128, 128, 128, 1024}, "xgemm", 0.10},
      {"batched", cpu ? GemmShape{64, 64, 64, 256} : GemmShape{128, 128, 128, 1024}, "direct", 0.05},
  };
  const std::vector<Share>& shares = tensor ? tensor_shares : float32_shares;
  double weight = 0;
  for (const auto& s : shares)
    if (classes.empty() || std::find(classes.begin(), classes.end(), s.cls) != classes.end()) weight += s.weight;
  std::vector<TuneTarget> out;
  for (const auto& s : shares)
    if (classes.empty() || std::find(classes.begin(), classes.end(), s.cls) != classes.end())
      out.push_back({s.cls, s.shape, s.kernel, total * s.weight / weight});
  return out;
}

std::optional<KernelParams> tensor_rule_params(const GemmKernelDescriptor& d, const DeviceInfo& device,
                                               const GemmShape& shape, DataType precision) {
  const KernelFamily* family = find_tunable_family(d.info.id);
  if (!family || !family->rule_tiles) return std::nullopt;
  const KernelParams rule = family->rule_tiles(device, shape, precision);
  try {
    return resolve_params(d, device, with_fixed(rule, precision_fixed_params(d, precision)));
  } catch (const Error&) {
    return std::nullopt;
  }
}

KernelParams precision_fixed_params(const GemmKernelDescriptor& d, DataType precision) {
  return precision_of(d, precision);
}

void check_tuning_precision(const DeviceInfo& device, DataType precision) {
  if (int(precision) < int(DataType::F32) || int(precision) > int(DataType::BF16))
    throw Error(Status::InvalidArgument, "precision is " + std::to_string(int(precision)) +
                                             "; it must be f32, f64, f16 or bf16 (clgemm::DataType 0-3)");
  if (precision == DataType::F64 && !device.fp64)
    throw Error(Status::NoFp64, "tuning f64 needs double precision, which " + device.name +
                                    " does not offer (no cl_khr_fp64)");
}

Tuner::Tuner(const Context& ctx, uint64_t seed, DataType precision, const DeviceInfo* planning)
    : ctx_(ctx), device_(planning ? *planning : planning_device(ctx.info())), seed_(seed), precision_(precision) {
  check_tuning_precision(ctx.info(), precision);
}

TuneResult Tuner::tune(const TuneTarget& target, const std::function<void(const TuneProgress&)>& progress) {
  const auto t0 = Clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - t0).count(); };
  const GemmKernelDescriptor& d = tunable_descriptor(target.kernel);
  check_kernel_precision(d, precision_);
  const DeviceInfo& dev = device_;
  const GemmShape s = target.shape;
  const KernelParams fixed = precision_fixed_params(d, precision_);
  std::mt19937_64 rng(seed_ ^ std::hash<std::string>{}(target.shape_class + target.kernel));

  CandidateBench bench(ctx_, device_, s, precision_, rng);
  TuneResult result;
  result.target = target;
  std::set<std::string> seen;
  std::vector<std::pair<double, KernelParams>> ranked;  // (gflops, params) of correct candidates
  TuneProgress prog;
  prog.target = &target;
  CandidateClock clock;

  // Measures one configuration not measured before: GFLOP/s, 0 on failure, -1 if seen already.
  auto evaluate = [&](const KernelParams& ps) -> double {
    if (!seen.insert(build_options(ps)).second) return -1;
    ++result.tried;
    const auto started = Clock::now();
    const Measurement m = bench.run(target.kernel, ps);
    clock.record(std::chrono::duration<double>(Clock::now() - started).count());
    if (m.outcome != Measurement::Ok) {
      (m.outcome == Measurement::BuildFailed ? result.build_failures
       : m.outcome == Measurement::Wrong     ? result.wrong
                                              : result.launch_failures)++;
      if (result.failure_notes.size() < 5) result.failure_notes.push_back(build_options(ps) + ": " + m.note);
      return 0;
    }
    ranked.push_back({m.gflops, ps});
    if (m.gflops > result.best_gflops) {
      result.best_gflops = m.gflops;
      result.best = ps;
      result.found = true;
    }
    return m.gflops;
  };
  auto report = [&](const std::string& stage) {
    if (!progress) return;
    prog.stage = stage;
    prog.tried = result.tried;
    prog.failed = result.build_failures + result.launch_failures;
    prog.wrong = result.wrong;
    prog.best_gflops = result.best_gflops;
    prog.elapsed_s = elapsed();
    progress(prog);
  };

  // A candidate costs a build (seconds on some CPU compilers) plus its runs; do not start one that
  // would likely end past the budget (CandidateClock).
  auto time_for_another = [&](double limit) { return clock.room_for_another(elapsed(), limit); };

  // 1. The defaults: always measured, so even a tiny budget yields a valid entry (where this
  // precision cannot run them, a random valid configuration stands in); then, while the budget
  // lasts, the defaults fitted to the shape and the project's measured configurations.
  report("defaults");
  try {
    result.default_gflops = std::max(0.0, evaluate(resolve_params(d, dev, fixed)));
  } catch (const Error& e) {
    result.failure_notes.push_back(std::string("the defaults at ") + data_type_name(precision_) + ": " + e.what());
    if (const auto stand_in = random_valid(d, dev, s, fixed, rng)) evaluate(*stand_in);
  }
  // The tensor kernels' rule, which the planner runs without an entry, measured as the defaults
  // are, whatever the budget: a stored entry is then at least as fast (the dmma kernel's defaults
  // are m8n8k4 tiles of 27 TFLOP/s at 4096³ on an H100, its rule's tiles 38).
  if (const auto rule = tensor_rule_params(d, dev, s, precision_)) result.rule_gflops = std::max(0.0, evaluate(*rule));
  if (const auto fitted = fitted_defaults(d, dev, s, fixed); fitted && time_for_another(target.budget_s))
    evaluate(*fitted);
  // The seeds keep their own values: one that this precision cannot run (f64 tiles whose stages
  // outgrow local memory) is skipped rather than turned into a configuration nobody measured.
  for (const auto& seed : d.seeds) {  // where they apply
    try {
      const KernelParams ps = resolve_params(d, dev, with_fixed(seed, precision_of(d, precision_)));
      if (fits_shape(d, ps, s) && time_for_another(target.budget_s)) evaluate(ps);
    } catch (const Error&) {
    }
  }
  report("defaults");

  // 2. Random valid configurations for about half the budget, or until the draws keep landing on
  // measured ones: a small space (the tensor kernel has 91 valid configurations on the H200) is
  // then all measured, and drawing on would only idle away the rest of this half.
  constexpr int kRepeatsInARow = 2000;
  for (int repeats = 0; repeats < kRepeatsInARow && time_for_another(0.5 * target.budget_s);) {
    const auto ps = random_valid(d, dev, s, fixed, rng);
    if (!ps) break;
    if (evaluate(*ps) < 0) {
      ++repeats;
      continue;
    }
    repeats = 0;
    report("random");
  }

  // 3. Local refinement from the best, then from the next-best starting points.
  std::sort(ranked.begin(), ranked.end(), [](const auto& x, const auto& y) { return x.first > y.first; });
  std::vector<KernelParams> starts;
  for (size_t i = 0; i < ranked.size() && i < 4; ++i) starts.push_back(ranked[i].second);
  for (size_t si = 0; si < starts.size() && time_for_another(target.budget_s); ++si) {
    KernelParams current = starts[si];
    double current_gflops = 0;
    for (const auto& [gf, ps] : ranked)
      if (ps == current) current_gflops = std::max(current_gflops, gf);
    bool improved = true;
    while (improved && time_for_another(target.budget_s)) {
      improved = false;
      auto around = neighbours(d, dev, current, s, fixed);
      std::shuffle(around.begin(), around.end(), rng);
      for (const auto& n : around) {
        if (!time_for_another(target.budget_s)) break;
        const double gf = evaluate(n);
        report("refine");
        if (gf > current_gflops * 1.01) {  // move only on a gain larger than timing noise
          current = n;
          current_gflops = gf;
          improved = true;
          break;
        }
      }
    }
  }
  // Runners-up: the best of every other tile shape.
  std::sort(ranked.begin(), ranked.end(), [](const auto& x, const auto& y) { return x.first > y.first; });
  std::set<std::pair<size_t, size_t>> tiles;
  if (result.found && d.tile) tiles.insert(d.tile(result.best));
  for (const auto& [gf, ps] : ranked) {
    if (!d.tile || result.runners_up.size() >= 4) break;
    if (tiles.insert(d.tile(ps)).second) result.runners_up.push_back({gf, ps});
  }
  result.elapsed_s = elapsed();
  report("done");
  return result;
}

std::vector<Measurement> Tuner::measure(const GemmShape& shape, const std::string& kernel,
                                        const std::vector<KernelParams>& configs,
                                        const std::function<void(size_t done)>& progress, double budget_s) {
  const auto t0 = Clock::now();
  const GemmKernelDescriptor& d = tunable_descriptor(kernel);
  check_kernel_precision(d, precision_);
  const KernelParams precision = precision_of(d, precision_);
  std::mt19937_64 rng(seed_);
  CandidateBench bench(ctx_, device_, shape, precision_, rng);
  std::vector<Measurement> out;
  CandidateClock clock;
  for (const auto& given : configs) {
    const auto started = Clock::now();
    if (budget_s > 0 && !out.empty() &&
        !clock.room_for_another(std::chrono::duration<double>(started - t0).count(), budget_s))
      break;
    Measurement m;
    m.params = given;
    try {
      // SPLIT, SPLIT_TILES and SK are not kernel parameters: they choose split-K for xgemm (SK:
      // GemmPlan::sk_groups); PACKB = 1 copies a B that is not aligned to VWN first
      // (GemmPlan::pack_b).
      KernelParams kernel_params = given;
      const auto host_choice = [&](const char* name) {
        const auto it = kernel_params.find(name);
        if (it == kernel_params.end()) return -1L;
        const long v = it->second;
        kernel_params.erase(it);
        if (v < 0 || kernel != "xgemm") throw Error(Status::InvalidArgument, std::string(name) + " must be >= 0, xgemm only");
        return v;
      };
      const long splits = host_choice("SPLIT"), split_tiles = host_choice("SPLIT_TILES"), pack_b = host_choice("PACKB"),
                 sk_groups = host_choice("SK");
      // PRECISION follows the operands measured: a configuration naming another one is refused
      // rather than run with operands of a size its kernel does not read.
      for (const auto& [name, value] : precision)
        if (kernel_params.count(name) && kernel_params.at(name) != value)
          throw Error(Status::InvalidArgument, name + "=" + std::to_string(kernel_params.at(name)) +
                                                   " does not match the " + data_type_name(precision_) +
                                                   " operands measured (" + name + "=" + std::to_string(value) + ")");
      const KernelParams full = resolve_params(d, device_, with_fixed(kernel_params, precision));
      SplitK split = choose_split(d, full, shape, splits, split_tiles, device_.compute_units);
      if (sk_groups > 0) split.sk_groups = size_t(sk_groups);
      m = bench.run(kernel, full, split, pack_b > 0);
      if (pack_b >= 0) m.params["PACKB"] = pack_b > 0 ? 1 : 0;
      if (splits >= 0) m.params["SPLIT"] = long(split.splits), m.params["SPLIT_TILES"] = long(split.split_tiles);
      if (split.sk_groups > 0) m.params["SK"] = long(split.sk_groups);
    } catch (const Error& e) {  // a configuration the descriptor or the device rejects
      m.outcome = Measurement::Rejected;
      m.note = e.what();
    }
    out.push_back(m);
    clock.record(std::chrono::duration<double>(Clock::now() - started).count());
    if (progress) progress(out.size());
  }
  return out;
}

TuningEntry entry_for(const DeviceInfo& dev, const TuneResult& r, DataType precision) {
  TuningEntry e;
  e.precision = precision;
  e.device = dev.name;
  e.architecture = dev.architecture;
  e.vendor = dev.vendor;
  e.device_type = dev.kind_name();
  e.shape_class = r.target.shape_class;
  e.kernel = r.target.kernel;
  e.params = r.best;
  e.shape = r.target.shape;
  e.gflops = r.best_gflops;
  e.date = today();
  for (const auto& [gf, ps] : r.runners_up) e.alternatives.push_back({ps, gf, {}});
  return e;
}

}  // namespace clgemm::detail
