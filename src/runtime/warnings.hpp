// warnings.hpp — how library code raises a warning (see clgemm/warnings.hpp for where it goes).
#pragma once

#include <clgemm/warnings.hpp>

#include <string>

namespace clgemm::detail {

// Hands `message` to the installed handler, or keeps it for take_warnings(). Thread-safe.
void warn(const std::string& message);

// The same, unless a warning of the same `topic` (by default the message itself) was raised before
// in this process: for conditions found again on every call (a bad tuning entry, a refused
// folder), which are worth saying once.
void warn_once(const std::string& message, const std::string& topic = "");

// The most recent warning of the process ("" if none): for the C API's clgemmLastWarning.
std::string last_warning();

}  // namespace clgemm::detail
