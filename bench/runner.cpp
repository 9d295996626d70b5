// bench/runner.cpp — the loop over shapes and implementations, and the per-run protocol.
#include "bench/runner.hpp"

#include "bench/problem.hpp"

#include <cmath>
#include <exception>
#include <sstream>

namespace clgemm::bench {

const char* outcome_name(Outcome o) {
  switch (o) {
    case Outcome::Ok: return "ok";
    case Outcome::Wrong: return "WRONG";
    case Outcome::NotApplicable: return "n/a";
    case Outcome::Failed: return "FAILED";
  }
  return "?";
}

namespace {

std::string first_line(const std::string& s) { return s.substr(0, s.find('\n')); }

std::string seconds_text(double s) {
  std::ostringstream os;
  os.precision(3);
  os << s << " s";
  return os.str();
}

// Releases an implementation's problem when the measurement ends, however it ends.
struct ReleaseGuard {
  Implementation& impl;
  ~ReleaseGuard() {
    try {
      impl.release();
    } catch (...) {
      // Nothing sensible to do: the row already says what went wrong.
    }
  }
};

// The weights one call reads: W's rows, or B in the activations' type.
size_t weight_bytes(const Problem& p, bool quantized) {
  const size_t rows = p.shape.n * p.batch();
  return quantized ? rows * p.w_row_bytes : rows * p.shape.k * data_type_bytes(p.settings.types.in);
}

void measure(Implementation& impl, const Problem& p, const std::vector<double>& ref, const RunOptions& o,
             const std::string& where, Result& r) {
  const auto say = [&](const std::string& what, bool minor) {
    if (o.progress) o.progress(where + " " + impl.info().name + ": " + what, minor);
  };
  const bool reset_each_run = p.settings.beta != 0.0f;
  say("preparing", true);
  impl.prepare(p);
  ReleaseGuard guard{impl};

  // The checked run comes first, from C = C0 (random, so skipped elements show). It is also the
  // first warm-up: kernel builds, thread pools and caches happen here, outside the timed runs.
  say("checked run", true);
  impl.reset_c();
  double last = impl.run();
  const HostMatrix c = impl.result();
  r.check = check_result(c, ref, impl.info().precision, p.shape.k);
  if (c.type() != p.settings.types.out) {
    // A C read back in another type than the call's is a wrong result, however close its values.
    r.check.ok = false;
    r.check.problem = std::string("result is stored as ") + data_type_name(c.type()) + ", C is " +
                      data_type_name(p.settings.types.out);
  }
  r.checked = true;
  r.outcome = r.check.ok ? Outcome::Ok : Outcome::Wrong;
  if (!r.check.ok) r.note = r.check.problem;

  for (int w = 0; w < o.warmup; ++w) {
    if (reset_each_run) impl.reset_c();
    last = impl.run();
  }
  if (last * o.repeat > o.time_limit_s) {
    const std::string why = "not timed: one run takes " + seconds_text(last) + ", " + std::to_string(o.repeat) +
                            " repeats would exceed --time-limit " + seconds_text(o.time_limit_s);
    r.note = r.note.empty() ? why : r.note + "; " + why;
    return;
  }
  for (int i = 0; i < o.repeat; ++i) {
    say("run " + std::to_string(i + 1) + "/" + std::to_string(o.repeat), true);
    if (reset_each_run) impl.reset_c();  // untimed: beta·C must see C0 every time
    r.times.push_back(impl.run());
  }
  r.stats = summarize(r.times);
  r.gflops = gflops(p.flops(), r.stats.median);
  r.gflops_best = gflops(p.flops(), r.stats.min);
  if (p.settings.quant && r.stats.median > 0)
    r.weight_gbs = double(weight_bytes(p, impl.info().quantized)) / r.stats.median / 1e9;
}

}  // namespace

std::vector<Result> run_benchmark(const std::vector<Shape>& shapes, const CallSettings& settings, ImplList& impls,
                                  const RunOptions& o) {
  std::vector<std::string> unavailable;
  for (auto& impl : impls) unavailable.push_back(impl->unavailable());

  std::vector<Result> results;
  for (size_t i = 0; i < shapes.size(); ++i) {
    const Shape& shape = shapes[i];
    const std::string where = "[" + std::to_string(i + 1) + "/" + std::to_string(shapes.size()) + " " +
                              shape.label() + "]";
    if (o.progress) o.progress(where + " inputs and float64 reference", false);
    const Problem p = make_problem(shape, settings, o.seed + i);
    const std::vector<double> ref = reference_result(p);
    // Implementations that read W get the product of its exact values; with float32 activations
    // B holds exactly those, so one reference serves both.
    const bool exact_b = !settings.quant || settings.types.in == DataType::F32;
    const std::vector<double> quantized_ref = exact_b ? std::vector<double>{} : quantized_reference(p);
    for (size_t j = 0; j < impls.size(); ++j) {
      Implementation& impl = *impls[j];
      Result r;
      r.shape = shape;
      r.impl = impl.info().name;
      if (!unavailable[j].empty()) {
        r.note = "not available: " + unavailable[j];
      } else if (p.batch() > 1 && !impl.info().batched) {
        r.note = "no strided-batched call (" + impl.info().description + ")";
      } else if (p.grouped() && !impl.info().grouped) {
        r.note = "no grouped call (" + impl.info().description + ")";
      } else if (std::string why = impl.unsupported(p); !why.empty()) {
        r.note = why;
      } else {
        try {
          const bool own_ref = impl.info().quantized && !exact_b;
          measure(impl, p, own_ref ? quantized_ref : ref, o, where, r);
        } catch (const std::exception& e) {
          r.outcome = Outcome::Failed;
          r.note = first_line(e.what());
          r.times.clear();
        }
      }
      results.push_back(std::move(r));
    }
  }
  return results;
}

}  // namespace clgemm::bench
