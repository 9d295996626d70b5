// operand_overlap.hpp — whether the output of a call shares memory with its inputs or with
// itself. BLAS forbids both: a kernel that reads A while another work-group writes C over it
// gives results that depend on scheduling, and two batch items writing one element race.
//
// The test is exact where the matrices compared have the same leading dimension, which covers
// every pair of batch items of C: interleaved items (item i in columns i·n .. i·n + n - 1 of one
// wide matrix, as attention heads are stored) are disjoint and pass. Between A or B and C with
// different leading dimensions it compares row by row within a budget, and past the budget it
// reports an overlap it cannot rule out.
#pragma once

#include <CL/cl.h>

#include <cstddef>
#include <vector>

namespace clgemm::detail {

// Where the items of one operand start, in elements: first + i·stride, or list[i].
struct ItemStarts {
  size_t count = 1;
  size_t first = 0, stride = 0;
  const std::vector<size_t>* list = nullptr;
  size_t at(size_t i) const { return list ? (*list)[i] : first + i * stride; }
};

// One operand as stored: `outer` runs of `inner` elements, `ld` elements apart, per item.
struct Footprint {
  const char* name;  // "a", "b" or "c": the argument names of messages
  cl_mem buffer;
  size_t outer, inner, ld;
  ItemStarts starts;
  size_t element_bytes = 4;
};

// Throws Error(OverlappingOperands) naming the operands and batch items when two items of C share
// an element, or an item of one of `inputs` shares one with an item of C. Buffers are compared by
// the memory they view: sub-buffers of one buffer are resolved to it.
void check_no_overlap(const Footprint& c, const std::vector<Footprint>& inputs);

}  // namespace clgemm::detail
