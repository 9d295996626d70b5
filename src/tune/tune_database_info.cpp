// tune_database_info.cpp — the tuning databases described for programs (clgemm/tune.hpp): what
// `clgemm tune --show` prints, and the small facts about tuning a program needs to name.
#include <clgemm/tune.hpp>

#include "database/database.hpp"
#include "kernels/descriptor.hpp"
#include "kernels/gemm/tunable_kernels.hpp"
#include "runtime/warnings.hpp"

namespace clgemm {

namespace {

TuningDatabaseInfo describe(const detail::TuningDatabase& db, const std::string& path) {
  TuningDatabaseInfo info;
  info.path = path;
  info.json = db.dump();
  for (const auto& e : db.entries) {
    TuningEntryInfo i;
    i.device = e.device, i.architecture = e.architecture, i.shape_class = e.shape_class, i.kernel = e.kernel;
    i.precision = e.precision;
    i.gflops = e.gflops;
    i.shape = e.shape;
    i.alternatives = e.alternatives.size();
    i.points = e.points.size();
    for (const auto& a : e.alternatives) i.points += a.points.size();
    i.date = e.date;
    i.params = e.params;
    info.entries.push_back(std::move(i));
  }
  return info;
}

}  // namespace

const std::vector<std::string>& tuning_shape_classes() { return detail::shape_classes(); }

const std::vector<std::string>& tunable_kernel_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const detail::KernelFamily& f : detail::tunable_families()) out.push_back(f.id);
    return out;
  }();
  return names;
}

std::string user_tuning_database_path() { return detail::user_database_path(); }

std::string kernel_params_text(const KernelParams& params) { return detail::build_options(params); }

TuningDatabaseInfo read_tuning_database(const std::string& path) {
  const std::string file = path.empty() ? detail::user_database_path() : path;
  std::string warning;
  const auto db = detail::load_database(file, &warning);
  // The library never prints: a damaged file is the program's to report (clgemm/warnings.hpp).
  if (!warning.empty()) detail::warn(warning);
  return describe(db, file);
}

TuningDatabaseInfo builtin_tuning_database() { return describe(detail::builtin_database(), ""); }

}  // namespace clgemm
