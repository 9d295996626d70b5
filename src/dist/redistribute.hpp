// redistribute.hpp — moves op(sub(X)) of a block-cyclic matrix into another layout of the same
// grid, in one all-to-all: what an operand needs when its rows or columns do not sit on the
// processes that SUMMA wants them on (other block sizes or first process than C's, or a
// transpose across a grid of more than one process).
#pragma once

#include "dist/block_cyclic.hpp"
#include "dist/process_grid.hpp"

#include <clgemm/dist.hpp>

#include <vector>

namespace clgemm::dist {

// The part of the target this process holds: column-major, leading dimension ld (at least 1).
struct LocalBlock {
  std::vector<char> data;
  size_t rows = 0, cols = 0, ld = 1;
};

// The target T = op(X(ix.., jx..)), of rows.length x cols.length, with T's rows laid out along
// the grid's rows as `rows` says and its columns along the grid's columns as `cols` says. `x` is
// this process's local array of X (descriptor xd); elem is 4 or 8 bytes. Collective over the grid.
// Throws Error(Unsupported) where one process would send another 2^31 elements or more.
LocalBlock redistribute(const char* x, const Descriptor& xd, int ix, int jx, bool transposed, const Span& rows,
                        const Span& cols, const ProcessGrid& grid, size_t elem);

}  // namespace clgemm::dist
