// redistribute.cpp — the all-to-all behind redistribute(). Sender and receiver walk the target's
// elements in the same order (column by column, rows within), so a receiver knows where each
// element from each sender goes without any indices on the wire.
#include "dist/redistribute.hpp"

#include <clgemm/error.hpp>

#include <climits>
#include <cstdint>
#include <cstring>
#include <string>

namespace clgemm::dist {
namespace {

// Where the target's index t along one dimension comes from and goes to.
struct IndexMap {
  std::vector<int> dest;          // process coordinate that holds t in the target
  std::vector<int> source;        // process coordinate that holds it in X (along the grid dimension
                                  // of X's rows or columns that this target dimension reads)
  std::vector<size_t> source_local;  // its local index there
};

IndexMap map_dimension(const Span& target, const Axis& source_axis, size_t source_start) {
  IndexMap m;
  m.dest.resize(target.length);
  m.source.resize(target.length);
  m.source_local.resize(target.length);
  for (size_t t = 0; t < target.length; ++t) {
    m.dest[t] = target.owner(t);
    m.source[t] = source_axis.owner(source_start + t);
    m.source_local[t] = source_axis.local(source_start + t);
  }
  return m;
}

std::vector<size_t> where_equal(const std::vector<int>& v, int value) {
  std::vector<size_t> out;
  for (size_t i = 0; i < v.size(); ++i)
    if (v[i] == value) out.push_back(i);
  return out;
}

int checked_count(size_t n) {
  if (n > size_t(INT_MAX))
    throw Error(Status::Unsupported, "redistributing an operand would send " + std::to_string(n) +
                                         " elements from one process to another; MPI counts stop at 2^31 - 1");
  return int(n);
}

template <class Word>
LocalBlock move(const char* x, const Descriptor& xd, int ix, int jx, bool transposed, const Span& rows,
                const Span& cols, const ProcessGrid& grid) {
  const Axis x_rows{size_t(xd.mb), xd.rsrc, grid.rows}, x_cols{size_t(xd.nb), xd.csrc, grid.cols};
  // Target rows read X's rows, or X's columns when transposed; likewise the target's columns.
  const IndexMap rm = map_dimension(rows, transposed ? x_cols : x_rows, size_t(transposed ? jx : ix) - 1);
  const IndexMap cm = map_dimension(cols, transposed ? x_rows : x_cols, size_t(transposed ? ix : jx) - 1);
  const size_t x_ld = size_t(xd.lld);
  auto source_rank = [&](size_t r, size_t c) {
    return transposed ? grid.rank_of(cm.source[c], rm.source[r]) : grid.rank_of(rm.source[r], cm.source[c]);
  };
  auto source_offset = [&](size_t r, size_t c) {
    return transposed ? cm.source_local[c] + rm.source_local[r] * x_ld : rm.source_local[r] + cm.source_local[c] * x_ld;
  };

  // What this process sends: the target elements whose source it holds.
  const std::vector<size_t> my_source_rows = where_equal(rm.source, transposed ? grid.col : grid.row);
  const std::vector<size_t> my_source_cols = where_equal(cm.source, transposed ? grid.row : grid.col);
  const int P = grid.rows * grid.cols;
  std::vector<size_t> send_counts(size_t(P), 0);
  for (size_t c : my_source_cols)
    for (size_t r : my_source_rows) ++send_counts[size_t(grid.rank_of(rm.dest[r], cm.dest[c]))];
  const size_t ranks = static_cast<size_t>(P);
  std::vector<int> scounts(ranks), sdispls(ranks), rcounts(ranks), rdispls(ranks);
  size_t total = 0;
  for (int p = 0; p < P; ++p) {
    scounts[size_t(p)] = checked_count(send_counts[size_t(p)]);
    sdispls[size_t(p)] = checked_count(total);
    total += send_counts[size_t(p)];
  }
  std::vector<Word> send(std::max<size_t>(total, 1));
  std::vector<size_t> cursor(sdispls.begin(), sdispls.end());
  for (size_t c : my_source_cols)
    for (size_t r : my_source_rows)
      std::memcpy(&send[cursor[size_t(grid.rank_of(rm.dest[r], cm.dest[c]))]++], x + source_offset(r, c) * sizeof(Word),
                  sizeof(Word));

  // What it receives: the target elements it holds, from their sources.
  const std::vector<size_t> my_rows = where_equal(rm.dest, grid.row), my_cols = where_equal(cm.dest, grid.col);
  std::vector<size_t> recv_counts(size_t(P), 0);
  for (size_t c : my_cols)
    for (size_t r : my_rows) ++recv_counts[size_t(source_rank(r, c))];
  total = 0;
  for (int p = 0; p < P; ++p) {
    rcounts[size_t(p)] = checked_count(recv_counts[size_t(p)]);
    rdispls[size_t(p)] = checked_count(total);
    total += recv_counts[size_t(p)];
  }
  std::vector<Word> recv(std::max<size_t>(total, 1));
  const MPI_Datatype type = sizeof(Word) == 8 ? MPI_UINT64_T : MPI_UINT32_T;
  if (MPI_Alltoallv(send.data(), scounts.data(), sdispls.data(), type, recv.data(), rcounts.data(), rdispls.data(),
                    type, grid.all) != MPI_SUCCESS)
    throw Error(Status::InternalError, "MPI_Alltoallv failed while redistributing an operand");

  LocalBlock out;
  out.rows = my_rows.size();
  out.cols = my_cols.size();
  out.ld = std::max<size_t>(out.rows, 1);
  out.data.assign(std::max<size_t>(out.ld * out.cols, 1) * sizeof(Word), 0);
  char* t = out.data.data();
  cursor.assign(rdispls.begin(), rdispls.end());
  for (size_t lc = 0; lc < my_cols.size(); ++lc)
    for (size_t lr = 0; lr < my_rows.size(); ++lr)
      std::memcpy(t + (lr + lc * out.ld) * sizeof(Word), &recv[cursor[size_t(source_rank(my_rows[lr], my_cols[lc]))]++],
                  sizeof(Word));
  return out;
}

}  // namespace

LocalBlock redistribute(const char* x, const Descriptor& xd, int ix, int jx, bool transposed, const Span& rows,
                        const Span& cols, const ProcessGrid& grid, size_t elem) {
  if (elem == 8) return move<std::uint64_t>(x, xd, ix, jx, transposed, rows, cols, grid);
  return move<std::uint32_t>(x, xd, ix, jx, transposed, rows, cols, grid);
}

}  // namespace clgemm::dist
