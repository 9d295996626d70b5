// bench/writers.cpp — JSON and CSV output of a benchmark report.
#include "bench/writers.hpp"

#include <cmath>
#include <iomanip>
#include <ostream>
#include <sstream>

namespace clgemm::bench {

namespace {

const char* hardware_name(Hardware h) {
  switch (h) {
    case Hardware::OpenCLDevice: return "opencl device";
    case Hardware::HostCPU: return "host cpu";
    case Hardware::CudaDevice: return "cuda device";
  }
  return "?";
}

// JSON has no infinity or NaN: an unknown number is null.
nlohmann::json number_or_null(double v, bool known = true) {
  return known && std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr);
}

std::string num(double v) {
  std::ostringstream os;
  os << std::setprecision(6) << v;
  return os.str();
}

}  // namespace

nlohmann::json to_json(const Report& rep) {
  nlohmann::json doc;
  doc["tool"] = "clgemm bench";
  doc["environment"] = rep.environment;
  const auto& s = rep.settings;
  doc["settings"] = {{"layout", s.layout == Layout::RowMajor ? "row-major" : "column-major"},
                     {"a_transpose", s.a_transpose == Transpose::Yes},
                     {"b_transpose", s.b_transpose == Transpose::Yes},
                     {"alpha", s.alpha},
                     {"beta", s.beta},
                     {"description", s.describe()},
                     {"precision", s.types.name()},
                     {"quant", s.quant ? nlohmann::json(quant_format_name(*s.quant)) : nlohmann::json()},
                     {"a_type", data_type_name(s.types.in)},
                     {"b_type", data_type_name(s.types.in)},
                     {"c_type", data_type_name(s.types.out)},
                     {"compute", precision_name(compute_arithmetic(s.types))},
                     {"repeat", rep.options.repeat},
                     {"warmup", rep.options.warmup},
                     {"time_limit_s", rep.options.time_limit_s},
                     {"cpu_limit_s", rep.cpu_limit_s},
                     {"seed", rep.options.seed}};
  doc["peak"] = rep.peak ? nlohmann::json{{"gflops", rep.peak->gflops},
                                          {"how", rep.peak->how},
                                          {"arithmetic", precision_name(rep.peak->arithmetic)}}
                         : nlohmann::json();
  doc["copy_bandwidth"] = rep.copy ? nlohmann::json{{"gbs", rep.copy->gbs}, {"bytes", rep.copy->bytes},
                                                    {"how", rep.copy->how}}
                                   : nlohmann::json();
  doc["implementations"] = nlohmann::json::array();
  for (const auto& e : rep.impls)
    doc["implementations"].push_back({{"name", e.info.name},
                                      {"description", e.info.description},
                                      {"peer", e.info.peer},
                                      {"quantized", e.info.quantized},
                                      {"arithmetic", precision_name(e.info.precision)},
                                      {"timing", timing_name(e.info.timing)},
                                      {"hardware", hardware_name(e.info.hardware)},
                                      {"available", e.unavailable.empty()},
                                      {"unavailable_reason", e.unavailable},
                                      {"peak_applies", e.peak_applies}});
  doc["results"] = nlohmann::json::array();
  for (const auto& r : rep.results) {
    nlohmann::json j = {{"group", r.shape.group}, {"x", r.shape.x},   {"m", r.shape.m},
                        {"n", r.shape.n},         {"k", r.shape.k},   {"batch", r.shape.batch},
                        {"impl", r.impl},
                        {"precision", s.types.name()},
                        {"status", outcome_name(r.outcome)},          {"note", r.note},
                        {"checked", r.checked},   {"timed", r.timed()}};
    j["relative_error"] = number_or_null(r.check.error, r.checked);
    j["tolerance"] = number_or_null(r.check.tolerance, r.checked);
    j["times_s"] = r.times;
    j["median_s"] = number_or_null(r.stats.median, r.timed());
    j["min_s"] = number_or_null(r.stats.min, r.timed());
    j["max_s"] = number_or_null(r.stats.max, r.timed());
    j["mean_s"] = number_or_null(r.stats.mean, r.timed());
    j["stddev_s"] = number_or_null(r.stats.stddev, r.timed());
    j["gflops"] = number_or_null(r.gflops, r.timed());
    j["gflops_best"] = number_or_null(r.gflops_best, r.timed());
    j["percent_peak"] = number_or_null(r.percent_peak, r.percent_peak >= 0);
    j["vs_clgemm"] = number_or_null(r.vs_clgemm, r.vs_clgemm > 0);
    j["weight_gbs"] = number_or_null(r.weight_gbs, r.weight_gbs > 0);
    // A grouped call's problems, [m, n, k] each, so that another program can run the same ones.
    if (r.shape.grouped()) {
      j["problems"] = nlohmann::json::array();
      for (const GemmShape& p : r.shape.problems) j["problems"].push_back({p.m, p.n, p.k});
    }
    doc["results"].push_back(j);
  }
  doc["comparisons"] = nlohmann::json::array();
  for (const auto& c : rep.comparisons)
    doc["comparisons"].push_back({{"group", c.shape.group},
                                  {"x", c.shape.x},
                                  {"m", c.shape.m},
                                  {"n", c.shape.n},
                                  {"k", c.shape.k},
                                  {"batch", c.shape.batch},
                                  {"clgemm_gflops", number_or_null(c.clgemm_gflops, c.clgemm_gflops > 0)},
                                  {"best_peer", c.best_peer},
                                  {"best_peer_gflops", number_or_null(c.best_peer_gflops, c.best_peer_gflops > 0)},
                                  {"ratio", number_or_null(c.ratio, c.ratio > 0)}});
  doc["odd_neighbours"] = nlohmann::json::array();
  for (const auto& o : rep.odd_neighbours)
    doc["odd_neighbours"].push_back({{"impl", o.impl},
                                     {"odd", o.odd.m},
                                     {"neighbour", o.neighbour.m},
                                     {"odd_gflops", o.odd_gflops},
                                     {"neighbour_gflops", o.neighbour_gflops},
                                     {"change", o.change}});
  return doc;
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

void write_csv(const Report& rep, std::ostream& out) {
  out << "group,x,m,n,k,impl,status,median_s,min_s,gflops,gflops_best,percent_peak,vs_clgemm,relative_error,"
         "tolerance,precision,arithmetic,timing,note,batch,weight_gbs\n";
  for (const auto& r : rep.results) {
    const ImplEntry* e = rep.impl(r.impl);
    const auto opt = [](bool known, double v) { return known && std::isfinite(v) ? num(v) : std::string(); };
    out << csv_field(r.shape.group) << ',' << r.shape.x << ',' << r.shape.m << ',' << r.shape.n << ',' << r.shape.k
        << ',' << csv_field(r.impl) << ',' << outcome_name(r.outcome) << ',' << opt(r.timed(), r.stats.median) << ','
        << opt(r.timed(), r.stats.min) << ',' << opt(r.timed(), r.gflops) << ',' << opt(r.timed(), r.gflops_best)
        << ',' << opt(r.percent_peak >= 0, r.percent_peak) << ',' << opt(r.vs_clgemm > 0, r.vs_clgemm) << ','
        << opt(r.checked, r.check.error) << ',' << opt(r.checked, r.check.tolerance) << ','
        << rep.settings.types.name() << ',' << (e ? precision_name(e->info.precision) : "") << ','
        << csv_field(e ? timing_name(e->info.timing) : "")
        << ',' << csv_field(r.note) << ',' << r.shape.batch << ',' << opt(r.weight_gbs > 0, r.weight_gbs) << '\n';
  }
}

}  // namespace clgemm::bench
