// cli_common.hpp — what the subcommands share: device choice, size parsing, tables, timing.
#pragma once

#include <clgemm/context.hpp>
#include <clgemm/gemm.hpp>

#include <CLI/CLI.hpp>

#include <nlohmann/json.hpp>

#include <functional>
#include <iosfwd>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace clgemm::cli {

// Options every device subcommand takes.
struct DeviceOptions {
  std::string device;  // --device: index or name substring; empty = $CLGEMM_DEVICE or default
  bool json = false;   // --json: print a JSON document instead of a table
  std::string save;    // --save FILE: also write the JSON document to FILE
};

// A result that the float64 check finds wrong. main() reports it as that, not as an error in the
// arguments or the run, and exits with status 1 (errors exit with 2).
class WrongResult : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Prints `doc` (with --json) and writes it to the --save file, if any.
void emit_json(const DeviceOptions& opts, const nlohmann::json& doc);
void add_device_options(CLI::App& cmd, DeviceOptions& opts);

// Chooses the device (errors list the devices) and prints which one is used to stderr.
DeviceInfo open_device(const DeviceOptions& opts);

// Checks before any work that `path`, the value of `option` (--save, --csv, --plot, ...), can
// be written: not a folder, in a folder that exists, open for writing. An existing file is opened
// for appending (nothing lost); one created for the check is removed again. Nothing for an empty
// path; Error(InvalidArgument) naming the option and the path otherwise.
void check_output_file(const std::string& option, const std::string& path);

// Each size option's value (0: not given) within bench::kMaxDimension, the largest size the
// kernels index; Error(SizeOverflow) naming the option otherwise.
void check_dimensions(const std::vector<std::pair<std::string, size_t>>& options);

// The memory a command is about to use for one problem.
struct Footprint {
  std::vector<std::pair<std::string, double>> buffers;  // device buffers: what each holds, bytes
  double host_bytes = 0;                                // host arrays, all together
};

// A GEMM's footprint: A, B (elements of `in`) and `c_on_device` buffers of C (of `out`) on the
// device; on the host A, B and `c_on_host` copies of C in their types, and the float64 reference
// (A, B and C as doubles). A batch of `items` holds that many of each, one after another.
Footprint gemm_footprint(const GemmShape& s, int c_on_device, int c_on_host, DataType in = DataType::F32,
                         DataType out = DataType::F32, size_t items = 1);

// Checks before any work that `f` fits: each buffer within the device's largest allocation
// (CL_DEVICE_MAX_MEM_ALLOC_SIZE), all of them within its global memory, and the host arrays
// within this machine's physical memory. Error(InvalidArgument) otherwise, starting with `what`
// (the option and its value, say "--size 46341") and naming the size and the limit.
void check_footprint(const DeviceInfo& d, const std::string& what, const Footprint& f);

// The --edges value of `bench` and `plan` as GemmOptions::force_edge_split: "split" On, "whole"
// Off, anything else ("auto") the planner's choice.
GemmOptions::Toggle edges_toggle(const std::string& edges);

// The value of an element-type option (--precision, --c-type): f32, f64, f16 or bf16. Anything
// else is Error(InvalidArgument) naming the option, the value and the types.
DataType data_type_option(const std::string& option, const std::string& value);

// "NAME=VALUE,NAME=VALUE" (or "" / "defaults") into overrides of a kernel's defaults; anything
// else is refused with a message that names `option`.
KernelParams parse_config(const std::string& option, const std::string& text);

// A plain text table with right-aligned numeric columns.
class Table {
 public:
  explicit Table(std::vector<std::string> header) : header_(std::move(header)) {}
  void add(std::vector<std::string> row) { rows_.push_back(std::move(row)); }
  void print(std::ostream& os) const;

 private:
  std::vector<std::string> header_;
  std::vector<std::vector<std::string>> rows_;
};

std::string fixed(double v, int decimals);
std::string sci(double v);                 // 1.23e-07
std::string human_bytes(double bytes);     // "48 KiB", "139.8 GiB"

// Median of a list of times (the list is copied and sorted).
double median(std::vector<double> v);

// A one-line progress note on stderr, overwritten in place on a terminal. `minor` notes (one per
// repeat, say) are left out when stderr is a log file.
void progress(const std::string& text, bool minor = false);
void progress_done();

// Every subcommand registers itself through one of these.
void add_devices_command(CLI::App& app);
void add_ladder_command(CLI::App& app);
void add_sparse_command(CLI::App& app);
void add_reduce_command(CLI::App& app);
void add_plan_command(CLI::App& app);
void add_bench_command(CLI::App& app);
void add_tune_command(CLI::App& app);
void add_dist_bench_command(CLI::App& app);

// Validator for sizes: a positive integer of at most 12 digits. Commands check the largest size
// they take with bench::check_dimension, and the memory it needs with check_footprint.
extern const CLI::Validator kPositiveSize;

// Validators for times, limits and rates: a finite number (NaN and Inf refused), at least 0 or
// above 0.
extern const CLI::Validator kFiniteNonNegative;
extern const CLI::Validator kFinitePositive;

}  // namespace clgemm::cli
