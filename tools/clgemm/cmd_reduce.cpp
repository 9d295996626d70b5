// cmd_reduce.cpp — `clgemm reduce`: the two-phase compensated sum, timed and checked against float64.
#include <clgemm/cpu.hpp>
#include <clgemm/error.hpp>
#include <clgemm/reduce.hpp>

#include "cli_common.hpp"

#include <cfloat>
#include <cmath>
#include <iostream>
#include <memory>

namespace clgemm::cli {

namespace {

struct ReduceOptions {
  DeviceOptions dev;
  size_t n = size_t(1) << 24;
  size_t repeat = 10;
  uint64_t seed = 42;
};

void run_reduce(const ReduceOptions& o) {
  check_output_file("--save", o.dev.save);
  const DeviceInfo info = open_device(o.dev);
  // The array on the device and on the host; the float64 reference sums it as it goes.
  const double bytes = double(o.n) * sizeof(float);
  const Footprint array{{{"the array (" + std::to_string(o.n) + " floats)", bytes}}, bytes};
  check_footprint(info, "--n " + std::to_string(o.n), array);
  Context ctx(info);
  Reduction red(ctx, o.n);  // refuses an n beyond its indexing before any work

  progress("generating " + std::to_string(o.n) + " random floats in [-1, 1)");
  std::vector<float> x(o.n);
  cpu::fill_random(x, o.seed);
  cl::Buffer dx = ctx.buffer(o.n * sizeof(float), CL_MEM_READ_ONLY);
  ctx.queue().enqueueWriteBuffer(dx, CL_TRUE, 0, x.size() * sizeof(float), x.data());

  // Reference: Neumaier-compensated float64, far more accurate than the float32 result needs.
  progress("float64 reference on the host");
  double s = 0.0, c = 0.0, abs_sum = 0.0;
  for (float f : x) {
    const double v = f, t = s + v;
    c += std::fabs(s) >= std::fabs(v) ? (s - t) + v : (v - t) + s;
    s = t;
    abs_sum += std::fabs(v);
  }
  const double ref = s + c;

  red.enqueue(dx);  // warm-up (and first compilation of the device code paths)
  ctx.queue().finish();
  std::vector<double> times;
  for (size_t i = 0; i < o.repeat; ++i) {
    progress("run " + std::to_string(i + 1) + "/" + std::to_string(o.repeat));
    const auto ev = red.enqueue(dx);
    ctx.queue().finish();
    times.push_back(elapsed_seconds(ev));
  }
  progress_done();
  const float result = red.result();
  const double t = median(times);
  const double gbs = t > 0 ? bytes / t * 1e-9 : 0.0;
  const double abs_err = std::fabs(double(result) - ref);
  const double rel_err = ref != 0.0 ? abs_err / std::fabs(ref) : abs_err;
  // Same bound as the tests (tests/reduce_test.cpp): two float32 roundings of the result plus a
  // generous second-order term of compensated summation.
  const double tol = FLT_EPSILON * std::fabs(ref) + FLT_EPSILON * abs_sum / 1024.0;
  const bool ok = std::isfinite(result) && abs_err <= tol;

  const nlohmann::json out = {{"device", {{"index", info.index}, {"name", info.name}, {"platform", info.platform}}},
                              {"n", o.n},
                              {"groups", red.groups()},
                              {"params", red.params()},
                              {"repeat", o.repeat},
                              {"seconds", t},
                              {"gb_per_s", gbs},
                              {"result", result},
                              {"reference", ref},
                              {"abs_sum", abs_sum},
                              {"relative_error", rel_err},
                              {"ok", ok}};
  emit_json(o.dev, out);
  if (!o.dev.json) {
    std::cout << "sum of " << o.n << " floats (" << human_bytes(bytes) << "), " << red.groups() << " groups, "
              << red.build_options() << ", median of " << o.repeat << "\n";
    Table tab({"n", "time ms", "GB/s", "result", "float64 reference", "rel. error"});
    tab.add({std::to_string(o.n), fixed(t * 1e3, 4), fixed(gbs, 1), sci(result), sci(ref),
             sci(rel_err) + (ok ? "" : " FAIL")});
    tab.print(std::cout);
    std::cout << "GB/s = bytes read / time (both kernels); values uniform in [-1, 1)\n";
  }
  if (!ok)
    throw WrongResult("the reduction differs from the float64 sum by " + sci(abs_err) + ", more than the bound " +
                      sci(tol) + "; please report this with the device and options");
}

}  // namespace

void add_reduce_command(CLI::App& app) {
  auto o = std::make_shared<ReduceOptions>();
  auto* cmd = app.add_subcommand("reduce", "two-phase parallel sum of a float array, timed, vs a float64 sum");
  cmd->add_option("--n,-n", o->n, "number of floats (default 2^24)")->check(kPositiveSize);
  cmd->add_option("--repeat,-r", o->repeat, "timed runs; the median is shown (default 10)")
      ->check(CLI::Range(1, 100000));
  cmd->add_option("--seed", o->seed, "seed of the random values (default 42)");
  add_device_options(*cmd, o->dev);
  cmd->callback([o] { run_reduce(*o); });
}

}  // namespace clgemm::cli
