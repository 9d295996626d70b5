// operand_layout.cpp — the layout rules of operand_layout.hpp.
#include "dist/operand_layout.hpp"

namespace clgemm::dist {
namespace {

// Blocks of k in a moved operand: wide enough for few runs per panel, narrow enough to share k
// evenly among the processes.
constexpr size_t kMovedBlock = 256;

Axis rows_axis(const Descriptor& d, const ProcessGrid& g) { return {size_t(d.mb), d.rsrc, g.rows}; }
Axis cols_axis(const Descriptor& d, const ProcessGrid& g) { return {size_t(d.nb), d.csrc, g.cols}; }

// Two spans of one grid dimension put every index t on the same process at the same rank among
// that process's indices.
bool same_places(const Span& x, const Span& c) {
  if (c.length == 0 || c.axis.procs == 1) return true;
  return x.axis.block == c.axis.block && x.start % x.axis.block == c.start % c.axis.block && x.owner(0) == c.owner(0);
}

}  // namespace

CSpans c_spans(const Descriptor& c, int ic, int jc, int m, int n, const ProcessGrid& grid) {
  CSpans s;
  s.rows = {rows_axis(c, grid), size_t(ic) - 1, size_t(m)};
  s.cols = {cols_axis(c, grid), size_t(jc) - 1, size_t(n)};
  s.local_rows = s.rows.local_count(0, s.rows.length, grid.row);
  s.local_cols = s.cols.local_count(0, s.cols.length, grid.col);
  s.first_row = s.rows.local_begin(0, grid.row);
  s.first_col = s.cols.local_begin(0, grid.col);
  return s;
}

bool lines_up(bool is_a, const Descriptor& x, int ix, int jx, bool transposed, int m, int n, const CSpans& c,
              const ProcessGrid& grid) {
  if (transposed) return false;
  if (is_a) return same_places({rows_axis(x, grid), size_t(ix) - 1, size_t(m)}, c.rows);
  return same_places({cols_axis(x, grid), size_t(jx) - 1, size_t(n)}, c.cols);
}

KOperand in_place(bool is_a, const char* host, cl_mem buffer, size_t offset, const Descriptor& x, int ix, int jx,
                  int k, const ProcessGrid& grid) {
  KOperand o;
  o.host = host;
  o.buffer = buffer;
  o.offset = offset;
  o.ld = size_t(x.lld);
  if (is_a) {
    o.fixed_start = rows_axis(x, grid).count(size_t(ix) - 1, grid.row);
    o.k = {cols_axis(x, grid), size_t(jx) - 1, size_t(k)};
    o.k_me = grid.col;
    o.comm = grid.row_comm;
  } else {
    o.fixed_start = cols_axis(x, grid).count(size_t(jx) - 1, grid.col);
    o.k = {rows_axis(x, grid), size_t(ix) - 1, size_t(k)};
    o.k_me = grid.row;
    o.comm = grid.col_comm;
  }
  return o;
}

KOperand moved(bool is_a, const char* local, const Descriptor& x, int ix, int jx, bool transposed, int k,
               const CSpans& c, const ProcessGrid& grid, size_t elem, LocalBlock& storage) {
  KOperand o;
  if (is_a) {
    o.k = {Axis{kMovedBlock, 0, grid.cols}, 0, size_t(k)};
    storage = redistribute(local, x, ix, jx, transposed, c.rows, o.k, grid, elem);
    o.k_me = grid.col;
    o.comm = grid.row_comm;
  } else {
    o.k = {Axis{kMovedBlock, 0, grid.rows}, 0, size_t(k)};
    storage = redistribute(local, x, ix, jx, transposed, o.k, c.cols, grid, elem);
    o.k_me = grid.row;
    o.comm = grid.col_comm;
  }
  o.host = storage.data.data();
  o.ld = storage.ld;
  return o;
}

}  // namespace clgemm::dist
