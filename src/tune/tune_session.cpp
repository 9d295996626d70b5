// tune_session.cpp — a whole tuning session on one device (clgemm/tune.hpp, tune_device): the
// budget split over targets, the best target per class, its points, the database saved.
#include <clgemm/error.hpp>
#include <clgemm/gemm.hpp>
#include <clgemm/tune.hpp>

#include "database/database.hpp"
#include "runtime/warnings.hpp"
#include "tune/tuner.hpp"
#include "tune/tuning_points.hpp"

#include <algorithm>
#include <chrono>
#include <map>

namespace clgemm {

namespace {

// The share of the budget kept for measuring the kept configurations on a second shape.
constexpr double kPointsShare = 0.1;

// Every check of a request, before any work: a session that fails after minutes of measuring
// for a reason known at the start wastes them.
// `device` is the context's as gemm() plans for it (planning_device: whether wgmma builds).
std::string checked_database_path(const Context& ctx, const DeviceInfo& device, const TuningRequest& r) {
  if (!(r.budget_s > 0)) throw Error(Status::InvalidArgument, "the tuning budget must be a positive number of seconds");
  const auto& known = detail::shape_classes();
  for (const auto& c : r.classes)
    if (std::find(known.begin(), known.end(), c) == known.end())
      throw Error(Status::InvalidArgument,
                  "unknown shape class '" + c + "'; the classes are small, medium, mid, large, skinny, batched");
  detail::check_tuning_precision(ctx.info(), r.precision);
  if (r.tensor) {
    for (const auto& c : r.classes)
      if (c != "mid" && c != "large")
        throw Error(Status::InvalidArgument,
                    "tuning the tensor path covers the classes it serves, mid and large; not '" + c + "'");
    // f32 and f64 have tensor kernels on every sm_80+ GPU (xmma or wgmma, dmma); f16 and bf16 only
    // Hopper's wgmma.
    if ((r.precision == DataType::F16 || r.precision == DataType::BF16) && !device.sm90a_patching)
      throw Error(Status::InvalidArgument,
                  std::string("tuning the tensor path takes f32 or f64 operands, and f16 or bf16 ones on a Hopper "
                              "card that builds wgmma; not ") + data_type_name(r.precision) + " on " + ctx.info().name);
    if (!tensor_path_available(ctx.info()))
      throw Error(Status::InvalidArgument, "tuning the tensor path needs an NVIDIA GPU, sm_80 or newer; " +
                                               ctx.info().name + " has none");
  }
  const std::string path = r.database.empty() ? detail::user_database_path() : r.database;
  if (path.empty())
    throw Error(Status::InvalidArgument, "no cache folder for the tuning database: name a database file");
  return path;
}

TuningTargetReport target_report(const detail::TuneResult& r) {
  TuningTargetReport t;
  t.shape_class = r.target.shape_class;
  t.shape = r.target.shape;
  t.kernel = r.target.kernel;
  t.budget_s = r.target.budget_s;
  t.elapsed_s = r.elapsed_s;
  t.tried = r.tried;
  t.build_failures = r.build_failures, t.launch_failures = r.launch_failures, t.wrong = r.wrong;
  t.default_gflops = r.default_gflops;
  t.rule_gflops = r.rule_gflops;
  t.best_gflops = r.best_gflops;
  t.best = r.best;
  t.failure_notes = r.failure_notes;
  return t;
}

}  // namespace

TuningReport tune_device(const Context& ctx, const TuningRequest& request,
                         const std::function<void(const TuningProgress&)>& progress) {
  const DeviceInfo device = planning_device(ctx.info());
  const std::string path = checked_database_path(ctx, device, request);
  const double budget = request.budget_s;
  const auto report = [&](const TuningProgress& p) {
    if (progress) progress(p);
  };

  // The search gets most of the budget; the rest measures the kept configurations once more on a
  // smaller shape of their class (the points the planner predicts from there).
  const auto targets =
      detail::default_targets(device, budget * (1.0 - kPointsShare), request.classes, request.tensor, request.precision);
  detail::Tuner tuner(ctx, request.seed, request.precision, &device);
  std::vector<detail::TuneResult> results;
  // Each target's share ends at a fixed time from the start: a target that overran its share (its
  // defaults are measured whatever the budget) leaves the next ones less, and one that ended early
  // leaves them more, so the whole session stays near the budget.
  const auto started = std::chrono::steady_clock::now();
  const auto spent = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count(); };
  double share_end = 0;
  for (detail::TuneTarget t : targets) {
    share_end += t.budget_s;
    const double spent_before = spent();
    t.budget_s = std::max(0.0, share_end - spent_before);
    results.push_back(tuner.tune(t, [&](const detail::TuneProgress& p) {
      TuningProgress out;
      out.phase = TuningProgress::Phase::Search;
      out.fraction = std::min(1.0, (spent_before + std::min(p.elapsed_s, t.budget_s)) / budget);
      out.seconds_left = std::max(0.0, budget - spent_before - p.elapsed_s);
      out.shape_class = t.shape_class, out.shape = t.shape, out.kernel = t.kernel;
      out.stage = p.stage, out.last = p.stage == "done";
      out.tried = p.tried, out.failed = p.failed, out.wrong = p.wrong;
      out.best_gflops = p.best_gflops;
      report(out);
    }));
  }

  // Per shape class, the fastest correct kernel becomes the entry (replacing only an entry of the
  // same precision: TuningDatabase::upsert).
  std::string warning;
  auto db = detail::load_database(path, &warning);
  if (!warning.empty()) detail::warn(warning);
  std::map<std::string, size_t> best;  // class → index in results
  for (size_t i = 0; i < results.size(); ++i) {
    const auto& r = results[i];
    const auto it = best.find(r.target.shape_class);
    if (r.found && (it == best.end() || r.best_gflops > results[it->second].best_gflops))
      best[r.target.shape_class] = i;
  }

  TuningReport out;
  out.device = ctx.info().name;
  out.precision = request.precision;
  out.budget_s = budget;
  out.database = path;
  for (const auto& r : results) out.targets.push_back(target_report(r));

  // What is left of the budget (about the points' share, unless the search overran) goes to the
  // classes' points in equal parts.
  const double points_start = spent(), points_budget = std::max(0.0, budget - points_start);
  size_t done_classes = 0;
  // The fraction of the budget spent after the search and `classes_done` (fractional) classes' points.
  const auto points_fraction = [&](double classes_done) {
    return std::min(1.0, (points_start + classes_done / double(best.size()) * points_budget) / budget);
  };
  for (const auto& [cls, index] : best) {
    TuningClassReport c;
    c.shape_class = cls;
    c.target = index;
    out.targets[index].chosen = true;
    detail::TuningEntry e = detail::entry_for(ctx.info(), results[index], request.precision);
    if (const auto shape = detail::point_shape(ctx.info().kind, cls, e.shape)) {
      c.has_points = true;
      c.points_shape = *shape;
      c.points_configurations = 1 + e.alternatives.size();
      TuningProgress p;
      p.phase = TuningProgress::Phase::Points;
      p.shape_class = cls, p.shape = *shape;
      const double share = detail::points_share(budget - spent(), best.size() - done_classes);
      c.points_measured = detail::add_points(tuner, e, *shape, share, [&](size_t done, size_t total) {
        p.fraction = points_fraction(double(done_classes) + double(done) / double(total));
        p.seconds_left = std::max(0.0, budget - spent());
        p.done = done, p.total = total;
        report(p);
      });
      p.fraction = points_fraction(double(done_classes + 1));
      p.seconds_left = std::max(0.0, budget - spent());
      p.done = c.points_measured, p.total = c.points_configurations, p.last = true;
      report(p);
    }
    ++done_classes;
    db.upsert(e);
    out.classes.push_back(c);
  }
  detail::save_database(db, path);
  // GEMM calls read the user database once per process: this session's entries count from now on.
  detail::reload_user_database();
  return out;
}

}  // namespace clgemm
