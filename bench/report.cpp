// bench/report.cpp — derived numbers: % of peak, ratios to clgemm and to the best peer.
#include "bench/report.hpp"

namespace clgemm::bench {

const ImplEntry* Report::impl(const std::string& name) const {
  for (const auto& e : impls)
    if (e.info.name == name) return &e;
  return nullptr;
}

namespace {
bool usable(const Result& r) { return r.outcome == Outcome::Ok && r.timed(); }

bool cube(const Shape& s) { return s.m == s.n && s.n == s.k; }

// Every usable odd cube (side 129·j) with a usable neighbour (side 128·j) of the same
// implementation: the nearest in run order, an earlier one on a tie.
std::vector<OddNeighbour> odd_neighbours(const std::vector<Result>& results) {
  std::vector<OddNeighbour> out;
  for (size_t i = 0; i < results.size(); ++i) {
    const Result& odd = results[i];
    if (!usable(odd) || !cube(odd.shape) || odd.shape.m % 129 != 0) continue;
    const size_t side = odd.shape.m / 129 * 128;
    size_t best = results.size(), distance = 0;
    for (size_t j = 0; j < results.size(); ++j) {
      const Result& r = results[j];
      if (!usable(r) || r.impl != odd.impl || !cube(r.shape) || r.shape.m != side) continue;
      const size_t d = j < i ? i - j : j - i;
      if (best == results.size() || d < distance) best = j, distance = d;
    }
    if (best == results.size()) continue;
    const Result& n = results[best];
    out.push_back({odd.impl, odd.shape, n.shape, odd.gflops, n.gflops, odd.gflops / n.gflops - 1});
  }
  return out;
}
}  // namespace

void finish_report(Report& rep) {
  rep.comparisons.clear();
  for (size_t i = 0; i < rep.results.size();) {
    // Results of one shape are contiguous (run_benchmark's order).
    size_t end = i;
    while (end < rep.results.size() && rep.results[end].shape == rep.results[i].shape) ++end;
    Comparison c;
    c.shape = rep.results[i].shape;
    // Peers count in the arithmetic clgemm computes the run's types in: a lower one (TF32, f16
    // sums) is a different precision, however fast.
    const Precision arithmetic = compute_arithmetic(rep.settings.types);
    for (size_t j = i; j < end; ++j) {
      const Result& r = rep.results[j];
      const ImplEntry* e = rep.impl(r.impl);
      if (!usable(r)) continue;
      if (r.impl == "clgemm") c.clgemm_gflops = r.gflops;
      if (e && e->info.peer && e->info.precision == arithmetic && r.gflops > c.best_peer_gflops) {
        c.best_peer_gflops = r.gflops;
        c.best_peer = r.impl;
      }
    }
    if (c.clgemm_gflops > 0 && c.best_peer_gflops > 0) c.ratio = c.clgemm_gflops / c.best_peer_gflops;
    for (size_t j = i; j < end; ++j) {
      Result& r = rep.results[j];
      const ImplEntry* e = rep.impl(r.impl);
      r.percent_peak = -1;
      r.vs_clgemm = 0;
      if (!usable(r)) continue;
      if (rep.peak && e && e->peak_applies) r.percent_peak = 100.0 * r.gflops / rep.peak->gflops;
      if (c.clgemm_gflops > 0) r.vs_clgemm = r.gflops / c.clgemm_gflops;
    }
    rep.comparisons.push_back(c);
    i = end;
  }
  rep.odd_neighbours = odd_neighbours(rep.results);
}

}  // namespace clgemm::bench
