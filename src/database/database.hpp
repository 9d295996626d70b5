// database.hpp — tuned kernel parameters per device and shape class, stored as JSON.
//
// The planner asks for the entry matching a device and a shape class, trying in order: the
// device's exact name, its architecture ("sm_90", "skylake-avx512"), its vendor and device type.
// Entries come from the user's database (written by `clgemm tune` into the cache folder) before
// the built-in one shipped with the library, at each level. No entry: the kernels' defaults.
#pragma once

#include <clgemm/device.hpp>
#include <clgemm/types.hpp>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace clgemm::detail {

// Shape classes: each gets its own tuned parameters. The borders follow the shapes the tuner
// measures each class on (tuner.cpp, default_targets), which are smaller on CPUs.
//            GPUs and others                    CPUs
//   skinny   min(m, n) <= 32                    the same
//   small    m·n·k < 2^25 (about 322³)          the same
//   medium   m·n·k < 2^32 (about 1625³)         m·n·k < 640³
//   mid      m·n·k < 2^34 (about 2580³)         m·n·k < 896³
//   large    everything else                    everything else
// A batched call's items take their own class; "batched" is the class of strided batches, tuned
// on one (tuner.cpp), which serves calls of at least two items below the mid class
// (batched_class_serves): there the batch, not the item, fills the device, and the tiles that
// suit one small item (many, to fill the units) are the wrong ones.
std::string shape_class(DeviceKind kind, size_t m, size_t n, size_t k);
bool batched_class_serves(DeviceKind kind, size_t m, size_t n, size_t k, size_t batch);
// The class whose entry serves a call of `s` (a batch where s.batch > 1): "batched" where
// batched_class_serves, else shape_class of its item.
std::string class_of(DeviceKind kind, const GemmShape& s);
const std::vector<std::string>& shape_classes();

// A configuration measured on another shape of its class than the entry's (with the split the
// planner takes there). The planner predicts a call's time from the measurement nearest it: the
// load-balance model is off by up to half at half the tuned size in each dimension (H200, 516³
// against 1024³: the 32×64 tiles predicted 15 µs, measured 23), and one measurement near the
// small end of a class puts the picks there on measured ground.
struct TuningPoint {
  GemmShape shape;
  double gflops = 0;
};

// A runner-up of a tuning run: another tile shape, measured on the same shape as the entry. The
// planner picks among the entry and its alternatives by how evenly each one's tiles spread over
// the compute units at the shape it is asked for (src/plan/tile_choice.hpp).
struct TuningAlternative {
  KernelParams params;
  double gflops = 0;
  std::vector<TuningPoint> points;  // the same parameters measured on other shapes (may be empty)
};

struct TuningEntry {
  std::string device;        // device name it was measured on
  std::string architecture;  // DeviceInfo::architecture
  std::string vendor;        // CL_DEVICE_VENDOR
  std::string device_type;   // "GPU", "CPU", ...
  std::string shape_class;   // see shape_class()
  std::string kernel;        // "xgemm" (packed path), "direct"; tensor cores: "xmma", "wgmma", "dmma"
  DataType precision = DataType::F32;  // of the calls it serves ("precision" in JSON; f32 where absent)
  KernelParams params;
  GemmShape shape;           // the shape it was tuned on
  double gflops = 0;         // measured there
  std::string date;          // when (YYYY-MM-DD)
  std::vector<TuningAlternative> alternatives;  // runners-up with other tiles (may be empty)
  std::vector<TuningPoint> points;              // `params` measured on other shapes (may be empty)
};

struct TuningDatabase {
  std::vector<TuningEntry> entries;
  // Entries of the text that parse() left out, each with the reason (a value of the wrong type, an
  // unknown kernel or class): the rest of the database still serves.
  std::vector<std::string> skipped;

  // Throws Error(InvalidArgument) with the reason when the text is not a database at all; leaves
  // out (and lists in `skipped`) the entries that are not valid.
  static TuningDatabase parse(const std::string& json_text);
  std::string dump() const;
  // Replaces the entry with the same device, shape class and precision, or adds it. A tensor-path
  // entry (is_tensor_entry) replaces only another one of the same kernel: a class keeps one
  // float32 entry per precision, and one for each tensor kernel (xmma, wgmma, dmma).
  void upsert(const TuningEntry& e);
};

// Where the user's database lives: <program cache folder>/tuning.json ("" when there is no cache
// folder). $CLGEMM_TUNING_DB overrides it.
std::string user_database_path();

// Reads a database file. A missing file gives an empty database; an unreadable or corrupt one
// gives an empty database and a warning in `warning` (the caller decides where it goes), and the
// next save rebuilds it.
TuningDatabase load_database(const std::string& path, std::string* warning);

// Writes atomically (temporary file, then rename). Throws Error on failure.
void save_database(const TuningDatabase& db, const std::string& path);

// The database compiled into the library: the JSON files under data/tuning (docs/tuning.md says
// how each entry was measured).
const TuningDatabase& builtin_database();

// Whether an entry holds a tensor-core kernel's parameters (kernel "xmma"; "wgmma" for Hopper's
// f16, bf16 and TF32 products; "dmma" for f64): the planner reads them only for calls that its
// tensor paths run, never for the SIMT kernels.
bool is_tensor_entry(const TuningEntry& e);

struct FoundEntry {
  TuningEntry entry;
  std::string origin;  // e.g. "user database, device NVIDIA H200" or "built-in database, architecture sm_90"
};

// The best entry for a device and shape class, from the user's database then the built-in one:
// among the float32 entries, or with `tensor` among the tensor path's. The user database is read
// once per process (reload_user_database() re-reads it).
// `usable`, if given, passes over the entries it refuses (the planner's check of their values).
std::optional<FoundEntry> find_tuning(const DeviceInfo& device, const std::string& shape_class, bool tensor = false,
                                      const std::function<bool(const TuningEntry&)>& usable = nullptr,
                                      DataType precision = DataType::F32);
void reload_user_database();
// Counts the reloads, so that what was derived from the database (the planner's cache of plans)
// can tell when it is stale.
uint64_t user_database_generation();

}  // namespace clgemm::detail
