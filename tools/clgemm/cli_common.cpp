// cli_common.cpp — shared CLI helpers: device choice, tables, number formatting, progress.
#include "cli_common.hpp"

#include "bench/shapes.hpp"

#include <clgemm/error.hpp>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>

#include <fcntl.h>
#include <sys/stat.h>
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

namespace {

CLI::Validator finite_number(bool positive) {
  return CLI::Validator(
      [positive](std::string& s) -> std::string {
        double v = 0;
        size_t used = 0;
        try {
          v = std::stod(s, &used);
        } catch (const std::exception&) {
          used = 0;
        }
        const std::string allowed = positive ? "a finite number above 0" : "a finite number, 0 or more";
        if (used == 0 || used != s.size() || !std::isfinite(v) || (positive ? !(v > 0) : v < 0))
          return "'" + s + "' is not " + allowed;
        return "";
      },
      positive ? "NUMBER > 0" : "NUMBER >= 0");
}

std::string bytes_text(double bytes) { return fixed(bytes, 0) + " bytes (" + human_bytes(bytes) + ")"; }

double physical_memory_bytes() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page > 0 ? double(pages) * double(page) : 0.0;
}

}  // namespace

const CLI::Validator kFiniteNonNegative = finite_number(false);
const CLI::Validator kFinitePositive = finite_number(true);

void check_output_file(const std::string& option, const std::string& path) {
  if (path.empty()) return;
  const std::string named = option + " '" + path + "'";
  struct stat st {};
  const bool existed = stat(path.c_str(), &st) == 0;
  if (existed && S_ISDIR(st.st_mode)) throw Error(Status::InvalidArgument, named + " is a folder; give a file name");
  const int fd = open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT, 0666);
  if (fd < 0) {
    const int err = errno;
    const std::string folder = std::filesystem::path(path).parent_path().string();
    const std::string why = err == ENOENT ? "the folder '" + (folder.empty() ? "." : folder) + "' does not exist"
                                          : std::strerror(err);
    throw Error(Status::InvalidArgument,
                named + " cannot be written: " + why + "; give a file in a folder that exists and is writable");
  }
  close(fd);
  if (!existed) unlink(path.c_str());
}

void check_dimensions(const std::vector<std::pair<std::string, size_t>>& options) {
  for (const auto& [option, value] : options) bench::check_dimension(option, value);
}

Footprint gemm_footprint(const GemmShape& s, int c_on_device, int c_on_host, DataType in, DataType out,
                         size_t items) {
  const double count = double(items);
  const double a = double(s.m) * double(s.k) * count, b = double(s.k) * double(s.n) * count,
               c = double(s.m) * double(s.n) * count;
  const double in_bytes = double(data_type_bytes(in)), out_bytes = double(data_type_bytes(out));
  const auto matrix = [items](const char* name, size_t rows, size_t cols, DataType t) {
    return std::string(name) + " (" + (items > 1 ? std::to_string(items) + " items of " : std::string()) +
           std::to_string(rows) + "x" + std::to_string(cols) + " " +
           (t == DataType::F32 ? std::string("floats") : data_type_name(t) + std::string(" elements")) + ")";
  };
  Footprint f;
  f.buffers.push_back({matrix("A", s.m, s.k, in), in_bytes * a});
  f.buffers.push_back({matrix("B", s.k, s.n, in), in_bytes * b});
  for (int i = 0; i < c_on_device; ++i) f.buffers.push_back({matrix("C", s.m, s.n, out), out_bytes * c});
  f.host_bytes = (in_bytes + 8) * (a + b) + (8 + out_bytes * c_on_host) * c;
  return f;
}

DataType data_type_option(const std::string& option, const std::string& value) {
  for (const DataType t : {DataType::F32, DataType::F64, DataType::F16, DataType::BF16})
    if (value == data_type_name(t)) return t;
  throw Error(Status::InvalidArgument, option + " '" + value + "' is not an element type; the types are f32, f64, f16 and bf16");
}

void check_footprint(const DeviceInfo& d, const std::string& what, const Footprint& f) {
  double total = 0;
  for (const auto& [name, bytes] : f.buffers) {
    if (bytes > double(d.max_alloc_bytes))
      throw Error(Status::InvalidArgument,
                  what + ": " + name + " needs " + bytes_text(bytes) + ", more than the " +
                      bytes_text(double(d.max_alloc_bytes)) + " that " + d.name +
                      " allows in one buffer (CL_DEVICE_MAX_MEM_ALLOC_SIZE); choose smaller sizes");
    total += bytes;
  }
  if (total > double(d.global_mem_bytes))
    throw Error(Status::InvalidArgument, what + ": the device buffers need " + bytes_text(total) +
                                             " together, more than the " + bytes_text(double(d.global_mem_bytes)) +
                                             " of global memory of " + d.name + "; choose smaller sizes");
  const double host = physical_memory_bytes();
  if (host > 0 && f.host_bytes > host)
    throw Error(Status::InvalidArgument, what + ": the inputs and results on the host need about " +
                                             human_bytes(f.host_bytes) + ", more than this machine's " +
                                             human_bytes(host) + " of memory; choose smaller sizes");
}

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

KernelParams parse_config(const std::string& option, const std::string& text) {
  KernelParams ps;
  if (text.empty() || text == "defaults") return ps;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    const size_t eq = item.find('=');
    long value = 0;
    size_t used = 0;
    bool ok = eq != std::string::npos && eq > 0;
    if (ok) {
      try {
        value = std::stol(item.substr(eq + 1), &used);
      } catch (const std::exception&) {
        ok = false;
      }
    }
    if (!ok || used != item.size() - eq - 1)
      throw Error(Status::InvalidArgument, option + ": '" + item + "' is not NAME=INTEGER (in '" + text + "')");
    ps[item.substr(0, eq)] = value;
  }
  return ps;
}

}  // namespace clgemm::cli
