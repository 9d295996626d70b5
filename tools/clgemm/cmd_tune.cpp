// cmd_tune.cpp — `clgemm tune`: searches kernel parameters for this device within a time budget
// and stores the best per shape class in the tuning database; `--show` prints what is stored,
// `--try` times given configurations. The work is the library's (clgemm/tune.hpp); this file
// holds the options, their checks, the progress bar and the tables.
#include <clgemm/error.hpp>
#include <clgemm/gemm.hpp>
#include <clgemm/tune.hpp>

#include "bench/shapes.hpp"
#include "cli_common.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <iostream>
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
  std::string precision_text = "f32";  // --precision, as given
  DataType precision = DataType::F32;  // ... as checked
};

std::string bar(double fraction, int width) {
  const int full = int(std::lround(std::clamp(fraction, 0.0, 1.0) * width));
  return "[" + std::string(size_t(full), '#') + std::string(size_t(width - full), '.') + "]";
}

const char* outcome_name(ConfigurationResult::Outcome o) {
  switch (o) {
    case ConfigurationResult::Outcome::Ok: return "ok";
    case ConfigurationResult::Outcome::Rejected: return "rejected";
    case ConfigurationResult::Outcome::BuildFailed: return "build failed";
    case ConfigurationResult::Outcome::LaunchFailed: return "launch failed";
    case ConfigurationResult::Outcome::Wrong: return "WRONG";
  }
  return "?";
}

// One MxNxK shape, or a strided batch BxMxNxK, in the bench's size syntax (bench/shapes.hpp);
// anything else is refused, and a size beyond the kernels' indexing with the bench's SizeOverflow.
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
    throw Error(Status::InvalidArgument, "--shape: '" + text + "' is not MxNxK or BxMxNxK with positive sizes");
  return {shapes[0].m, shapes[0].n, shapes[0].k, shapes[0].batch};
}

// --try: measures the given configurations on one shape and prints a row each; saves nothing.
void run_try(const TuneOptions& o) {
  const GemmShape shape = parse_shape(o.shape);
  std::vector<KernelParams> configs;
  for (const auto& t : o.tries) configs.push_back(parse_config("--try", t));
  const DeviceInfo device = open_device(o.dev);
  check_footprint(device, "--shape " + o.shape, gemm_footprint(shape, 1, 1, o.precision, o.precision, shape.batch));
  Context ctx(device);
  const auto results = measure_configurations(
      ctx, o.kernel, shape, configs,
      [&](size_t done) {
        progress(bar(double(done) / double(configs.size()), 24) + " " + std::to_string(done) + "/" +
                     std::to_string(configs.size()) + " configurations",
                 done < configs.size());
      },
      o.seed, o.precision);
  progress_done();
  nlohmann::json doc = {{"device", ctx.info().name}, {"shape", {shape.m, shape.n, shape.k}}, {"kernel", o.kernel},
                        {"precision", data_type_name(o.precision)}};
  if (shape.batch > 1) doc["batch"] = shape.batch;
  Table t({"#", "GFLOP/s", "ms", "commands (ms)", "parameters", "outcome"});
  for (size_t i = 0; i < results.size(); ++i) {
    const auto& r = results[i];
    const std::string outcome = outcome_name(r.outcome);
    doc["results"].push_back({{"params", r.params}, {"outcome", outcome}, {"gflops", r.gflops},
                              {"seconds", r.seconds}, {"command_seconds", r.command_seconds}, {"note", r.note}});
    // Each command's own time: the span above also holds the gaps between them.
    std::string each;
    for (double c : r.command_seconds) each += (each.empty() ? "" : " + ") + fixed(c * 1e3, 3);
    const bool ok = r.outcome == ConfigurationResult::Outcome::Ok;
    t.add({std::to_string(i + 1), ok ? fixed(r.gflops, 1) : "-", ok ? fixed(r.seconds * 1e3, 3) : "-", each,
           kernel_params_text(r.params), ok ? outcome : outcome + ": " + r.note});
  }
  emit_json(o.dev, doc);
  if (o.dev.json) return;
  std::cout << ctx.info().name << ", " << o.kernel << ", " << o.shape << ", A, B and C " << data_type_name(o.precision)
            << "\n";
  t.print(std::cout);
}

void show(const TuneOptions& o) {
  const TuningDatabaseInfo user = read_tuning_database(o.database);
  const TuningDatabaseInfo builtin = builtin_tuning_database();
  nlohmann::json doc = {{"user_database", user.path}, {"user", nlohmann::json::parse(user.json)},
                        {"builtin", nlohmann::json::parse(builtin.json)}};
  if (o.dev.json || !o.dev.save.empty()) emit_json(o.dev, doc);
  if (o.dev.json) return;
  using Titled = std::pair<std::string, const TuningDatabaseInfo*>;
  for (const auto& [title, db] : {Titled{"user database " + user.path, &user}, Titled{"built-in database", &builtin}}) {
    std::cout << title << ": " << db->entries.size() << " entries\n";
    if (db->entries.empty()) continue;
    Table t({"device", "arch", "class", "precision", "kernel", "GFLOP/s", "tuned on", "alternatives", "points", "date",
             "parameters"});
    for (const auto& e : db->entries)
      t.add({e.device, e.architecture, e.shape_class, data_type_name(e.precision), e.kernel, fixed(e.gflops, 1),
             shape_text(e.shape), std::to_string(e.alternatives), std::to_string(e.points), e.date,
             kernel_params_text(e.params)});
    t.print(std::cout);
    std::cout << "\n";
  }
}

// One progress line of a session: a target's search, or a class's points.
void show_progress(const TuningProgress& p) {
  const std::string head = bar(p.fraction, 24) + " " + p.shape_class + " ";
  if (p.phase == TuningProgress::Phase::Search) {
    progress(head + shape_text(p.shape) + " " + p.kernel + " (" + p.stage + "): " + std::to_string(p.tried) +
                 " tried, " + std::to_string(p.failed + p.wrong) + " failed, best " + fixed(p.best_gflops, 1) +
                 " GFLOP/s, " + fixed(p.seconds_left, 0) + " s left",
             !p.last);
    return;
  }
  const std::string counts = std::to_string(p.done) + " of " + std::to_string(p.total) + " configurations";
  if (p.last) progress(head + "points at " + shape_text(p.shape) + ": " + counts + " measured");
  else progress(head + "points at " + shape_text(p.shape) + ": " + counts, true);
}

void run_tune(const TuneOptions& o) {
  check_output_file("--save", o.dev.save);
  if (o.show) return show(o);
  if (!o.tries.empty()) return run_try(o);
  if (!(o.budget > 0)) throw Error(Status::InvalidArgument, "--budget must be a positive number of seconds");
  for (const auto& c : o.classes) {
    const auto& known = tuning_shape_classes();
    if (std::find(known.begin(), known.end(), c) == known.end())
      throw Error(Status::InvalidArgument, "unknown shape class '" + c + "'; the classes are small, medium, mid, large, skinny, batched");
  }
  if (o.tensor)
    for (const auto& c : o.classes)
      if (c != "mid" && c != "large")
        throw Error(Status::InvalidArgument, "--tensor tunes the classes the tensor path serves, mid and large; not '" +
                                                 c + "'");
  const std::string path = o.database.empty() ? user_tuning_database_path() : o.database;
  if (path.empty()) throw Error(Status::InvalidArgument, "no cache folder for the tuning database: pass --database FILE");
  check_output_file("--database", path);

  Context ctx(open_device(o.dev));
  if (o.tensor && !tensor_path_available(ctx.info()))
    throw Error(Status::InvalidArgument, "--tensor needs the tensor path (an NVIDIA GPU, sm_80 or newer); " +
                                             ctx.info().name + " has none");
  TuningRequest request;
  request.budget_s = o.budget;
  request.classes = o.classes;
  request.database = path;
  request.seed = o.seed;
  request.tensor = o.tensor;
  request.precision = o.precision;
  // A clean line between the search and the points, as between any two steps of the tool.
  bool searching = true;
  const TuningReport report = tune_device(ctx, request, [&](const TuningProgress& p) {
    if (searching && p.phase == TuningProgress::Phase::Points) progress_done(), searching = false;
    show_progress(p);
  });
  progress_done();

  nlohmann::json doc = {{"device", report.device}, {"precision", data_type_name(report.precision)},
                        {"budget_s", report.budget_s}, {"database", report.database}};
  for (const auto& c : report.classes)
    if (c.has_points)
      doc["points"][c.shape_class] = {{"shape", shape_text(c.points_shape)},
                                      {"measured", c.points_measured},
                                      {"configurations", c.points_configurations}};
  for (const auto& r : report.targets) {
    doc["targets"].push_back({{"shape_class", r.shape_class},
                              {"kernel", r.kernel},
                              {"shape", {r.shape.m, r.shape.n, r.shape.k}},
                              {"budget_s", r.budget_s},
                              {"elapsed_s", r.elapsed_s},
                              {"tried", r.tried},
                              {"build_failures", r.build_failures},
                              {"launch_failures", r.launch_failures},
                              {"wrong", r.wrong},
                              {"default_gflops", r.default_gflops},
                              {"rule_gflops", r.rule_gflops},
                              {"best_gflops", r.best_gflops},
                              {"best", r.best},
                              {"failure_notes", r.failure_notes},
                              {"chosen", r.chosen}});
  }
  emit_json(o.dev, doc);
  if (o.dev.json) return;
  // "rule": the tensor kernels' tiles that the planner runs without an entry.
  Table t({"class", "shape", "kernel", "tried", "failed", "wrong", "defaults GFLOP/s", "rule GFLOP/s", "best GFLOP/s",
           "gain", "chosen"});
  for (const auto& r : report.targets)
    t.add({r.shape_class, shape_text(r.shape), r.kernel, std::to_string(r.tried),
           std::to_string(r.build_failures + r.launch_failures), std::to_string(r.wrong), fixed(r.default_gflops, 1),
           r.rule_gflops > 0 ? fixed(r.rule_gflops, 1) : "-", fixed(r.best_gflops, 1),
           r.default_gflops > 0 ? fixed(r.best_gflops / r.default_gflops, 2) + "x" : "-", r.chosen ? "yes" : ""});
  t.print(std::cout);
  std::cout << "\nSaved " << report.classes.size() << " " << data_type_name(report.precision) << " entries for "
            << report.device << " to " << report.database << "\n";
  for (const auto& c : report.classes) {
    const TuningTargetReport& r = report.targets[c.target];
    std::cout << "  " << c.shape_class << ": " << r.kernel << " " << kernel_params_text(r.best) << "\n";
    if (c.has_points)
      std::cout << "    measured again at " << shape_text(c.points_shape) << ": " << c.points_measured << " of "
                << c.points_configurations << " configurations (the planner's points there)\n";
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
  cmd->add_option("--classes", o->classes, "only these shape classes: small, medium, mid, large, skinny, batched")->delimiter(',');
  cmd->add_option("--database", o->database, "database file (default: tuning.json in the cache folder)");
  cmd->add_option("--seed", o->seed, "seed of the random search");
  cmd->add_flag("--show", o->show, "print the stored entries (user and built-in database) and exit");
  cmd->add_option("--try", o->tries,
                  "instead of searching, check and time this configuration (NAME=V,NAME=V, overrides of the "
                  "kernel's defaults; repeat the option for more; SPLIT=S adds split-K to xgemm: 0 the model's "
                  "choice, 1 none, S parts of the last partial wave, or of the last SPLIT_TILES tiles); "
                  "nothing is saved");
  cmd->add_option("--shape", o->shape, "the shape --try measures, MxNxK, or BxMxNxK for a strided batch of B items (default "
                  "1024x1024x1024)");
  cmd->add_flag("--tensor", o->tensor,
                "tune the tensor path for the mid and large classes, instead of the SIMT kernels (NVIDIA sm_80 or "
                "newer): for f64 the dmma kernel; on a Hopper card that builds patched PTX the wgmma kernel (f32 as "
                "TF32, f16, bf16), elsewhere the xmma kernel (3xTF32, f32 only); its entries are kept apart from "
                "theirs and serve the calls that run on that kernel");
  cmd->add_option("--precision", o->precision_text,
                  "the element type to tune for: f32 (default), f64, f16 or bf16. Candidates run with A, B and C of "
                  "that type (f16 and bf16 widened to float32 while packing for xgemm), and the entries serve calls "
                  "of that type; f16 and bf16 calls use the f32 entries where they have none. With --try: the "
                  "type measured");
  cmd->add_option("--kernel", o->kernel,
                  "the kernel --try measures: xgemm, direct, xmma (the tensor path; TERMS=1 for TF32), wgmma "
                  "(Hopper's tensor cores; f32 runs as TF32) or dmma (f64 on tensor cores)")
      ->check(CLI::IsMember(tunable_kernel_names()));
  cmd->callback([o, cmd] {
    o->precision = data_type_option("--precision", o->precision_text);
    if (o->show && cmd->get_option("--precision")->count() > 0)
      throw Error(Status::InvalidArgument, "--show prints the entries of every precision; drop --precision");
    if (!o->tries.empty() && o->kernel == "xmma" && o->precision != DataType::F32)
      throw Error(Status::InvalidArgument, std::string("--kernel xmma (the tensor path) takes f32 operands; drop "
                                                       "--kernel xmma or --precision ") + data_type_name(o->precision));
    // --shape and --kernel say what --try measures; without it they would be ignored.
    for (const char* name : {"--shape", "--kernel"})
      if (o->tries.empty() && cmd->get_option(name)->count() > 0)
        throw Error(Status::InvalidArgument, std::string(name) + " is for --try; add --try NAME=V,... or drop " + name);
    run_tune(*o);
  });
}

}  // namespace clgemm::cli
