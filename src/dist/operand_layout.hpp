// operand_layout.hpp — how each operand of a distributed GEMM reaches SUMMA: read where it lies
// when its rows (A) or columns (B) sit on the same processes, in the same order, as C's, and
// otherwise moved first (redistribute.hpp) into a layout that does.
#pragma once

#include "dist/block_cyclic.hpp"
#include "dist/process_grid.hpp"
#include "dist/redistribute.hpp"
#include "dist/summa.hpp"

#include <clgemm/dist.hpp>

namespace clgemm::dist {

// C's sub-matrix as spans of its rows (along the grid's rows) and columns (along its columns).
struct CSpans {
  Span rows, cols;
  size_t local_rows = 0, local_cols = 0;  // what this process holds
  size_t first_row = 0, first_col = 0;    // their first local indices in C's local array
};
CSpans c_spans(const Descriptor& c, int ic, int jc, int m, int n, const ProcessGrid& grid);

// Whether sub(A) (A: true) or sub(B) (false) can be read in place.
bool lines_up(bool is_a, const Descriptor& x, int ix, int jx, bool transposed, int m, int n, const CSpans& c,
              const ProcessGrid& grid);

// The operand read in place from a local array (host pointer or device buffer; the other null).
KOperand in_place(bool is_a, const char* host, cl_mem buffer, size_t offset, const Descriptor& x, int ix, int jx,
                  int k, const ProcessGrid& grid);

// The operand moved into C's layout. `moved` keeps the data the operand points to.
KOperand moved(bool is_a, const char* local, const Descriptor& x, int ix, int jx, bool transposed, int k,
               const CSpans& c, const ProcessGrid& grid, size_t elem, LocalBlock& storage);

}  // namespace clgemm::dist
