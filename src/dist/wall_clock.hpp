// wall_clock.hpp — the wall-clock seconds that Stats reports.
#pragma once

#include <chrono>

namespace clgemm::dist {

using Clock = std::chrono::steady_clock;
inline double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

}  // namespace clgemm::dist
