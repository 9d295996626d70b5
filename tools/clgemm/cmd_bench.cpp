// cmd_bench.cpp — `clgemm bench`: clgemm beside its peers (CLBlast, cuBLAS, OpenBLAS, the ladder
// rungs, the CPU triple loop) on the same inputs, checked against float64, as a table, JSON, CSV
// and a plot. The measuring itself lives in bench/; this file is options and presentation.
#include <clgemm/error.hpp>
#include <clgemm/quant.hpp>

#include "bench/environment.hpp"
#include "bench/gemm_types.hpp"
#include "bench/peak.hpp"
#include "bench/plot.hpp"
#include "bench/registry.hpp"
#include "bench/report.hpp"
#include "bench/runner.hpp"
#include "bench/shapes.hpp"
#include "bench/writers.hpp"
#include "cli_common.hpp"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <optional>
#include <sstream>

namespace clgemm::cli {

namespace {

struct BenchOptions {
  DeviceOptions dev;
  std::string sizes = "square";
  size_t batch = 1;  // --batch: every shape of --sizes as a strided batch of this many items
  std::string grouped;  // --grouped: one grouped shape instead of --sizes
  bool sizes_given = false;
  size_t min_size = 64, max_size = 0;  // max 0: 4096 on a GPU, 1024 on a CPU device
  std::vector<std::string> impls = {"clgemm", "clblast", "cublas", "cublas-tf32", "openblas", "cpu-loop"};
  std::string layout = "row", transa = "n", transb = "n";
  float alpha = 1.0f, beta = 0.0f;
  int repeat = 10, warmup = 1;
  double time_limit_s = 120, cpu_limit_s = 10, peak = 0;
  std::string csv, plot, plot_tool = "auto";
  uint64_t seed = 0;  // 0: from the clock
  std::string edges = "auto";  // GemmOptions::force_edge_split of the clgemm implementation
  std::string precision = "f32";  // bench::parse_precision; checked in run_bench (exit 2, as --impl)
  std::string quant;  // --quant: a quantized format's name; empty for dense B
};

// --quant's format, or none; a name that is no format is refused naming the option.
std::optional<QuantFormat> quant_format(const BenchOptions& o) {
  if (o.quant.empty()) return std::nullopt;
  try {
    return quant_format_from_name(o.quant);
  } catch (const Error& e) {
    throw Error(e.status(), std::string("--quant: ") + e.what());
  }
}

// What a --quant run takes: W's rows enter transposed in row-major (A·dequant(W)ᵀ) and A as it is
// stored, no grouped calls, 16-bit or float32 activations, and K a multiple of the format's block.
void check_quant_options(const BenchOptions& o, const CLI::App& cmd, const bench::GemmTypes& types) {
  for (const char* option : {"--transa", "--transb", "--grouped"})
    if (cmd.get_option(option)->count() > 0)
      throw Error(Status::InvalidArgument, std::string(option) + " does not apply with --quant: the product is "
                                           "A*dequant(W)^T with A and C as --layout stores them");
  if (types.in == DataType::F64 || types.out == DataType::F64)
    throw Error(Status::UnsupportedTypes, "--precision " + o.precision +
                                              ": quantized weights take f32, f16 or bf16 activations and C");
}

// Milliseconds with four significant digits: 0.01234, 1.234, 1234.
std::string ms_text(double seconds) {
  const double ms = seconds * 1e3;
  std::ostringstream os;
  os.precision(4);
  if (ms >= 1000) os << std::fixed << std::setprecision(0) << ms;
  else os << ms;
  return os.str();
}

// "FP32" from "fp32".
std::string upper(std::string s) {
  for (char& c : s) c = char(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

std::string timing_words(bench::Timing t, bench::Hardware h) {
  switch (t) {
    case bench::Timing::Events: return "OpenCL profiling events, first start to last end";
    case bench::Timing::CudaEvents: return "CUDA events around the call";
    case bench::Timing::MarkerEvents:
      return "OpenCL profiling events, a marker before the call to the end of the event it returns";
    case bench::Timing::HostClock:
      return h == bench::Hardware::OpenCLDevice ? "host clock around the call and clFinish"
                                                : "host clock around the (synchronous) call";
  }
  return "";
}

void print_header(const bench::Report& rep, std::ostream& os) {
  const auto& env = rep.environment;
  os << "clgemm bench: " << rep.settings.types.describe() << " GEMM, " << rep.settings.describe() << ", on "
     << env["device"]["name"].get<std::string>() << " (" << env["device"]["platform"].get<std::string>()
     << ", driver " << env["device"]["driver"].get<std::string>()
     << "), " << env["date"].get<std::string>() << "\n";
  os << "Each time: median (and min) of " << rep.options.repeat << " timed runs, after one checked run and "
     << rep.options.warmup << " warm-up run" << (rep.options.warmup == 1 ? "" : "s")
     << (rep.settings.beta != 0.0f ? "; C reset to C0 before every run, untimed" : "") << ".\n";
  const bench::Precision arithmetic = bench::compute_arithmetic(rep.settings.types);
  const std::string arith = arithmetic == bench::Precision::FP64 ? "FP64" : "FP32";
  // float32 and float64 runs have a peak of their arithmetic; 16-bit ones only a given one.
  const bool stated = rep.settings.types.is_f32() || arithmetic == bench::Precision::FP64;
  if (rep.peak && stated)
    os << arith << " peak: " << fixed(rep.peak->gflops, 0) << " GFLOP/s (" << rep.peak->how << ").\n";
  else if (rep.peak)
    os << "Peak: " << fixed(rep.peak->gflops, 0) << " GFLOP/s (" << rep.peak->how
       << "), quoted for the implementations that compute in float32.\n";
  else if (stated)
    os << arith << " peak: unknown for this device (give --peak GFLOPS to see % of peak).\n";
  else
    os << "Peak: not stated for " << rep.settings.types.name()
       << " (clgemm computes it in float32, tensor-core peers at the 16-bit rate); give --peak GFLOPS to see "
          "% of a peak you know.\n";
  if (rep.copy)
    os << "Device copy bandwidth: " << fixed(rep.copy->gbs, 1) << " GB/s (" << rep.copy->how
       << "); 'weights GB/s' below is the bytes of weights a call reads over its median time.\n";
  os << "\n";
  Table t({"implementation", "what", "timing"});
  for (const auto& e : rep.impls) {
    if (!e.unavailable.empty()) continue;
    t.add({e.info.name, e.info.description, timing_words(e.info.timing, e.info.hardware)});
  }
  t.print(os);
  for (const auto& e : rep.impls)
    if (!e.unavailable.empty()) os << "not available: " << e.info.name << ": " << e.unavailable << "\n";
  os << "\n";
}

// Whether the implementation was checked at some shape (so that notes about it concern a row).
bool ran(const bench::Report& rep, const std::string& impl) {
  return std::any_of(rep.results.begin(), rep.results.end(),
                     [&impl](const bench::Result& r) { return r.impl == impl && r.checked; });
}

void print_results(const bench::Report& rep, std::ostream& os) {
  // Rows of implementations that are not available at all are left out: listed once above.
  auto shown = [&rep](const bench::Result& r) {
    const bench::ImplEntry* e = rep.impl(r.impl);
    return !e || e->unavailable.empty();
  };
  bool notes = false;
  for (const auto& r : rep.results) notes |= shown(r) && !r.note.empty();
  std::vector<std::string> header = {"shape", "impl", "ms median", "ms min", "GFLOP/s", "% peak", "vs clgemm",
                                     "rel. error", "check"};
  const bool quant = rep.settings.quant.has_value();
  if (quant) header.insert(header.begin() + 5, "weights GB/s");
  if (notes) header.push_back("note");
  Table t(header);
  for (const auto& r : rep.results) {
    if (!shown(r)) continue;
    const bool timed = r.timed();
    std::vector<std::string> row = {r.shape.label(), r.impl, timed ? ms_text(r.stats.median) : "-",
                                    timed ? ms_text(r.stats.min) : "-", timed ? fixed(r.gflops, 1) : "-",
                                    r.percent_peak >= 0 ? fixed(r.percent_peak, 1) : "-",
                                    r.vs_clgemm > 0 ? fixed(r.vs_clgemm, 2) + "x" : "-",
                                    r.checked ? sci(r.check.error) : "-", bench::outcome_name(r.outcome)};
    if (quant) row.insert(row.begin() + 5, r.weight_gbs > 0 ? fixed(r.weight_gbs, 1) : "-");
    if (notes) row.push_back(r.note);
    t.add(row);
  }
  t.print(os);
  const bench::GemmTypes& types = rep.settings.types;
  const bench::Precision arithmetic = bench::compute_arithmetic(types);
  os << "\n'vs clgemm': this implementation's GFLOP/s over clgemm's. 'check': relative error (Frobenius norm) "
        "against a float64 OpenBLAS dgemm of the same inputs"
     << (data_type_bytes(types.in) == 2 ? std::string(" (their ") + data_type_name(types.in) + " values)" : "")
     << ", within "
     << sci(bench::tolerance(arithmetic, types.out, 1024)) << " at K = 1024 for "
     << upper(bench::precision_name(arithmetic)) << " arithmetic (growing like sqrt(K))";
  if (types.out == DataType::F16 || types.out == DataType::BF16)
    os << ", rounding to " << data_type_name(types.out) << " C included";
  for (const auto& e : rep.impls)
    if (e.info.precision != arithmetic && ran(rep, e.info.name))
      os << "; " << e.info.name << ": the bound of " << upper(bench::precision_name(e.info.precision));
  if (quant && types.in != DataType::F32)
    os << "; clgemm, which reads W's blocks, against their exact dequantized values (the others receive them "
          "rounded to "
       << data_type_name(types.in) << ")";
  os << ".\n\n";
}

void print_summary(const bench::Report& rep, std::ostream& os) {
  Table t({"shape", "clgemm GFLOP/s", "best peer", "peer GFLOP/s", "clgemm / peer"});
  for (const auto& c : rep.comparisons)
    t.add({c.shape.label(), c.clgemm_gflops > 0 ? fixed(c.clgemm_gflops, 1) : "-",
           c.best_peer.empty() ? "-" : c.best_peer, c.best_peer_gflops > 0 ? fixed(c.best_peer_gflops, 1) : "-",
           c.ratio > 0 ? fixed(c.ratio, 2) + "x" : "-"});
  const std::string arith = upper(bench::precision_name(bench::compute_arithmetic(rep.settings.types)));
  os << "clgemm against the fastest correct " << arith << " peer (clblast, cublas, openblas) at each shape";
  for (const auto& e : rep.impls)
    if ((e.info.peer || e.info.name == "cublas-tf32") && ran(rep, e.info.name) &&
        e.info.precision != bench::compute_arithmetic(rep.settings.types))
      os << "; " << e.info.name << " is left out: it computes in " << upper(bench::precision_name(e.info.precision))
         << ", a lower precision than " << arith;
  os << ":\n\n";
  t.print(os);
}

// The odd sizes against their neighbours, a row per odd size and a column per implementation
// (only where the run measured both; the odd-pairs preset measures them back to back).
void print_odd_neighbours(const bench::Report& rep, std::ostream& os) {
  if (rep.odd_neighbours.empty()) return;
  std::vector<std::string> impls;
  std::vector<std::pair<size_t, size_t>> sides;  // (odd, neighbour), in run order
  for (const auto& o : rep.odd_neighbours) {
    if (std::find(impls.begin(), impls.end(), o.impl) == impls.end()) impls.push_back(o.impl);
    const std::pair<size_t, size_t> pair{o.odd.m, o.neighbour.m};
    if (std::find(sides.begin(), sides.end(), pair) == sides.end()) sides.push_back(pair);
  }
  std::vector<std::string> header = {"odd shape", "neighbour"};
  header.insert(header.end(), impls.begin(), impls.end());
  Table t(header);
  for (const auto& [side, neighbour] : sides) {
    std::vector<std::string> row = {shape_text({side, side, side}), shape_text({neighbour, neighbour, neighbour})};
    for (const auto& name : impls) {
      std::string cell = "-";
      for (const auto& o : rep.odd_neighbours)
        if (o.odd.m == side && o.impl == name) cell = (o.change >= 0 ? "+" : "") + fixed(100 * o.change, 1) + " %";
      row.push_back(cell);
    }
    t.add(row);
  }
  os << "\nOdd sizes against the neighbouring multiple of 128 (GFLOP/s of N = 129·j over N = 128·j, minus 1; "
        "each implementation against itself):\n\n";
  t.print(os);
}

bench::CallSettings call_settings(const BenchOptions& o, const bench::GemmTypes& types,
                                  std::optional<QuantFormat> quant) {
  bench::CallSettings s;
  s.types = types;
  s.layout = o.layout == "col" ? Layout::ColMajor : Layout::RowMajor;
  s.a_transpose = o.transa == "t" ? Transpose::Yes : Transpose::No;
  s.b_transpose = o.transb == "t" ? Transpose::Yes : Transpose::No;
  s.quant = quant;
  // W's rows, dequantized and one after another, are Bᵀ row-major and B column-major.
  if (quant) s.b_transpose = s.layout == Layout::RowMajor ? Transpose::Yes : Transpose::No;
  s.alpha = o.alpha;
  s.beta = o.beta;
  return s;
}

bench::PlotTool plot_tool(const BenchOptions& o) {
  return o.plot_tool == "gnuplot" ? bench::PlotTool::Gnuplot
         : o.plot_tool == "matplotlib" ? bench::PlotTool::Matplotlib
                                       : bench::PlotTool::Auto;
}

// The files the results go to, and what draws the plot: checked before anything is measured, so
// that a typo in a path costs no run.
void check_outputs(const BenchOptions& o) {
  check_output_file("--save", o.dev.save);
  check_output_file("--csv", o.csv);
  if (o.plot.empty()) return;
  check_output_file("--plot", o.plot);
  bench::require_plot_tool(plot_tool(o));
}

// The shapes of --sizes, each within the kernels' indexing, the device's buffers and the host's
// memory (inputs, results and the float64 reference).
std::vector<bench::Shape> checked_shapes(const BenchOptions& o, const DeviceInfo& device,
                                         const bench::GemmTypes& types, std::optional<QuantFormat> quant) {
  bench::SizeLimits limits;
  limits.min_size = o.min_size;
  limits.max_size = o.max_size ? o.max_size : device.kind == DeviceKind::CPU ? 1024 : 4096;
  if (!o.grouped.empty() && (o.sizes_given || o.batch > 1))
    throw Error(Status::InvalidArgument, "--grouped gives the problems itself: drop --sizes and --batch");
  auto shapes = o.grouped.empty() ? bench::parse_sizes(o.sizes, limits)
                                  : std::vector<bench::Shape>{bench::parse_grouped(o.grouped)};
  if (o.batch > 1)
    for (auto& shape : shapes) shape.batch = o.batch;
  for (const auto& shape : shapes) {
    if (!shape.grouped()) continue;
    size_t a = 0, b = 0, c = 0;
    for (const GemmShape& p : shape.problems) a += p.m * p.k, b += p.k * p.n, c += p.m * p.n;
    // The footprint of one matrix of as many elements as the problems' together.
    const size_t side = std::max({a, b, c});
    check_footprint(device, "--grouped " + o.grouped, gemm_footprint({side, 1, 1}, 2, 3, types.in, types.out));
  }
  if (quant)
    for (const auto& shape : shapes)
      if (shape.k % quant_block_elements(*quant) != 0)
        throw Error(Status::QuantBlockMismatch,
                    "--sizes: shape " + shape.label() + ": K must be a multiple of " +
                        std::to_string(quant_block_elements(*quant)) + ", the block of " + quant_format_name(*quant));
  // On the device A, B, C0 and C; on the host C0, a result and an implementation's own C.
  for (const auto& shape : shapes)
    if (!shape.grouped())
      check_footprint(device, "--sizes: shape " + shape.label(),
                    gemm_footprint({shape.m, shape.n, shape.k}, 2, 3, types.in, types.out, shape.batch));
  return shapes;
}

void run_bench(const BenchOptions& o, const CLI::App& cmd) {
  // Unknown names and precisions are refused before the device is opened.
  const bench::GemmTypes types = bench::parse_precision(o.precision);
  const std::optional<QuantFormat> quant = quant_format(o);
  if (quant) check_quant_options(o, cmd, types);
  bench::expand_impl_names(o.impls);
  check_dimensions({{"--min-size", o.min_size}, {"--max-size", o.max_size}});
  check_outputs(o);
  const DeviceInfo device = open_device(o.dev);
  if (types.in == DataType::F64 && !device.fp64)
    throw Error(Status::NoFp64, "--precision f64 needs cl_khr_fp64, which " + device.name +
                                    " does not offer (see `clgemm devices`)");
  const auto shapes = checked_shapes(o, device, types, quant);
  Context ctx(device);

  bench::Report rep;
  rep.settings = call_settings(o, types, quant);
  rep.options.repeat = o.repeat;
  rep.options.warmup = o.warmup;
  rep.options.time_limit_s = o.time_limit_s;
  rep.options.seed = o.seed ? o.seed : uint64_t(std::chrono::steady_clock::now().time_since_epoch().count());
  rep.cpu_limit_s = o.cpu_limit_s;
  rep.environment = bench::describe_environment(device, bench::this_command_line());
  rep.peak = bench::run_peak(device, types, o.peak);
  if (quant) {
    progress("measuring the device's copy bandwidth...");
    rep.copy = bench::measure_copy_bandwidth(ctx);
  }

  progress("loading implementations...");
  bench::ImplList impls = bench::make_impls(
      o.impls, ctx, bench::ImplOptions{o.cpu_limit_s, 1 + o.warmup + o.repeat, edges_toggle(o.edges), types, quant});
  const bench::Precision peak_arithmetic = rep.peak ? rep.peak->arithmetic : bench::compute_arithmetic(types);
  for (const auto& impl : impls)
    rep.impls.push_back(
        {impl->info(), impl->unavailable(), bench::peak_applies(impl->info(), device, peak_arithmetic)});

  bench::RunOptions run = rep.options;
  run.progress = [](const std::string& text, bool minor) { progress(text, minor); };
  rep.results = bench::run_benchmark(shapes, rep.settings, impls, run);
  progress_done();
  bench::finish_report(rep);

  emit_json(o.dev, bench::to_json(rep));
  if (!o.csv.empty()) {
    std::ofstream out(o.csv);
    bench::write_csv(rep, out);
    if (!out) throw Error(Status::InvalidArgument, "cannot write --csv file '" + o.csv + "'");
  }
  if (!o.dev.json) {
    print_header(rep, std::cout);
    print_results(rep, std::cout);
    print_summary(rep, std::cout);
    print_odd_neighbours(rep, std::cout);
  }
  // After the table, so that a failing plot (nothing correct to draw, the tool's own error) costs
  // the picture and not the results; the tool itself was checked before the run.
  if (!o.plot.empty()) {
    bench::plot_report(rep, o.plot, plot_tool(o));
    std::cerr << "plot written to " << o.plot << "\n";
  }

  // A wrong peer is the peer's problem and stays a flagged row; a wrong or failed clgemm (or
  // ladder rung) is ours, and the command fails so that scripts cannot miss it.
  for (const auto& r : rep.results) {
    const bool ours = r.impl == "clgemm" || r.impl.rfind("ladder:", 0) == 0;
    if (r.outcome == bench::Outcome::Wrong)
      std::cerr << "warning: " << r.impl << " gave a wrong result at " << r.shape.label() << ": " << r.note << "\n";
    if (ours && r.outcome == bench::Outcome::Wrong)
      throw WrongResult(r.impl + " was wrong at " + r.shape.label() + ": " + r.note +
                        "; please report this with the device and options");
    if (ours && r.outcome == bench::Outcome::Failed)
      throw Error(Status::InternalError, r.impl + " failed at " + r.shape.label() + ": " + r.note);
  }
}

std::string list_of(const std::vector<std::pair<std::string, std::string>>& items) {
  std::string out;
  for (const auto& [name, what] : items) out += "\n  " + name + ": " + what;
  return out;
}

}  // namespace

void add_bench_command(CLI::App& app) {
  auto o = std::make_shared<BenchOptions>();
  auto* cmd = app.add_subcommand("bench", "clgemm beside CLBlast, cuBLAS, OpenBLAS and the ladder on the same inputs");
  add_device_options(*cmd, o->dev);
  cmd->add_option("--sizes,-s", o->sizes,
                  "comma-separated: N (square), MxNxK, A:B (doubling), A:B:STEP, A:B:xFACTOR, or presets:" +
                      list_of(bench::preset_descriptions()))
      ->capture_default_str();
  cmd->add_option("--grouped", o->grouped,
                  "one grouped call (clgemm::gemm_grouped; cuBLAS's GroupedBatched) instead of --sizes: random (64 "
                  "problems, each side uniform in 64..1024, seed 1), random:COUNT:MIN:MAX[:SEED], moe (a "
                  "mixture-of-experts layer: 8192 rows routed unevenly to 64 experts of 14336x4096, seed 1), "
                  "moe:EXPERTS:N:K[:ROWS[:SEED]], or @FILE with a problem MxNxK per line");
  cmd->add_option("--batch", o->batch,
                  "run every shape as one strided-batched call of this many items (clgemm::gemm_strided_batched; "
                  "CLBlast's and cuBLAS's StridedBatched calls); BxMxNxK in --sizes gives one shape its own count")
      ->check(CLI::Range(size_t(1), bench::kMaxBatch))
      ->capture_default_str();
  cmd->add_option("--min-size", o->min_size, "smallest size the presets use")->check(kPositiveSize)->capture_default_str();
  cmd->add_option("--max-size", o->max_size, "largest size the presets use (default 4096 on a GPU, 1024 on a CPU device)")
      ->check(kPositiveSize);
  cmd->add_option("--impl,-i", o->impls, "implementations, comma-separated:" + list_of(bench::impl_names()))
      ->delimiter(',')
      ->capture_default_str();
  cmd->add_option("--layout", o->layout, "storage of A, B and C")->check(CLI::IsMember({"row", "col"}))->capture_default_str();
  cmd->add_option("--transa", o->transa, "use A transposed (t) or not (n)")->check(CLI::IsMember({"n", "t"}))->capture_default_str();
  cmd->add_option("--transb", o->transb, "use B transposed (t) or not (n)")->check(CLI::IsMember({"n", "t"}))->capture_default_str();
  cmd->add_option("--alpha", o->alpha, "C = alpha*op(A)*op(B) + beta*C")->capture_default_str();
  cmd->add_option("--beta", o->beta, "with beta != 0, C is reset (untimed) before every run")->capture_default_str();
  cmd->add_option("--repeat,-r", o->repeat, "timed runs per implementation and shape (at least 10)")
      ->check(CLI::Range(10, 100000))
      ->capture_default_str();
  cmd->add_option("--warmup", o->warmup, "untimed runs after the checked one")->check(CLI::Range(0, 1000))->capture_default_str();
  cmd->add_option("--time-limit", o->time_limit_s,
                  "check but do not time an implementation whose repeats would take longer than this (seconds)")
      ->check(kFinitePositive)
      ->capture_default_str();
  cmd->add_option("--cpu-limit", o->cpu_limit_s, "run the CPU triple loop only where all its runs fit in this (seconds)")
      ->check(kFiniteNonNegative)
      ->capture_default_str();
  cmd->add_option("--precision", o->precision,
                  "element types of A, B and C, and every implementation's entry point for them (n/a where it has "
                  "none):" + list_of(bench::precision_names()))
      ->capture_default_str();
  cmd->add_option("--quant", o->quant,
                  "B is quantized weights W in this GGUF block format (q8_0, q4_0, q4_k, q6_k), quantized from random "
                  "values: C = A*dequant(W)^T, A of --precision's input type. clgemm runs gemm_quantized on W's "
                  "blocks; clgemm-dense and the peers compute on the dequantized weights in A's type. Adds the "
                  "weight bytes read per second, and the device's copy bandwidth");
  cmd->add_option("--peak", o->peak,
                  "the device's peak in GFLOP/s for the run's arithmetic (FP32; FP64 with --precision f64), where "
                  "clgemm does not know it")
      ->check(kFinitePositive);
  cmd->add_option("--csv", o->csv, "also write the results as CSV to this file");
  cmd->add_option("--plot", o->plot, "draw GFLOP/s against size into this PNG file");
  cmd->add_option("--plot-tool", o->plot_tool, "what draws --plot: gnuplot, matplotlib or auto (gnuplot if on PATH)")
      ->check(CLI::IsMember({"auto", "gnuplot", "matplotlib"}))
      ->capture_default_str();
  cmd->add_option("--edges", o->edges,
                  "how clgemm runs a C that its tiles do not divide: auto (the planner's choice), split (the "
                  "interior and the leftover rows and columns as three GEMMs) or whole (one GEMM, padded tiles)")
      ->check(CLI::IsMember({"auto", "split", "whole"}))
      ->capture_default_str();
  cmd->add_option("--seed", o->seed, "seed of the random inputs (default: from the clock; shape i uses seed + i)");
  cmd->callback([o, cmd] {
    o->sizes_given = cmd->get_option("--sizes")->count() > 0;
    // A grouped call's peers are cuBLAS's grouped form and one cuBLAS call per problem.
    if (!o->grouped.empty() && cmd->get_option("--impl")->count() == 0) o->impls.push_back("cublas-loop");
    // A quantized run's comparisons: clgemm's own dense GEMM and the dense peers.
    if (!o->quant.empty() && cmd->get_option("--impl")->count() == 0)
      o->impls = {"clgemm", "clgemm-dense", "clblast", "cublas", "openblas"};
    run_bench(*o, *cmd);
  });
}

}  // namespace clgemm::cli
