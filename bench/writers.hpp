// bench/writers.hpp — a report as JSON (everything, for tools) and as CSV (one row per shape and
// implementation, for spreadsheets and plotting scripts).
#pragma once

#include "bench/report.hpp"

#include <nlohmann/json.hpp>

#include <iosfwd>
#include <string>

namespace clgemm::bench {

nlohmann::json to_json(const Report& report);

// The CSV header and rows; fields that hold a comma, quote or line break are quoted (RFC 4180).
void write_csv(const Report& report, std::ostream& out);

// One CSV field, quoted when it must be.
std::string csv_field(const std::string& s);

}  // namespace clgemm::bench
