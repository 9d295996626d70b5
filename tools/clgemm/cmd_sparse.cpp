// cmd_sparse.cpp — `clgemm sparse`: the block-skip GEMM against its own dense run, per tile density.
//
// For each requested density: a random A in which that share of TS×TS tiles is non-zero, a random
// B; the tile map built on the device, the skipping multiply and the same kernel without skipping,
// each timed with profiling events (median of --repeat runs after one warm-up), both checked
// against a float64 reference computed once per A.
#include <clgemm/cpu.hpp>
#include <clgemm/error.hpp>
#include <clgemm/sparse.hpp>

#include "cli_common.hpp"

#include <cmath>
#include <iostream>
#include <memory>
#include <sstream>

namespace clgemm::cli {

namespace {

struct SparseOptions {
  DeviceOptions dev;
  size_t size = 1024;
  size_t m = 0, n = 0, k = 0;  // 0 = --size
  std::vector<double> densities = {0.1};
  size_t tile = 0;  // 0 = the device's default TS
  size_t repeat = 5;
  uint64_t seed = 42;
};

// A density: a number in [0, 1] (NaN and "abc" rejected as usage errors).
const CLI::Validator kDensity(
    [](std::string& s) -> std::string {
      std::istringstream in(s);
      double v = 0;
      if (!(in >> v) || !(in >> std::ws).eof()) return "'" + s + "' is not a number";
      if (!(v >= 0.0 && v <= 1.0)) return "density " + s + " is outside [0, 1]";
      return "";
    },
    "DENSITY", "density in [0,1]");

struct Row {
  double density = 0, actual = 0;
  double map_s = 0, sparse_s = 0, dense_s = 0;
  double err_sparse = 0, err_dense = 0;
  bool ok = true;
};

void run_sparse(const SparseOptions& o) {
  check_dimensions({{"--size", o.size}, {"--m", o.m}, {"--n", o.n}, {"--k", o.k}});
  check_output_file("--save", o.dev.save);
  const GemmShape shape{o.m ? o.m : o.size, o.n ? o.n : o.size, o.k ? o.k : o.size};
  const DeviceInfo info = open_device(o.dev);
  // C twice on the device: the skipping run's and the dense run's.
  check_footprint(info, "shape " + shape_text(shape) + " (--size, --m, --n, --k)", gemm_footprint(shape, 2, 1));
  Context ctx(info);
  KernelParams overrides;
  if (o.tile) overrides["TS"] = long(o.tile);
  BlockSparseGemm g(ctx, shape, overrides);
  const size_t ts = g.tile_size();
  const double flops = gemm_flops(shape);
  const double tol = cpu::gemm_tolerance(shape.k);

  std::vector<float> b(shape.k * shape.n);
  cpu::fill_random(b, o.seed);
  cl::Buffer da = ctx.buffer(shape.m * shape.k * sizeof(float)), db = ctx.buffer(b.size() * sizeof(float));
  cl::Buffer dc_sparse = ctx.buffer(shape.m * shape.n * sizeof(float));
  cl::Buffer dc_dense = ctx.buffer(shape.m * shape.n * sizeof(float));
  ctx.queue().enqueueWriteBuffer(db, CL_TRUE, 0, b.size() * sizeof(float), b.data());

  const std::string dims = shape_text(shape);
  std::vector<Row> rows;
  std::vector<float> c(shape.m * shape.n);
  for (size_t di = 0; di < o.densities.size(); ++di) {
    Row r;
    r.density = o.densities[di];
    const std::string tag = "density " + fixed(r.density, 3) + ": ";
    progress(tag + "generating A (" + dims + ", " + std::to_string(ts) + "x" + std::to_string(ts) + " tiles)");
    const std::vector<float> a = random_tile_sparse(shape.m, shape.k, ts, r.density, o.seed + 1 + di);
    ctx.queue().enqueueWriteBuffer(da, CL_TRUE, 0, a.size() * sizeof(float), a.data());
    progress(tag + "float64 reference (" + fixed(flops * 1e-9, 1) + " GFLOP on the host)");
    const std::vector<double> ref = cpu::gemm_reference_f64(shape, a.data(), b.data());

    progress(tag + "warm-up");
    g.build_map(da);
    g.multiply(da, db, dc_sparse, SkipMode::SkipZeroTiles);
    g.multiply(da, db, dc_dense, SkipMode::Dense);
    ctx.queue().finish();
    std::vector<double> t_map, t_sparse, t_dense;
    for (size_t i = 0; i < o.repeat; ++i) {
      progress(tag + "run " + std::to_string(i + 1) + "/" + std::to_string(o.repeat));
      const auto em = g.build_map(da);
      const auto es = g.multiply(da, db, dc_sparse, SkipMode::SkipZeroTiles);
      const auto ed = g.multiply(da, db, dc_dense, SkipMode::Dense);
      ctx.queue().finish();
      t_map.push_back(elapsed_seconds(em));
      t_sparse.push_back(elapsed_seconds(es));
      t_dense.push_back(elapsed_seconds(ed));
    }
    r.map_s = median(t_map);
    r.sparse_s = median(t_sparse);
    r.dense_s = median(t_dense);
    r.actual = g.tile_map().density();
    ctx.queue().enqueueReadBuffer(dc_sparse, CL_TRUE, 0, c.size() * sizeof(float), c.data());
    r.err_sparse = cpu::relative_error(c.data(), ref.data(), c.size());
    ctx.queue().enqueueReadBuffer(dc_dense, CL_TRUE, 0, c.size() * sizeof(float), c.data());
    r.err_dense = cpu::relative_error(c.data(), ref.data(), c.size());
    r.ok = r.err_sparse <= tol && r.err_dense <= tol;
    rows.push_back(r);
  }
  progress_done();

  bool all_ok = true;
  for (const auto& r : rows) all_ok = all_ok && r.ok;
  {
    nlohmann::json out;
    out["device"] = {{"index", info.index}, {"name", info.name}, {"platform", info.platform}};
    out["shape"] = {{"m", shape.m}, {"n", shape.n}, {"k", shape.k}};
    out["tile"] = ts;
    out["params"] = g.params();
    out["guarded"] = g.guarded();
    out["repeat"] = o.repeat;
    out["tolerance"] = tol;
    out["results"] = nlohmann::json::array();
    for (const auto& r : rows)
      out["results"].push_back({{"density", r.density}, {"actual_density", r.actual}, {"map_seconds", r.map_s},
                                {"sparse_seconds", r.sparse_s}, {"dense_seconds", r.dense_s},
                                {"speedup", r.sparse_s > 0 ? r.dense_s / r.sparse_s : 0.0},
                                {"speedup_with_map", r.sparse_s + r.map_s > 0 ? r.dense_s / (r.sparse_s + r.map_s) : 0.0},
                                {"effective_gflops", r.sparse_s > 0 ? flops / r.sparse_s * 1e-9 : 0.0},
                                {"dense_gflops", r.dense_s > 0 ? flops / r.dense_s * 1e-9 : 0.0},
                                {"relative_error", r.err_sparse}, {"relative_error_dense", r.err_dense},
                                {"ok", r.ok}});
    emit_json(o.dev, out);
  }
  if (!o.dev.json) {
    std::cout << "block-skip GEMM " << dims << ", " << ts << "x" << ts << " tiles of A, " << g.build_options()
              << ", median of " << o.repeat << "\n";
    Table t({"density", "actual", "map ms", "sparse ms", "dense ms", "speed-up", "eff. GFLOP/s", "dense GFLOP/s",
             "rel. error"});
    for (const auto& r : rows)
      t.add({fixed(r.density, 3), fixed(r.actual, 3), fixed(r.map_s * 1e3, 3), fixed(r.sparse_s * 1e3, 3),
             fixed(r.dense_s * 1e3, 3), r.sparse_s > 0 ? fixed(r.dense_s / r.sparse_s, 2) + "x" : "-",
             r.sparse_s > 0 ? fixed(flops / r.sparse_s * 1e-9, 1) : "-",
             r.dense_s > 0 ? fixed(flops / r.dense_s * 1e-9, 1) : "-",
             sci(std::max(r.err_sparse, r.err_dense)) + (r.ok ? "" : " FAIL")});
    t.print(std::cout);
    std::cout << "eff. GFLOP/s = 2mnk / sparse time (dense FLOPs); rel. error = worse of sparse and dense runs vs "
                 "float64, tolerance "
              << sci(tol) << "\n";
  }
  if (!all_ok)
    throw WrongResult("the block-skip GEMM result exceeds the float64 tolerance " + sci(tol) +
                      " (see the table); please report this with the device and options");
}

}  // namespace

void add_sparse_command(CLI::App& app) {
  auto o = std::make_shared<SparseOptions>();
  auto* cmd =
      app.add_subcommand("sparse", "block-skip sparse GEMM: skipping the zero tiles of A vs the same kernel dense");
  cmd->add_option("--size,-s", o->size, "m = n = k (default 1024)")->check(kPositiveSize);
  cmd->add_option("--m", o->m, "rows of A and C (overrides --size)")->check(kPositiveSize);
  cmd->add_option("--n", o->n, "columns of B and C (overrides --size)")->check(kPositiveSize);
  cmd->add_option("--k", o->k, "columns of A, rows of B (overrides --size)")->check(kPositiveSize);
  cmd->add_option("--density", o->densities, "share of non-zero TSxTS tiles of A, comma-separated (default 0.1)")
      ->delimiter(',')
      ->check(kDensity);
  cmd->add_option("--tile,-t", o->tile, "tile side TS (default: 128 on GPUs, 32 on CPUs)")->check(kPositiveSize);
  cmd->add_option("--repeat,-r", o->repeat, "timed runs per density; the median is shown (default 5)")
      ->check(CLI::Range(1, 100000));
  cmd->add_option("--seed", o->seed, "seed of the random matrices (default 42)");
  add_device_options(*cmd, o->dev);
  cmd->callback([o] { run_sparse(*o); });
}

}  // namespace clgemm::cli
