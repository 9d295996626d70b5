// clgemm/warnings.hpp — what the library has to say that is not an error: a tuning database entry
// it skipped, a cache folder it refused. The library never prints; warnings go to a handler the
// program installs, or wait in a short queue until the program takes them.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace clgemm {

// Receives each warning as it is raised, on the thread that raised it. An empty handler (the
// default) keeps warnings for take_warnings() instead. The handler must not throw.
using WarningHandler = std::function<void(const std::string& message)>;
void set_warning_handler(WarningHandler handler);

// The warnings kept since the last call, oldest first (at most the last 64; no handler installed).
std::vector<std::string> take_warnings();

}  // namespace clgemm
