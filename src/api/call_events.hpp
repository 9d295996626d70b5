// call_events.hpp — the event a queue-based call hands back to its caller.
#pragma once

#include <clgemm/context.hpp>

namespace clgemm::detail {

// Gives `ev` to the caller through `out` (if not null), with one reference the caller releases.
void hand_back(const cl::Event& ev, cl_event* out);

// For a call that enqueues no work: a marker event on `queue` through `out` (if not null), so
// that callers can wait on every call alike. Throws Error(OpenCLError) where the marker fails.
void hand_back_marker(cl_command_queue queue, cl_event* out);

}  // namespace clgemm::detail
