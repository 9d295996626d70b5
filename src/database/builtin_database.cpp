// builtin_database.cpp — the tuning entries shipped with the library: the JSON files under
// data/tuning, one per device the project measured (docs/tuning.md lists them), embedded at build
// time and read as one database.
#include "database/database.hpp"

#include "runtime/embedded_files.hpp"

namespace clgemm::detail {

const TuningDatabase& builtin_database() {
  static const TuningDatabase db = [] {
    TuningDatabase all;
    for (const EmbeddedFile& file : embedded_tuning_files()) {
      TuningDatabase one = TuningDatabase::parse(file.text);
      all.entries.insert(all.entries.end(), one.entries.begin(), one.entries.end());
      for (const auto& why : one.skipped) all.skipped.push_back(std::string(file.path) + ": " + why);
    }
    return all;
  }();
  return db;
}

}  // namespace clgemm::detail
