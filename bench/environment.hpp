// bench/environment.hpp — what a result depends on besides the code: the date, the command, the
// device and its driver, the host CPU, and the versions of the libraries compared.
#pragma once

#include <clgemm/device.hpp>

#include <nlohmann/json.hpp>

#include <string>

namespace clgemm::bench {

// The command line of this process (from /proc/self/cmdline), words joined by spaces.
std::string this_command_line();

// Date (UTC, ISO 8601), command, device, host and library versions as a JSON object.
nlohmann::json describe_environment(const DeviceInfo& device, const std::string& command);

}  // namespace clgemm::bench
