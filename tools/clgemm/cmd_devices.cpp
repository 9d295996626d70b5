// cmd_devices.cpp — `clgemm devices`: every OpenCL platform and device, with what matters for GEMM.
#include <clgemm/error.hpp>

#include "cli_common.hpp"

#include <iostream>

namespace clgemm::cli {

namespace {

// Extensions a GEMM library cares about (the full list is in --json).
const std::vector<std::string> kInteresting = {
    "cl_khr_fp64", "cl_khr_fp16", "cl_khr_subgroups", "cl_intel_subgroups", "cl_khr_int64_base_atomics",
    "cl_nv_device_attribute_query", "cl_amd_device_attribute_query", "cl_khr_integer_dot_product"};

void run_devices(bool json) {
  std::vector<DeviceInfo> devices = list_devices();
  // The static local limit only a build shows (NVIDIA); a device that cannot build keeps what it
  // reports.
  for (auto& d : devices) {
    try {
      d = with_measured_local_limits(d);
    } catch (const Error&) {
    }
  }
  std::string chosen_line;
  try {
    const DeviceInfo d = choose_device("");
    chosen_line = std::to_string(d.index);
  } catch (const Error&) {
  }
  if (json) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& d : devices) {
      out.push_back({{"index", d.index}, {"platform", d.platform}, {"name", d.name}, {"vendor", d.vendor},
                     {"type", d.kind_name()}, {"version", d.version}, {"driver", d.driver},
                     {"compute_units", d.compute_units}, {"clock_mhz", d.clock_mhz},
                     {"global_mem_bytes", d.global_mem_bytes}, {"max_alloc_bytes", d.max_alloc_bytes},
                     {"local_mem_bytes", d.local_mem_bytes}, {"static_local_bytes", d.static_local_bytes},
                     {"max_work_group_size", d.max_work_group_size}, {"fp64", d.fp64},
                     {"default", chosen_line == std::to_string(d.index)}, {"extensions", d.extensions}});
    }
    std::cout << out.dump(2) << "\n";
    return;
  }
  if (devices.empty()) {
    std::cout << "No OpenCL devices found. Install an ICD (for example `pocl-opencl-icd`) or register a vendor "
                 "driver under /etc/OpenCL/vendors.\n";
    return;
  }
  Table t({"#", "platform", "device", "type", "CUs", "MHz", "global mem", "max buffer", "local static/args", "max WG",
           "fp64"});
  for (const auto& d : devices)
    t.add({std::to_string(d.index) + (chosen_line == std::to_string(d.index) ? "*" : ""), d.platform, d.name,
           d.kind_name(), std::to_string(d.compute_units), std::to_string(d.clock_mhz),
           human_bytes(double(d.global_mem_bytes)), human_bytes(double(d.max_alloc_bytes)),
           human_bytes(double(d.static_local_bytes)) + " / " + human_bytes(double(d.local_mem_bytes)),
           std::to_string(d.max_work_group_size), d.fp64 ? "yes" : "no"});
  t.print(std::cout);
  std::cout << "\n";
  for (const auto& d : devices) {
    std::string exts;
    for (const auto& e : kInteresting)
      if (d.has_extension(e)) exts += (exts.empty() ? "" : " ") + e;
    std::cout << d.index << ": " << d.version << "; driver " << d.driver << "; extensions: " << (exts.empty() ? "-" : exts)
              << "\n";
  }
  std::cout << "(* = the default device; choose another with --device N or CLGEMM_DEVICE)\n"
               "(local static/args: the most local memory a work-group may declare as __local arrays, which a build "
               "measures on NVIDIA GPUs, and as __local arguments, CL_DEVICE_LOCAL_MEM_SIZE)\n";
}

}  // namespace

void add_devices_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("devices", "list OpenCL platforms and devices");
  auto json = std::make_shared<bool>(false);
  cmd->add_flag("--json", *json, "print JSON");
  cmd->callback([json] { run_devices(*json); });
}

}  // namespace clgemm::cli
