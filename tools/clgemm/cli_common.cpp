// cli_common.cpp — shared CLI helpers: device choice, tables, number formatting, progress.
#include "cli_common.hpp"

#include <algorithm>
#include <cctype>
#include <clgemm/error.hpp>

#include <cstdio>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <unistd.h>

namespace clgemm::cli {

const CLI::Validator kPositiveSize(
    [](std::string& s) -> std::string {
      if (s.empty() || !std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c); }))
        return "'" + s + "' is not a positive integer";
      if (s.size() > 12) return "'" + s + "' is too large";
      if (std::stoull(s) == 0) return "must be at least 1";
      return "";
    },
    "POSITIVE", "positive size");

void add_device_options(CLI::App& cmd, DeviceOptions& opts) {
  cmd.add_option("--device,-d", opts.device,
                 "device index (see `clgemm devices`) or part of its name; default: $CLGEMM_DEVICE, else the "
                 "first GPU, else the first CPU device");
  cmd.add_flag("--json", opts.json, "print JSON instead of a table");
  cmd.add_option("--save", opts.save, "also write the JSON results to this file");
}

void emit_json(const DeviceOptions& opts, const nlohmann::json& doc) {
  if (opts.json) std::cout << doc.dump(2) << "\n";
  if (!opts.save.empty()) {
    std::ofstream out(opts.save);
    out << doc.dump(2) << "\n";
    if (!out) throw Error(Status::InvalidArgument, "cannot write --save file '" + opts.save + "'");
  }
}

GemmOptions::Toggle edges_toggle(const std::string& edges) {
  return edges == "split" ? GemmOptions::Toggle::On : edges == "whole" ? GemmOptions::Toggle::Off : GemmOptions::Toggle::Auto;
}

DeviceInfo open_device(const DeviceOptions& opts) {
  DeviceInfo d = choose_device(opts.device);
  std::cerr << "device " << d.index << ": " << d.name << " (" << d.platform << ", " << d.kind_name() << ", "
            << d.compute_units << " compute units)\n";
  return d;
}

namespace {
// "12.5", "-", "-3e-05", "1.2x" read as numbers; "-DTS=16" or "ok" do not.
bool looks_numeric(const std::string& c) {
  auto digit = [](char ch) { return std::isdigit(static_cast<unsigned char>(ch)) != 0; };
  if (c == "-") return true;
  if (c[0] == '-' || c[0] == '.') return c.size() > 1 && (digit(c[1]) || c[1] == '.');
  return digit(c[0]);
}
}  // namespace

void Table::print(std::ostream& os) const {
  std::vector<size_t> width(header_.size(), 0);
  for (size_t i = 0; i < header_.size(); ++i) width[i] = header_[i].size();
  for (const auto& r : rows_)
    for (size_t i = 0; i < r.size() && i < width.size(); ++i) width[i] = std::max(width[i], r[i].size());
  // Numbers read best right-aligned, words left-aligned: a column is numeric when every cell
  // in it starts like a number. The first column names the row and is always left-aligned.
  std::vector<bool> numeric(width.size(), true);
  numeric[0] = false;
  for (const auto& r : rows_)
    for (size_t i = 1; i < r.size() && i < width.size(); ++i)
      if (!r[i].empty() && !looks_numeric(r[i])) numeric[i] = false;
  auto line = [&](const std::vector<std::string>& r) {
    for (size_t i = 0; i < width.size(); ++i) {
      const std::string cell = i < r.size() ? r[i] : "";
      if (i) os << "  ";
      if (numeric[i]) os << std::right << std::setw(int(width[i])) << cell;
      else if (i + 1 < width.size()) os << std::left << std::setw(int(width[i])) << cell;
      else os << cell;  // no trailing spaces after the last column
    }
    os << "\n";
  };
  line(header_);
  size_t total = 0;
  for (size_t w : width) total += w + 2;
  os << std::string(total - 2, '-') << "\n";
  for (const auto& r : rows_) line(r);
}

std::string fixed(double v, int decimals) {
  std::ostringstream os;
  os << std::fixed << std::setprecision(decimals) << v;
  return os.str();
}

std::string sci(double v) {
  std::ostringstream os;
  os << std::scientific << std::setprecision(2) << v;
  return os.str();
}

std::string human_bytes(double bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  while (bytes >= 1024 && u < 4) {
    bytes /= 1024;
    ++u;
  }
  return fixed(bytes, bytes < 10 && u > 0 ? 1 : 0) + " " + units[u];
}

double median(std::vector<double> v) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

namespace {
bool stderr_is_terminal() {
  static const bool tty = isatty(fileno(stderr));
  return tty;
}
}  // namespace

void progress(const std::string& text, bool minor) {
  // On a terminal the line is rewritten in place; in a log only the major steps are kept.
  if (stderr_is_terminal()) std::cerr << "\r\033[K" << text << std::flush;
  else if (!minor) std::cerr << text << "\n";
}

void progress_done() {
  if (stderr_is_terminal()) std::cerr << "\r\033[K" << std::flush;
}

}  // namespace clgemm::cli
