// call_events.cpp — the event a queue-based call hands back to its caller.
#include "api/call_events.hpp"

#include <clgemm/error.hpp>

#include "runtime/cl_error.hpp"

namespace clgemm::detail {

void hand_back(const cl::Event& ev, cl_event* out) {
  if (!out) return;
  *out = ev();
  if (*out) clRetainEvent(*out);
}

void hand_back_marker(cl_command_queue queue, cl_event* out) {
  if (!out) return;
  *out = nullptr;
  const cl_int err = clEnqueueMarkerWithWaitList(queue, 0, nullptr, out);
  if (err != CL_SUCCESS)
    throw Error(Status::OpenCLError, std::string("clEnqueueMarkerWithWaitList failed with ") + cl_error_name(err));
}

}  // namespace clgemm::detail
