// cmd_tune.cpp — `clgemm tune`: searches kernel parameters for this device within a time budget
// and stores the best per shape class in the tuning database; `--show` prints what is stored.
#include <cctype>
#include <clgemm/error.hpp>
#include <clgemm/gemm.hpp>

#include "bench/shapes.hpp"
#include "cli_common.hpp"
#include "kernels/descriptor.hpp"
#include "database/database.hpp"
#include "tune/tuner.hpp"
#include "tune/tuning_points.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iostream>
#include <map>
#include <sstream>

namespace clgemm::cli {

namespace {

struct TuneOptions {
  DeviceOptions dev;
  double budget = 180;
  std::vector<std::string> classes;
  std::string database;  // default: the user database in the cache folder
  uint64_t seed = 1;
  bool show = false;
  std::vector<std::string> tries;  // --try: configurations to measure instead of a search
  std::string shape = "1024x1024x1024";
  std::string kernel = "xgemm";
  bool tensor = false;  // --tensor: tune the tensor path (3xTF32) instead of the float32 kernels
};

// The share of `--budget` kept for measuring the kept configurations on a second shape.
constexpr double kPointsShare = 0.1;

std::string bar(double fraction, int width) {
  const int full = int(std::lround(std::clamp(fraction, 0.0, 1.0) * width));
  return "[" + std::string(size_t(full), '#') + std::string(size_t(width - full), '.') + "]";
}

// "NAME=VALUE,NAME=VALUE" (or "" / "defaults") into overrides of a kernel's defaults.
KernelParams parse_config(const std::string& text) {
  KernelParams ps;
  if (text.empty() || text == "defaults") return ps;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    const size_t eq = item.find('=');
    long value = 0;
    size_t used = 0;
    bool ok = eq != std::string::npos && eq > 0;
    if (ok) {
      try {
        value = std::stol(item.substr(eq + 1), &used);
      } catch (const std::exception&) {
        ok = false;
      }
    }
    if (!ok || used != item.size() - eq - 1)
      throw Error(Status::InvalidArgument, "--try: '" + item + "' is not NAME=INTEGER (in '" + text + "')");
    ps[item.substr(0, eq)] = value;
  }
  return ps;
}

// One MxNxK shape, in the bench's size syntax (bench/shapes.hpp); anything else is refused, and a
// size beyond the kernels' indexing with the bench's SizeOverflow.
GemmShape parse_shape(const std::string& text) {
  std::vector<bench::Shape> shapes;
  try {
    shapes = bench::parse_sizes(text, {}, "--shape");
  } catch (const Error& e) {
    if (e.status() == Status::SizeOverflow) throw;
  }
  // One MxNxK item: a cube comes back in the "square" group, but presets and ranges are refused.
  const bool one_item = text.find_first_of(",:") == std::string::npos && text.find('x') != std::string::npos &&
                        !text.empty() && !std::isalpha(static_cast<unsigned char>(text[0]));
  if (shapes.size() != 1 || !one_item)
    throw Error(Status::InvalidArgument, "--shape: '" + text + "' is not MxNxK with positive sizes");
  return {shapes[0].m, shapes[0].n, shapes[0].k};
}

// --try: measures the given configurations on one shape and prints a row each; saves nothing.
void run_try(const TuneOptions& o) {
  const GemmShape shape = parse_shape(o.shape);
  std::vector<KernelParams> configs;
  for (const auto& t : o.tries) configs.push_back(parse_config(t));
  const DeviceInfo device = open_device(o.dev);
  check_footprint(device, "--shape " + o.shape, gemm_footprint(shape, 1, 1));
  Context ctx(device);
  detail::Tuner tuner(ctx, o.seed);
  const auto results = tuner.measure(shape, o.kernel, configs, [&](size_t done) {
    progress(bar(double(done) / double(configs.size()), 24) + " " + std::to_string(done) + "/" +
                 std::to_string(configs.size()) + " configurations",
             done < configs.size());
  });
  progress_done();
  const char* names[] = {"ok", "rejected", "build failed", "launch failed", "WRONG"};
  nlohmann::json doc = {{"device", ctx.info().name}, {"shape", {shape.m, shape.n, shape.k}}, {"kernel", o.kernel}};
  Table t({"#", "GFLOP/s", "ms", "commands (ms)", "parameters", "outcome"});
  for (size_t i = 0; i < results.size(); ++i) {
    const auto& r = results[i];
    doc["results"].push_back({{"params", r.params}, {"outcome", names[r.outcome]}, {"gflops", r.gflops},
                              {"seconds", r.seconds}, {"command_seconds", r.command_seconds}, {"note", r.note}});
    // Each command's own time: the span above also holds the gaps between them.
    std::string each;
    for (double c : r.command_seconds) each += (each.empty() ? "" : " + ") + fixed(c * 1e3, 3);
    const bool ok = r.outcome == detail::Measurement::Ok;
    t.add({std::to_string(i + 1), ok ? fixed(r.gflops, 1) : "-", ok ? fixed(r.seconds * 1e3, 3) : "-", each,
           detail::build_options(r.params), ok ? names[r.outcome] : std::string(names[r.outcome]) + ": " + r.note});
  }
  emit_json(o.dev, doc);
  if (o.dev.json) return;
  std::cout << ctx.info().name << ", " << o.kernel << ", " << o.shape << "\n";
  t.print(std::cout);
}

void show(const TuneOptions& o) {
  const std::string path = o.database.empty() ? detail::user_database_path() : o.database;
  std::string warning;
  const auto user = detail::load_database(path, &warning);
  if (!warning.empty()) std::cerr << "clgemm: warning: " << warning << "\n";
  nlohmann::json doc = {{"user_database", path}, {"user", nlohmann::json::parse(user.dump())},
                        {"builtin", nlohmann::json::parse(detail::builtin_database().dump())}};
  if (o.dev.json || !o.dev.save.empty()) emit_json(o.dev, doc);
  if (o.dev.json) return;
  for (const auto& [title, db] : {std::pair<std::string, const detail::TuningDatabase*>{"user database " + path, &user},
                                  {"built-in database", &detail::builtin_database()}}) {
    std::cout << title << ": " << db->entries.size() << " entries\n";
    if (db->entries.empty()) continue;
    Table t({"device", "arch", "class", "kernel", "GFLOP/s", "tuned on", "alternatives", "points", "date", "parameters"});
    for (const auto& e : db->entries) {
      size_t points = e.points.size();  // the entry's and its alternatives' measurements on other shapes
      for (const auto& a : e.alternatives) points += a.points.size();
      t.add({e.device, e.architecture, e.shape_class, e.kernel, fixed(e.gflops, 1), shape_text(e.shape),
             std::to_string(e.alternatives.size()), std::to_string(points), e.date, detail::build_options(e.params)});
    }
    t.print(std::cout);
    std::cout << "\n";
  }
}

void run_tune(const TuneOptions& o) {
  check_output_file("--save", o.dev.save);
  if (o.show) return show(o);
  if (!o.tries.empty()) return run_try(o);
  if (!(o.budget > 0)) throw Error(Status::InvalidArgument, "--budget must be a positive number of seconds");
  for (const auto& c : o.classes) {
    const auto& known = detail::shape_classes();
    if (std::find(known.begin(), known.end(), c) == known.end())
      throw Error(Status::InvalidArgument, "unknown shape class '" + c + "'; the classes are small, medium, mid, large, skinny");
  }
  if (o.tensor)
    for (const auto& c : o.classes)
      if (c != "mid" && c != "large")
        throw Error(Status::InvalidArgument, "--tensor tunes the classes the tensor path serves, mid and large; not '" +
                                                 c + "'");
  const std::string path = o.database.empty() ? detail::user_database_path() : o.database;
  if (path.empty()) throw Error(Status::InvalidArgument, "no cache folder for the tuning database: pass --database FILE");
  check_output_file("--database", path);

  Context ctx(open_device(o.dev));
  if (o.tensor && !tensor_path_available(ctx.info()))
    throw Error(Status::InvalidArgument, "--tensor needs the tensor path (an NVIDIA GPU, sm_80 or newer); " +
                                             ctx.info().name + " has none");
  // The search gets most of the budget; the rest measures the kept configurations once more on a
  // smaller shape of their class (the points the planner predicts from there).
  const double search_budget = o.budget * (1.0 - kPointsShare);
  const auto targets = detail::default_targets(ctx.info(), search_budget, o.classes, o.tensor);
  detail::Tuner tuner(ctx, o.seed);
  std::vector<detail::TuneResult> results;
  // Each target's share ends at a fixed time from the start: a target that overran its share (its
  // defaults are measured whatever the budget) leaves the next ones less, and one that ended early
  // leaves them more, so the whole run stays near --budget.
  const auto started = std::chrono::steady_clock::now();
  const auto spent = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count(); };
  double share_end = 0;
  for (detail::TuneTarget t : targets) {
    share_end += t.budget_s;
    const double spent_before = spent();
    t.budget_s = std::max(0.0, share_end - spent_before);
    results.push_back(tuner.tune(t, [&](const detail::TuneProgress& p) {
      const double done = (spent_before + std::min(p.elapsed_s, t.budget_s)) / o.budget;
      const double left = std::max(0.0, o.budget - spent_before - p.elapsed_s);
      progress(bar(done, 24) + " " + t.shape_class + " " + shape_text(t.shape) + " " + t.kernel + " (" + p.stage +
                   "): " + std::to_string(p.tried) + " tried, " + std::to_string(p.failed + p.wrong) +
                   " failed, best " + fixed(p.best_gflops, 1) + " GFLOP/s, " + fixed(left, 0) + " s left",
               p.stage != "done");
    }));
  }
  progress_done();

  // Per shape class, the fastest correct kernel becomes the entry.
  std::string warning;
  auto db = detail::load_database(path, &warning);
  if (!warning.empty()) std::cerr << "clgemm: warning: " << warning << "\n";
  std::map<std::string, const detail::TuneResult*> best;
  for (const auto& r : results)
    if (r.found && (!best.count(r.target.shape_class) || r.best_gflops > best[r.target.shape_class]->best_gflops))
      best[r.target.shape_class] = &r;
  struct Points {
    std::string shape;
    size_t added = 0, configurations = 0;
  };
  std::map<std::string, Points> points;  // per class, where it has a point shape
  // What is left of --budget (about the points' share, unless the search overran) goes to the
  // classes' points in equal parts.
  const double points_start = spent(), points_budget = std::max(0.0, o.budget - points_start);
  // The bar after the search and `classes_done` (fractional) classes' points.
  const auto points_bar = [&](double classes_done) {
    return bar(std::min(1.0, (points_start + classes_done / double(best.size()) * points_budget) / o.budget), 24);
  };
  size_t done_classes = 0;
  for (const auto& [cls, r] : best) {
    detail::TuningEntry e = detail::entry_for(ctx.info(), *r);
    if (const auto shape = detail::point_shape(ctx.info().kind, cls, e.shape)) {
      Points& p = points[cls];
      p.shape = shape_text(*shape), p.configurations = 1 + e.alternatives.size();
      const double share = detail::points_share(o.budget - spent(), best.size() - done_classes);
      p.added = detail::add_points(tuner, e, *shape, share, [&](size_t done, size_t total) {
        progress(points_bar(double(done_classes) + double(done) / double(total)) + " " + cls + " points at " + p.shape +
                     ": " + std::to_string(done) + " of " + std::to_string(total) + " configurations",
                 true);
      });
      progress(points_bar(double(done_classes + 1)) + " " + cls + " points at " + p.shape + ": " +
               std::to_string(p.added) + " of " + std::to_string(p.configurations) + " configurations measured");
    }
    ++done_classes;
    db.upsert(e);
  }
  progress_done();
  detail::save_database(db, path);
  detail::reload_user_database();

  nlohmann::json doc = {{"device", ctx.info().name}, {"budget_s", o.budget}, {"database", path}};
  for (const auto& [cls, p] : points)
    doc["points"][cls] = {{"shape", p.shape}, {"measured", p.added}, {"configurations", p.configurations}};
  for (const auto& r : results) {
    doc["targets"].push_back({{"shape_class", r.target.shape_class},
                              {"kernel", r.target.kernel},
                              {"shape", {r.target.shape.m, r.target.shape.n, r.target.shape.k}},
                              {"budget_s", r.target.budget_s},
                              {"elapsed_s", r.elapsed_s},
                              {"tried", r.tried},
                              {"build_failures", r.build_failures},
                              {"launch_failures", r.launch_failures},
                              {"wrong", r.wrong},
                              {"default_gflops", r.default_gflops},
                              {"best_gflops", r.best_gflops},
                              {"best", r.best},
                              {"failure_notes", r.failure_notes},
                              {"chosen", best.count(r.target.shape_class) && best[r.target.shape_class] == &r}});
  }
  emit_json(o.dev, doc);
  if (o.dev.json) return;
  Table t({"class", "shape", "kernel", "tried", "failed", "wrong", "defaults GFLOP/s", "best GFLOP/s", "gain", "chosen"});
  for (const auto& r : results)
    t.add({r.target.shape_class,
           shape_text(r.target.shape),
           r.target.kernel, std::to_string(r.tried), std::to_string(r.build_failures + r.launch_failures),
           std::to_string(r.wrong), fixed(r.default_gflops, 1), fixed(r.best_gflops, 1),
           r.default_gflops > 0 ? fixed(r.best_gflops / r.default_gflops, 2) + "x" : "-",
           best.count(r.target.shape_class) && best[r.target.shape_class] == &r ? "yes" : ""});
  t.print(std::cout);
  std::cout << "\nSaved " << best.size() << " entries for " << ctx.info().name << " to " << path << "\n";
  for (const auto& [cls, r] : best) {
    std::cout << "  " << cls << ": " << r->target.kernel << " " << detail::build_options(r->best) << "\n";
    const auto p = points.find(cls);
    if (p != points.end())
      std::cout << "    measured again at " << p->second.shape << ": " << p->second.added << " of "
                << p->second.configurations << " configurations (the planner's points there)\n";
  }
}

}  // namespace

void add_tune_command(CLI::App& app) {
  auto o = std::make_shared<TuneOptions>();
  auto* cmd = app.add_subcommand("tune", "search kernel parameters for this device and store the best in the tuning database");
  add_device_options(*cmd, o->dev);
  cmd->add_option("--budget,-b", o->budget,
                  "seconds to spend in total (split over shape classes and kernels; the last tenth measures the kept "
                  "configurations again on a smaller shape of their class)")
      ->check(kFinitePositive);
  cmd->add_option("--classes", o->classes, "only these shape classes: small, medium, mid, large, skinny")->delimiter(',');
  cmd->add_option("--database", o->database, "database file (default: tuning.json in the cache folder)");
  cmd->add_option("--seed", o->seed, "seed of the random search");
  cmd->add_flag("--show", o->show, "print the stored entries (user and built-in database) and exit");
  cmd->add_option("--try", o->tries,
                  "instead of searching, check and time this configuration (NAME=V,NAME=V, overrides of the "
                  "kernel's defaults; repeat the option for more; SPLIT=S adds split-K to xgemm: 0 the model's "
                  "choice, 1 none, S parts of the last partial wave, or of the last SPLIT_TILES tiles); "
                  "nothing is saved");
  cmd->add_option("--shape", o->shape, "the shape --try measures, MxNxK (default 1024x1024x1024)");
  cmd->add_flag("--tensor", o->tensor,
                "tune the tensor path (xmma kernel, 3xTF32; NVIDIA sm_80 or newer) for the mid and large classes, "
                "instead of the float32 kernels; its entries are kept apart from theirs and serve calls that ask for "
                "3xTF32 or TF32");
  cmd->add_option("--kernel", o->kernel,
                  "the kernel --try measures: xgemm, direct or xmma (the tensor path; TERMS=1 for TF32)")
      ->check(CLI::IsMember({"xgemm", "direct", "xmma"}));
  cmd->callback([o, cmd] {
    // --shape and --kernel say what --try measures; without it they would be ignored.
    for (const char* name : {"--shape", "--kernel"})
      if (o->tries.empty() && cmd->get_option(name)->count() > 0)
        throw Error(Status::InvalidArgument, std::string(name) + " is for --try; add --try NAME=V,... or drop " + name);
    run_tune(*o);
  });
}

}  // namespace clgemm::cli
