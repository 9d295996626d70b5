// context_registry.hpp — one clgemm Context (program cache, device facts) per OpenCL context and
// device that callers of the queue-based API use, created on first use.
#pragma once

#include <clgemm/context.hpp>

namespace clgemm::detail {

// The Context for the queue's context and device. Thread-safe; the reference stays valid until
// clear_contexts().
const Context& context_for_queue(cl_command_queue queue);

// Forgets all cached Contexts (and their compiled programs), releasing the OpenCL contexts.
void clear_contexts();

}  // namespace clgemm::detail
