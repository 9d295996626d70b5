// clgemm/tune.hpp — tuning from a program: a whole tuning session on one device (what `clgemm
// tune` runs), given configurations checked and timed, and the tuning databases described.
//
// A session searches kernel parameters per shape class within a time budget, checking every
// candidate's result against float64 before its time counts, keeps the fastest correct kernel of
// each class (with runners-up of other tile shapes), measures the kept configurations once more
// on a smaller shape of their class (the planner's points), and saves them in a tuning database
// that GEMM calls read from then on. docs/tuning.md explains the search.
#pragma once

#include <clgemm/context.hpp>
#include <clgemm/types.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace clgemm {

// The shape classes, each of which gets its own tuned parameters: small, medium, mid, large,
// skinny (docs/tuning.md gives their borders).
const std::vector<std::string>& tuning_shape_classes();

// The kernel families the tuner measures and the tuning database names: xgemm, direct, xmma,
// wgmma and dmma (`clgemm tune --kernel` takes these).
const std::vector<std::string>& tunable_kernel_names();

// Where the user's tuning database lives: tuning.json in the program cache folder, or
// $CLGEMM_TUNING_DB; "" when there is no cache folder.
std::string user_tuning_database_path();

// Parameters as the kernels' build options receive them: "-DMWG=64 -DNWG=64 ...".
std::string kernel_params_text(const KernelParams& params);

// ---- a tuning session -----------------------------------------------------------------------

struct TuningRequest {
  double budget_s = 180;             // seconds for the whole session (a tenth goes to the points)
  std::vector<std::string> classes;  // shape classes to tune; empty: all of them
  std::string database;              // file the entries are saved to; empty: the user database
  uint64_t seed = 1;                 // of the random search
  bool tensor = false;  // tune the tensor path (3xTF32, NVIDIA sm_80+; classes mid and large) instead
  // The calls the entries serve: candidates are checked and timed with A, B and C of this type
  // (f16 and bf16 reach the packed kernel widened to float32 while packing; f64 candidates are
  // double-precision kernels), and the entries carry it. A session
  // replaces only the entries of its own precision. The tensor path takes f32 only.
  DataType precision = DataType::F32;
};

// What a session reports while it runs, often (a progress bar's ingredients).
struct TuningProgress {
  enum class Phase {
    Search,  // a target's search: a kernel on one shape of a class
    Points,  // a class's kept configurations measured again on a smaller shape
  };
  Phase phase = Phase::Search;
  double fraction = 0;      // of the budget spent, 0 to 1
  double seconds_left = 0;  // of the budget
  std::string shape_class;
  GemmShape shape;          // Search: the target's shape; Points: the smaller shape
  bool last = false;        // the target's or the class's last report
  // Search
  std::string kernel;
  std::string stage;        // "defaults", "random", "refine", "done"
  size_t tried = 0, failed = 0, wrong = 0;  // failed: builds and launches that failed
  double best_gflops = 0;
  // Points: configurations measured of `total`; in the last report, those that gave a point
  size_t done = 0, total = 0;
};

// One target of a session: a kernel searched on one shape of a class.
struct TuningTargetReport {
  std::string shape_class;
  GemmShape shape;
  std::string kernel;       // "xgemm", "direct" or "xmma"
  double budget_s = 0;      // its share of the budget, as it started
  double elapsed_s = 0;
  size_t tried = 0, build_failures = 0, launch_failures = 0, wrong = 0;
  double default_gflops = 0;  // the kernel's defaults, for comparison
  double rule_gflops = 0;     // tensor kernels: the tiles the planner runs without an entry (0: none)
  double best_gflops = 0;
  KernelParams best;        // empty when no candidate ran correctly
  bool chosen = false;      // the fastest correct target of its class: its entry was saved
  std::vector<std::string> failure_notes;  // the first few failures, each with its parameters
};

// One class saved by a session, and its points.
struct TuningClassReport {
  std::string shape_class;
  size_t target = 0;  // index of the chosen target in TuningReport::targets
  // Where the class has a smaller shape for points (has_points): that shape, how many of the kept
  // configurations (the entry and its alternatives) gave a point there, and how many there are.
  bool has_points = false;
  GemmShape points_shape;
  size_t points_measured = 0, points_configurations = 0;
};

struct TuningReport {
  std::string device;
  DataType precision = DataType::F32;
  double budget_s = 0;
  std::string database;                     // the file the entries were saved to
  std::vector<TuningTargetReport> targets;  // in the order they ran
  std::vector<TuningClassReport> classes;   // those saved, by class name
};

// Runs a tuning session on `ctx` and saves the entries (replacing the device's earlier ones of the
// same classes) to the request's database, which GEMM calls in this process read from then on
// when it is the user database. `progress`, if given, is called on this thread throughout.
// Throws Error(InvalidArgument), before any work, for a budget that is not positive, an unknown
// class, `tensor` with a class other than mid or large, with f16 or bf16 where wgmma does not
// build (planning_device) or on a device without the tensor path (tensor_path_available), or no
// database path; Error(NoFp64) for
// f64 on a device without cl_khr_fp64. A damaged database file is replaced, with a warning
// (clgemm/warnings.hpp).
TuningReport tune_device(const Context& ctx, const TuningRequest& request,
                         const std::function<void(const TuningProgress&)>& progress = {});

// ---- given configurations -------------------------------------------------------------------

struct ConfigurationResult {
  enum class Outcome { Ok, Rejected, BuildFailed, LaunchFailed, Wrong };
  Outcome outcome = Outcome::Rejected;
  KernelParams params;  // as run (the kernel's defaults filled in), or as given when rejected
  double seconds = 0, gflops = 0;        // the median run, all its commands
  std::vector<double> command_seconds;   // each command's own time in that run, in order
  std::string note;                      // why it failed
};

// Checks and times each configuration (overrides of the kernel's defaults) of `kernel` (one of
// tunable_kernel_names()) on `shape`, in order, with A, B and C of `precision` (as a session measures
// them; PRECISION is set from it, and a configuration giving another is rejected); nothing is
// searched or saved. For xgemm, SPLIT=S adds split-K (0: the planner's model, 1: none, S parts of
// the last partial wave, or of the last SPLIT_TILES tiles), SK its stream-K groups and PACKB=1 a
// copy of B first. `progress(done)` follows each configuration. Throws Error(InvalidArgument) for
// an unknown kernel or one that does not multiply `precision` (xmma: f32 only; dmma: f64 only), Error(NoFp64) for f64 on a device
// without cl_khr_fp64.
std::vector<ConfigurationResult> measure_configurations(const Context& ctx, const std::string& kernel,
                                                        const GemmShape& shape,
                                                        const std::vector<KernelParams>& configs,
                                                        const std::function<void(size_t done)>& progress = {},
                                                        uint64_t seed = 1, DataType precision = DataType::F32);

// ---- the databases --------------------------------------------------------------------------

struct TuningEntryInfo {
  std::string device, architecture, shape_class, kernel;
  DataType precision = DataType::F32;  // of the calls it serves
  double gflops = 0;         // measured on `shape`
  GemmShape shape;           // the shape it was tuned on
  size_t alternatives = 0;   // runners-up of other tile shapes
  size_t points = 0;         // measurements on other shapes, its own and its alternatives'
  std::string date;          // YYYY-MM-DD
  KernelParams params;
};

struct TuningDatabaseInfo {
  std::string path;  // "" for the built-in database
  std::vector<TuningEntryInfo> entries;
  std::string json;  // the whole database as JSON text (the file format)
};

// The database file at `path` (empty: the user database). A missing file reads as empty; a
// damaged one too, with a warning.
TuningDatabaseInfo read_tuning_database(const std::string& path = "");

// The entries built into the library.
TuningDatabaseInfo builtin_tuning_database();

}  // namespace clgemm
