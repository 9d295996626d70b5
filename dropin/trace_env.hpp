// trace_env.hpp — whether CLGEMM_TRACE asks the drop-in libraries for a line per call: set to
// anything but empty or 0. Read once per library.
#pragma once

#include <cstdlib>
#include <cstring>

namespace clgemm::dropin {

inline bool trace_requested() {
  static const bool on = [] {
    const char* v = std::getenv("CLGEMM_TRACE");
    return v && *v && std::strcmp(v, "0") != 0;
  }();
  return on;
}

}  // namespace clgemm::dropin
