// database.cpp — JSON tuning database: parsing, atomic saving, lookup with fallbacks.
#include "database/database.hpp"

#include <clgemm/error.hpp>

#include "kernels/gemm/tunable_kernels.hpp"
#include "runtime/disk_cache.hpp"
#include "runtime/regular_file.hpp"
#include "runtime/warnings.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <mutex>

namespace clgemm::detail {

namespace {

constexpr int kFormat = 1;

// [m, n, k], or [m, n, k, batch] for a strided batch of items of m×n×k.
GemmShape shape_from_json(const nlohmann::json& j) {
  GemmShape s{j.at(0).get<size_t>(), j.at(1).get<size_t>(), j.at(2).get<size_t>()};
  if (j.size() > 3) s.batch = j.at(3).get<size_t>();
  if (s.batch == 0) throw std::runtime_error("a shape's batch count is at least 1");
  return s;
}

nlohmann::json shape_to_json(const GemmShape& s) {
  nlohmann::json j = {s.m, s.n, s.k};
  if (s.batch > 1) j.push_back(s.batch);
  return j;
}

std::vector<TuningPoint> points_from_json(const nlohmann::json& j) {
  std::vector<TuningPoint> points;
  if (j.contains("points"))
    for (const auto& p : j.at("points")) {
      TuningPoint point{shape_from_json(p.at("shape")), p.at("gflops").get<double>()};
      if (point.shape.m == 0 || point.shape.n == 0 || point.shape.k == 0 || !(point.gflops > 0))
        throw std::runtime_error("a measured point needs a shape without zeros and gflops above 0");
      points.push_back(point);
    }
  return points;
}

void points_to_json(const std::vector<TuningPoint>& points, nlohmann::json& j) {
  for (const auto& p : points) j["points"].push_back({{"shape", shape_to_json(p.shape)}, {"gflops", p.gflops}});
}

// Whole numbers only: a float such as 1e30 has no long value (converting it is undefined). The
// kernel's descriptor checks each value's range when the planner takes the entry.
KernelParams params_from_json(const nlohmann::json& j) {
  KernelParams ps;
  for (const auto& [name, value] : j.items()) {
    const bool fits = value.is_number_integer() && (value.is_number_unsigned()
                                                        ? value.get<uint64_t>() <= uint64_t(INT32_MAX)
                                                        : value.get<int64_t>() >= INT32_MIN && value.get<int64_t>() <= INT32_MAX);
    if (!fits) throw std::runtime_error("parameter " + name + " is " + value.dump() + ", not a 32-bit integer");
    ps[name] = value.get<long>();
  }
  return ps;
}

TuningEntry entry_from_json(const nlohmann::json& j) {
  TuningEntry e;
  e.device = j.at("device").get<std::string>();
  e.architecture = j.value("architecture", "");
  e.vendor = j.value("vendor", "");
  e.device_type = j.value("device_type", "");
  e.shape_class = j.at("shape_class").get<std::string>();
  e.kernel = j.at("kernel").get<std::string>();
  const std::string precision = j.value("precision", std::string("f32"));
  const DataType types[] = {DataType::F32, DataType::F64, DataType::F16, DataType::BF16};
  const auto type = std::find_if(std::begin(types), std::end(types),
                                 [&](DataType t) { return precision == data_type_name(t); });
  if (type == std::end(types)) throw std::runtime_error("unknown precision '" + precision + "'");
  e.precision = *type;
  if (!is_tunable_family(e.kernel))
    throw std::runtime_error("unknown kernel '" + e.kernel + "' (" + tunable_family_names() + ")");
  const auto& known = shape_classes();
  if (std::find(known.begin(), known.end(), e.shape_class) == known.end())
    throw std::runtime_error("unknown shape class '" + e.shape_class + "'");
  e.params = params_from_json(j.at("params"));
  if (j.contains("shape")) e.shape = shape_from_json(j["shape"]);
  e.gflops = j.value("gflops", 0.0);
  e.date = j.value("date", "");
  if (j.contains("alternatives"))
    for (const auto& a : j.at("alternatives")) {
      TuningAlternative alt;
      alt.params = params_from_json(a.at("params"));
      alt.gflops = a.at("gflops").get<double>();
      alt.points = points_from_json(a);
      e.alternatives.push_back(alt);
    }
  e.points = points_from_json(j);
  return e;
}

// "device, class" of an entry that may be anything at all, for messages.
std::string entry_label(const nlohmann::json& j) {
  auto field = [&](const char* key) {
    return j.is_object() && j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : std::string("?");
  };
  return field("device") + ", " + field("shape_class");
}

nlohmann::json entry_to_json(const TuningEntry& e) {
  nlohmann::json j = {{"device", e.device}, {"architecture", e.architecture}, {"vendor", e.vendor},
                      {"device_type", e.device_type}, {"shape_class", e.shape_class}, {"kernel", e.kernel},
                      {"precision", data_type_name(e.precision)},
                      {"params", e.params}, {"shape", shape_to_json(e.shape)}, {"gflops", e.gflops},
                      {"date", e.date}};
  for (const auto& a : e.alternatives) {
    nlohmann::json alt = {{"params", a.params}, {"gflops", a.gflops}};
    points_to_json(a.points, alt);
    j["alternatives"].push_back(alt);
  }
  points_to_json(e.points, j);
  return j;
}

// The user's database, read lazily once per process.
std::mutex user_mutex;
bool user_loaded = false;
std::atomic<uint64_t> user_generation{0};
TuningDatabase user_db;

const TuningDatabase& user_database() {
  std::lock_guard<std::mutex> lock(user_mutex);
  if (!user_loaded) {
    std::string warning;
    user_db = load_database(user_database_path(), &warning);
    if (!warning.empty()) warn(warning);
    for (const auto& why : user_db.skipped)
      warn("skipping an entry of the tuning database " + user_database_path() + ": " + why +
           "; `clgemm tune` for its class replaces it");
    user_loaded = true;
  }
  return user_db;
}

}  // namespace

bool batched_class_serves(DeviceKind kind, size_t m, size_t n, size_t k, size_t batch) {
  if (batch < 2) return false;
  const std::string item = shape_class(kind, m, n, k);
  return item != "mid" && item != "large";
}

std::string class_of(DeviceKind kind, const GemmShape& s) {
  return batched_class_serves(kind, s.m, s.n, s.k, s.batch) ? "batched" : shape_class(kind, s.m, s.n, s.k);
}

std::string shape_class(DeviceKind kind, size_t m, size_t n, size_t k) {
  if (std::min(m, n) <= 32) return "skinny";
  const double work = double(m) * double(n) * double(k);
  if (work < 33554432.0) return "small";  // 2^25: 256³ itself (the GPU class's tuning shape) included
  if (kind == DeviceKind::CPU) {
    // The tuner measures CPU classes on smaller shapes (medium 512³, mid 768³, large 1024³;
    // default_targets in tuner.cpp), so the borders sit between them, near their geometric
    // means. With the GPU borders, 1024³ fell under "medium" and the large entry, tuned at
    // 1024³, served only calls beyond about 2580³.
    if (work < 640.0 * 640.0 * 640.0) return "medium";
    if (work < 896.0 * 896.0 * 896.0) return "mid";
    return "large";
  }
  // 2^32 (about 1625³): 1536³ runs best on the 1024³ entry's tiles (64×128 read in place,
  // split: 34.6 TFLOP/s on the H100) rather than the 2048³ entry's (128×128: 24.7).
  if (work < 4294967296.0) return "medium";
  if (work < 17179869184.0) return "mid";
  return "large";
}

const std::vector<std::string>& shape_classes() {
  static const std::vector<std::string> c = {"small", "medium", "mid", "large", "skinny", "batched"};
  return c;
}

TuningDatabase TuningDatabase::parse(const std::string& text) {
  TuningDatabase db;
  try {
    const auto j = nlohmann::json::parse(text);
    if (j.value("format", 0) != kFormat) throw std::runtime_error("format is not " + std::to_string(kFormat));
    const auto& entries = j.at("entries");
    if (!entries.is_array()) throw std::runtime_error("entries is not a list");
    // One bad entry costs only itself: the others still serve their shapes.
    for (size_t i = 0; i < entries.size(); ++i) {
      try {
        db.entries.push_back(entry_from_json(entries[i]));
      } catch (const std::exception& e) {
        db.skipped.push_back("entry " + std::to_string(i) + " (" + entry_label(entries[i]) + "): " + e.what());
      }
    }
  } catch (const std::exception& e) {
    throw Error(Status::InvalidArgument, std::string("not a clgemm tuning database: ") + e.what());
  }
  return db;
}

std::string TuningDatabase::dump() const {
  nlohmann::json j = {{"format", kFormat}, {"entries", nlohmann::json::array()}};
  for (const auto& e : entries) j["entries"].push_back(entry_to_json(e));
  return j.dump(2) + "\n";
}

void TuningDatabase::upsert(const TuningEntry& e) {
  for (auto& old : entries)
    if (old.device == e.device && old.shape_class == e.shape_class && old.precision == e.precision &&
        is_tensor_entry(old) == is_tensor_entry(e) && (!is_tensor_entry(e) || old.kernel == e.kernel)) {
      old = e;
      return;
    }
  entries.push_back(e);
}

std::string user_database_path() {
  if (const char* p = std::getenv("CLGEMM_TUNING_DB"); p && *p) return p;
  const DiskCache cache;
  return cache.enabled() ? cache.dir() + "/tuning.json" : "";
}

TuningDatabase load_database(const std::string& path, std::string* warning) {
  if (path.empty()) return {};
  // A real database is a few hundred KB at most; 64 MiB bounds what a wrong file can cost.
  constexpr size_t kMaxDatabaseBytes = size_t(64) << 20;
  const auto ignored = [&](const char* why) {
    if (warning) *warning = "ignoring the tuning database " + path + " (" + why + "); `clgemm tune` rebuilds it";
    return TuningDatabase{};
  };
  std::string text;
  try {
    // Links are followed ($CLGEMM_TUNING_DB may name a link to the user's file); the target must
    // be a regular file, so a FIFO or device cannot hang the process or fill its memory.
    text = read_regular_file(path, kMaxDatabaseBytes, Links::Follow);
  } catch (const FileError& e) {
    if (e.issue() == FileIssue::Missing) return {};  // no database yet
    return ignored(e.what());
  }
  try {
    return TuningDatabase::parse(text);
  } catch (const Error& e) {
    return ignored(e.what());
  }
}

void save_database(const TuningDatabase& db, const std::string& path) {
  if (path.empty()) throw Error(Status::InvalidArgument, "no place to save the tuning database: set CLGEMM_TUNING_DB or CLGEMM_CACHE_DIR");
  const std::string text = db.dump();
  // Through an exclusive temporary of unpredictable name: a link planted next to the database is
  // never followed, and a reader sees the old database or the new one, whole. Mode 0644, as under
  // the usual umask: the database holds measured parameters, nothing secret. Synced before the
  // rename, since a tuning run that took minutes should survive a crash right after it.
  try {
    replace_file(path, {{text.data(), text.size()}}, 0644, true);
  } catch (const FileError& e) {
    throw Error(Status::InvalidArgument, std::string("cannot save the tuning database: ") + e.what());
  }
}

void reload_user_database() {
  std::lock_guard<std::mutex> lock(user_mutex);
  user_loaded = false;
  ++user_generation;
}

uint64_t user_database_generation() { return user_generation.load(); }

bool is_tensor_entry(const TuningEntry& e) {
  const KernelFamily* f = find_tunable_family(e.kernel);
  return f && f->tensor;
}

std::optional<FoundEntry> find_tuning(const DeviceInfo& d, const std::string& cls, bool tensor,
                                      const std::function<bool(const TuningEntry&)>& usable, DataType precision) {
  const TuningDatabase& user = user_database();
  const TuningDatabase& builtin = builtin_database();
  struct Level {
    const char* name;
    std::function<bool(const TuningEntry&)> matches;
  };
  const Level levels[] = {
      {"device", [&](const TuningEntry& e) { return e.device == d.name; }},
      {"architecture", [&](const TuningEntry& e) { return !d.architecture.empty() && e.architecture == d.architecture; }},
      {"vendor", [&](const TuningEntry& e) { return e.vendor == d.vendor && e.device_type == d.kind_name(); }},
  };
  for (const auto& level : levels)
    for (const auto* db : {&user, &builtin})
      for (const auto& e : db->entries)
        if (e.shape_class == cls && e.precision == precision && is_tensor_entry(e) == tensor && level.matches(e) &&
            (!usable || usable(e))) {
          const std::string value = std::string(level.name) == "device"         ? e.device
                                    : std::string(level.name) == "architecture" ? e.architecture
                                                                                : e.vendor + " " + e.device_type;
          return FoundEntry{e, std::string(db == &user ? "user" : "built-in") + " database, " + level.name + " " + value};
        }
  return std::nullopt;
}

}  // namespace clgemm::detail
