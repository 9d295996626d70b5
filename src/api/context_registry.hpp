// context_registry.hpp — one clgemm Context (program cache, device facts, scratch buffers) per
// OpenCL context and device that callers of the queue-based API use, created on first use.
//
// OpenCL deletes a context only once every object made in it is released, and the compiled
// programs and scratch buffers of a clgemm Context are such objects. So a context the caller
// releases lives on while clgemm keeps its Context, and no destructor callback
// (clSetContextDestructorCallback) can tell clgemm that the caller is done with it. The registry
// is therefore bounded: it keeps the kMaxContexts most recently used, and clear_contexts()
// (clgemmClearCache) releases them all at once.
#pragma once

#include <clgemm/context.hpp>

#include <cstddef>
#include <memory>

namespace clgemm::detail {

constexpr size_t kMaxContexts = 8;

// The Context for the queue's context and device. Thread-safe. The Context stays alive while the
// caller holds the pointer, also when the registry forgets it meanwhile (clear_contexts, or
// eviction as the least recently used).
std::shared_ptr<const Context> context_for_queue(cl_command_queue queue);

// Forgets every Context; each is destroyed, releasing its programs, buffers and its reference to
// the OpenCL context, once no call still uses it.
void clear_contexts();

// How many Contexts the registry holds (for tests).
size_t registered_contexts();

}  // namespace clgemm::detail
