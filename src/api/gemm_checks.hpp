// gemm_checks.hpp — argument checks of the BLAS-style API.
// Every check throws Error with its own status and a message naming the argument and values; the
// checks run before anything is enqueued, so a failed call writes nothing.
#pragma once

#include <clgemm/device.hpp>
#include <clgemm/gemm.hpp>

#include "api/operand_overlap.hpp"

#include <initializer_list>
#include <string>
#include <vector>

namespace clgemm::detail {

// The element types and compute type: known values (InvalidDataType) in a combination clgemm
// computes (UnsupportedTypes).
void check_types(const GemmCall& call);
// Layout, transpose and type values, and a valid queue (whose context it returns).
void check_enums(const GemmCall& call);
// What the types need of the device: cl_khr_fp64 for f64 (NoFp64).
void check_device_types(const GemmCall& call, const DeviceInfo& device);
cl_context check_queue(cl_command_queue queue);
// Can the queue's device build and run clgemm's kernels?
void check_device(const DeviceInfo& device);

// The batch count of a batched call: at least 1, and within the 32-bit range kernels index with.
void check_batch_count(size_t count);

// The buffers of A, B and C for the batch items starting at `a`, `b` and `c`: leading dimensions;
// each a buffer (not an image) of the queue's context, large enough, with flags that allow what
// the call does (C read as well as written when `c_read`); C overlapping neither A, B nor itself.
// Skips A and B when the call does not read them (k = 0, or alpha = 0 outside batched arrays).
void check_operands(const GemmCall& call, cl_context queue_context, const ItemStarts& a, const ItemStarts& b,
                    const ItemStarts& c, bool c_read);

// a·b and a + b; Error(SizeOverflow) naming `what` where they overflow.
size_t checked_mul(size_t a, size_t b, const std::string& what);
size_t checked_add(size_t a, size_t b, const std::string& what);

// A memory object the call may use as the buffer of argument `name` ("a" for a_buffer): not null,
// a buffer of the queue's context, with flags that allow reading (`read`) and writing (`written`)
// it. Returns its size in bytes.
size_t check_buffer(cl_mem m, const std::string& name, cl_context queue_context, bool read, bool written);

// The bytes a buffer must hold for a matrix of `outer` runs of `inner` elements (outer, inner ≥ 1),
// `ld` apart, of `element` bytes each, whose last batch item starts at element `last_start`:
// (last_start + (outer - 1)·ld + inner)·element, Error(SizeOverflow) naming `name` on overflow.
size_t extent_bytes(size_t outer, size_t inner, size_t ld, size_t last_start, size_t element, const std::string& name);

// offset + (count - 1) · stride for strided batches, with overflow checking.
size_t last_offset(size_t offset, size_t stride, size_t count, const char* name);

// The 32-bit index range kernels use: every ld and extent must fit in an int.
void check_index_range(const GemmCall& call);
// The same for any sizes and leading dimensions (the quantized calls').
void check_index_range(std::initializer_list<size_t> sizes_and_lds);

}  // namespace clgemm::detail
