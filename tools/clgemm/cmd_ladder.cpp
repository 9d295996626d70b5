// cmd_ladder.cpp — `clgemm ladder`: runs every rung of the optimisation ladder on one shape and
// prints time, GFLOP/s, the speed-up of each step, the speed-up over the CPU triple loop, and the
// error against a float64 reference.
#include <clgemm/cpu.hpp>
#include <clgemm/error.hpp>
#include <clgemm/ladder.hpp>

#include "bench/stats.hpp"
#include "bench/triple_loop.hpp"
#include "cli_common.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iostream>
#include <optional>

namespace clgemm::cli {

namespace {

struct LadderOptions {
  DeviceOptions dev;
  size_t size = 0, m = 0, n = 0, k = 0;
  int repeat = 10;
  std::vector<int> rungs;             // empty = all
  std::vector<std::string> settings;  // "6:TSM=64"
  double cpu_limit_s = 10.0;          // run the triple loop only when predicted under this
};

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// "1 (naive), 2 (tiled), ...": the rungs there are, for messages.
std::string rung_list() {
  std::string out;
  for (const auto& r : ladder_rungs()) out += (out.empty() ? "" : ", ") + std::to_string(r.number) + " (" + r.id + ")";
  return out;
}

const RungInfo* find_rung(int number) {
  static const std::vector<RungInfo> rungs = ladder_rungs();
  for (const auto& r : rungs)
    if (r.number == number) return &r;
  return nullptr;
}

// The rungs --rungs names, in ladder order (every rung without it); an unknown number is an error
// listing them.
std::vector<RungInfo> chosen_rungs(const std::vector<int>& numbers) {
  for (int n : numbers)
    if (!find_rung(n))
      throw Error(Status::InvalidArgument,
                  "--rungs: there is no rung " + std::to_string(n) + "; the rungs are " + rung_list());
  std::vector<RungInfo> out;
  for (const auto& r : ladder_rungs())
    if (numbers.empty() || std::find(numbers.begin(), numbers.end(), r.number) != numbers.end()) out.push_back(r);
  return out;
}

// An integer that fills all of `text`, or nothing.
std::optional<long> whole_integer(const std::string& text) {
  try {
    size_t used = 0;
    const long v = std::stol(text, &used);
    if (used == text.size()) return v;
  } catch (const std::logic_error&) {
  }
  return std::nullopt;
}

// Parses "RUNG:NAME=VALUE" into per-rung overrides, for rungs among `rungs` and parameters they have.
std::map<int, KernelParams> parse_settings(const std::vector<std::string>& settings,
                                           const std::vector<RungInfo>& rungs) {
  std::map<int, KernelParams> out;
  for (const auto& s : settings) {
    const std::string named = "--set '" + s + "'";
    const auto colon = s.find(':'), eq = s.find('=');
    if (colon == std::string::npos || eq == std::string::npos || eq < colon)
      throw Error(Status::InvalidArgument, named + ": expected RUNG:NAME=VALUE (for example 6:TSM=64)");
    const auto rung = whole_integer(s.substr(0, colon)), value = whole_integer(s.substr(eq + 1));
    const std::string name = s.substr(colon + 1, eq - colon - 1);
    if (!rung || !value || int(*rung) != *rung)
      throw Error(Status::InvalidArgument, named + ": RUNG and VALUE must be integers (for example 6:TSM=64)");
    const RungInfo* info = find_rung(int(*rung));
    if (!info)
      throw Error(Status::InvalidArgument,
                  named + ": there is no rung " + std::to_string(*rung) + "; the rungs are " + rung_list());
    if (std::none_of(rungs.begin(), rungs.end(), [&](const RungInfo& r) { return r.number == info->number; }))
      throw Error(Status::InvalidArgument, named + " sets rung " + std::to_string(info->number) +
                                               ", which --rungs leaves out; add it to --rungs or drop the --set");
    const auto& names = info->param_names;
    if (std::find(names.begin(), names.end(), name) == names.end()) {
      std::string known;
      for (const auto& n : names) known += (known.empty() ? "" : ", ") + n;
      throw Error(Status::InvalidArgument, named + ": rung " + std::to_string(info->number) + " (" + info->id +
                                               ") has no parameter '" + name + "'; its parameters are " + known);
    }
    out[info->number][name] = *value;
  }
  return out;
}

// The square --size, or --m, --n, --k where given.
GemmShape shape_of(const LadderOptions& o, size_t default_size) {
  const size_t square = o.size ? o.size : default_size;
  return {o.m ? o.m : square, o.n ? o.n : square, o.k ? o.k : square};
}

// Prepares every chosen rung once before any measuring, so that a --set value or a shape a rung
// refuses (InvalidArgument, SizeOverflow: the caller's arguments) stops the command before the
// reference and the CPU loop run. Other failures (a build, the device's resources) are the
// rung's own and show as a FAILED row in the table.
void check_rungs(const Context& ctx, const GemmShape& s, const std::vector<RungInfo>& rungs,
                 const std::map<int, KernelParams>& overrides) {
  for (const auto& info : rungs) {
    progress("rung " + std::to_string(info.number) + " (" + info.id + "): checking...", true);
    const auto it = overrides.find(info.number);
    try {
      LadderRun(ctx, info.number, s, it == overrides.end() ? KernelParams{} : it->second);
    } catch (const Error& e) {
      if (e.status() != Status::InvalidArgument && e.status() != Status::SizeOverflow) continue;
      // The library's message names the rung where it is about the rung's parameters.
      const std::string rung = "rung " + std::to_string(info.number) + " (" + info.id + ")";
      const std::string why = e.what();
      throw Error(e.status(), (why.rfind(rung, 0) == 0 ? "" : rung + ", ") + "shape " + shape_text(s) + ": " + why +
                                  "; change the sizes or --set, or leave the rung out with --rungs");
    }
  }
}

struct RungResult {
  RungInfo info;
  std::string options;
  std::vector<double> times;
  double median_s = 0, min_s = 0, error = 0;
  bool ok = false;
  std::string failure;
};

void print_table(const GemmShape& s, const LadderOptions& o, const std::vector<RungResult>& results, double cpu_s,
                 bool cpu_measured, double blas_s, const std::string& device_name);

void run_ladder(const LadderOptions& o) {
  check_dimensions({{"--size", o.size}, {"--m", o.m}, {"--n", o.n}, {"--k", o.k}});
  const std::vector<RungInfo> rungs = chosen_rungs(o.rungs);
  const auto overrides = parse_settings(o.settings, rungs);
  check_output_file("--save", o.dev.save);
  // Without a size: a problem that keeps a GPU busy long enough to measure, and one that a CPU
  // device finishes in seconds even on the naive rung.
  const DeviceInfo device = open_device(o.dev);
  const GemmShape s = shape_of(o, device.kind == DeviceKind::CPU ? 512 : 4096);
  const std::string named = o.m || o.n || o.k ? "--m, --n, --k: " + shape_text(s) : "--size " + std::to_string(s.m);
  check_footprint(device, named, gemm_footprint(s, 1, 1));
  Context ctx(device);
  check_rungs(ctx, s, rungs, overrides);

  const uint64_t seed = uint64_t(Clock::now().time_since_epoch().count());
  std::vector<float> a(s.m * s.k), b(s.k * s.n), c(s.m * s.n);
  cpu::fill_random(a, seed);
  cpu::fill_random(b, seed ^ 0x9e3779b97f4a7c15ull);

  progress("computing the float64 reference (OpenBLAS dgemm)...");
  const std::vector<double> ref = cpu::gemm_reference_f64(s, a.data(), b.data());
  progress("timing the CPU triple loop...");
  const auto [cpu_s, cpu_measured] = bench::triple_loop_seconds(s, a.data(), b.data(), o.cpu_limit_s);
  progress("timing OpenBLAS sgemm...");
  double blas_s = 0;
  {
    cpu::gemm_openblas(s, a.data(), b.data(), c.data());  // warm-up: thread pool start
    std::vector<double> t;
    for (int r = 0; r < std::min(o.repeat, 5); ++r) {
      auto t0 = Clock::now();
      cpu::gemm_openblas(s, a.data(), b.data(), c.data());
      t.push_back(seconds_since(t0));
    }
    blas_s = bench::median(t);
  }

  cl::Buffer da = ctx.buffer(a.size() * sizeof(float)), db = ctx.buffer(b.size() * sizeof(float)),
             dc = ctx.buffer(c.size() * sizeof(float));
  ctx.queue().enqueueWriteBuffer(da, CL_TRUE, 0, a.size() * sizeof(float), a.data());
  ctx.queue().enqueueWriteBuffer(db, CL_TRUE, 0, b.size() * sizeof(float), b.data());

  std::vector<RungResult> results;
  for (const auto& info : rungs) {
    RungResult r;
    r.info = info;
    try {
      progress("rung " + std::to_string(info.number) + " (" + info.id + "): building...");
      auto it = overrides.find(info.number);
      LadderRun run(ctx, info.number, s, it == overrides.end() ? KernelParams{} : it->second);
      r.options = run.build_options();
      // Poison C so an element the kernel never writes shows up as an error, not as stale data.
      const float nan = std::nanf("");
      ctx.queue().enqueueFillBuffer(dc, nan, 0, c.size() * sizeof(float));
      run.enqueue(da, db, dc);  // warm-up, and the run that is checked
      ctx.queue().enqueueReadBuffer(dc, CL_TRUE, 0, c.size() * sizeof(float), c.data());
      r.error = cpu::relative_error(c.data(), ref.data(), c.size());
      for (int i = 0; i < o.repeat; ++i) {
        progress("rung " + std::to_string(info.number) + " (" + info.id + "): run " + std::to_string(i + 1) + "/" +
                 std::to_string(o.repeat), true);
        auto ev = run.enqueue(da, db, dc);
        cl::Event::waitForEvents(ev);
        r.times.push_back(elapsed_seconds(ev));
      }
      const bench::Stats st = bench::summarize(r.times);
      r.median_s = st.median;
      r.min_s = st.min;
      r.ok = true;
    } catch (const Error& e) {
      r.failure = e.what();
    }
    results.push_back(std::move(r));
  }
  progress_done();

  const double flops = gemm_flops(s), tol = cpu::gemm_tolerance(s.k);
  {
    nlohmann::json out;
    out["device"] = {{"name", ctx.info().name}, {"platform", ctx.info().platform}, {"driver", ctx.info().driver},
                     {"type", ctx.info().kind_name()}, {"compute_units", ctx.info().compute_units}};
    out["shape"] = {{"m", s.m}, {"n", s.n}, {"k", s.k}};
    out["repeat"] = o.repeat;
    out["tolerance"] = tol;
    out["cpu_triple_loop"] = {{"seconds", cpu_s}, {"measured", cpu_measured}, {"gflops", flops / cpu_s * 1e-9}};
    out["cpu_openblas"] = {{"seconds", blas_s}, {"gflops", flops / blas_s * 1e-9}};
    for (const auto& r : results) {
      nlohmann::json j = {{"rung", r.info.number}, {"id", r.info.id}, {"title", r.info.title}, {"ok", r.ok}};
      if (r.ok) {
        j.update({{"options", r.options}, {"median_s", r.median_s}, {"min_s", r.min_s}, {"times_s", r.times},
                  {"gflops", flops / r.median_s * 1e-9}, {"relative_error", r.error}, {"correct", r.error <= tol}});
      } else {
        j["failure"] = r.failure;
      }
      out["rungs"].push_back(j);
    }
    emit_json(o.dev, out);
  }

  if (!o.dev.json) print_table(s, o, results, cpu_s, cpu_measured, blas_s, ctx.info().name);
  // A failed or wrong rung makes the whole command fail, so scripts cannot miss it.
  for (const auto& r : results) {
    if (!r.ok) throw Error(Status::InvalidArgument, "rung " + std::to_string(r.info.number) + " could not run: " + r.failure);
    if (r.error > tol)
      throw WrongResult("rung " + std::to_string(r.info.number) + " gave a wrong result (relative error " +
                        sci(r.error) + ", tolerance " + sci(tol) + "); please report this with the device and options");
  }
}

void print_table(const GemmShape& s, const LadderOptions& o, const std::vector<RungResult>& results, double cpu_s,
                 bool cpu_measured, double blas_s, const std::string& device_name) {
  const double flops = gemm_flops(s), tol = cpu::gemm_tolerance(s.k);
  std::cout << "C = A*B, " << s.m << "x" << s.n << "x" << s.k << ", float32 row-major, median of " << o.repeat
            << " runs on " << device_name << "\n\n";
  Table t({"rung", "time ms", "GFLOP/s", "vs prev", "vs CPU loop", "rel. error", "check", "parameters"});
  double prev = 0;
  for (const auto& r : results) {
    const std::string name = std::to_string(r.info.number) + " " + r.info.id;
    if (!r.ok) {
      t.add({name, "-", "-", "-", "-", "-", "FAILED", r.failure.substr(0, r.failure.find('\n'))});
      continue;
    }
    t.add({name, fixed(r.median_s * 1e3, 3), fixed(flops / r.median_s * 1e-9, 1),
           prev > 0 ? fixed(prev / r.median_s, 2) + "x" : "-",
           fixed(cpu_s / r.median_s, 1) + "x" + (cpu_measured ? "" : "*"), sci(r.error),
           r.error <= tol ? "ok" : "WRONG", r.options});
    prev = r.median_s;
  }
  t.add({"cpu triple loop", fixed(cpu_s * 1e3, 1) + (cpu_measured ? "" : "*"), fixed(flops / cpu_s * 1e-9, 2), "-",
         "1.0x", "-", cpu_measured ? "" : "not run", cpu_measured ? "1 thread, i-j-k" : "predicted from a small run"});
  t.add({"cpu OpenBLAS", fixed(blas_s * 1e3, 3), fixed(flops / blas_s * 1e-9, 1), "-", fixed(cpu_s / blas_s, 1) + "x",
         "-", "", "cblas_sgemm, all cores"});
  t.print(std::cout);
  if (!cpu_measured)
    std::cout << "\n* the triple loop would take about " << fixed(cpu_s, 0) << " s here (more than "
              << fixed(o.cpu_limit_s, 0) << " s), so it was not run: its time is predicted from a small run.\n";
  std::cout << "Tolerance for 'ok': relative error <= " << sci(tol) << " (Frobenius norm vs float64).\n";
}

}  // namespace

void add_ladder_command(CLI::App& app) {
  auto o = std::make_shared<LadderOptions>();
  auto* cmd = app.add_subcommand("ladder", "run every rung of the optimisation ladder and compare them");
  add_device_options(*cmd, o->dev);
  cmd->add_option("--size,-s", o->size, "square size M = N = K (default 4096 on a GPU, 512 on a CPU device)")->check(kPositiveSize);
  cmd->add_option("--m", o->m, "rows of A and C (overrides --size)")->check(kPositiveSize);
  cmd->add_option("--n", o->n, "columns of B and C")->check(kPositiveSize);
  cmd->add_option("--k", o->k, "columns of A, rows of B")->check(kPositiveSize);
  cmd->add_option("--repeat,-r", o->repeat, "timed runs per rung (median reported)")->check(CLI::Range(1, 100000));
  cmd->add_option("--rungs", o->rungs, "only these rungs, e.g. --rungs 1,2,6")->delimiter(',');
  cmd->add_option("--set", o->settings, "override a parameter: RUNG:NAME=VALUE, e.g. --set 6:TSM=64 (repeatable)");
  cmd->add_option("--cpu-limit", o->cpu_limit_s, "run the CPU triple loop only if predicted under this many seconds")
      ->check(kFiniteNonNegative);
  cmd->callback([o] { run_ladder(*o); });
}

}  // namespace clgemm::cli
