// cli_common.hpp — what the subcommands share: device choice, size parsing, tables, timing.
#pragma once

#include <clgemm/context.hpp>
#include <clgemm/gemm.hpp>

#include <CLI/CLI.hpp>

#include <nlohmann/json.hpp>

#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

namespace clgemm::cli {

// Options every device subcommand takes.
struct DeviceOptions {
  std::string device;  // --device: index or name substring; empty = $CLGEMM_DEVICE or default
  bool json = false;   // --json: print a JSON document instead of a table
  std::string save;    // --save FILE: also write the JSON document to FILE
};

// Prints `doc` (with --json) and writes it to the --save file, if any.
void emit_json(const DeviceOptions& opts, const nlohmann::json& doc);
void add_device_options(CLI::App& cmd, DeviceOptions& opts);

// Chooses the device (errors list the devices) and prints which one is used to stderr.
DeviceInfo open_device(const DeviceOptions& opts);

// The --edges value of `bench` and `plan` as GemmOptions::force_edge_split: "split" On, "whole"
// Off, anything else ("auto") the planner's choice.
GemmOptions::Toggle edges_toggle(const std::string& edges);

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

// Validator for sizes: a positive integer that fits in size_t.
extern const CLI::Validator kPositiveSize;

}  // namespace clgemm::cli
