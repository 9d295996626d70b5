// argument_checks.cpp — what ScaLAPACK's PBLAS checks before a p?gemm, and the INFO it reports.
#include "dist/argument_checks.hpp"

#include "dist/block_cyclic.hpp"
#include "dist/process_grid.hpp"

#include <cctype>
#include <string>

namespace clgemm::dist {
namespace {

const char* const kEntryNames[] = {"", "DTYPE_", "CTXT_", "M_", "N_", "MB_", "NB_", "RSRC_", "CSRC_", "LLD_"};

[[noreturn]] void fail(const char* routine, int info, const std::string& what) {
  throw ArgumentError(info, std::string(routine) + ": " + what + " (INFO = " + std::to_string(info) + ")");
}

// Checks one descriptor (argument `position`, named `name`) and the sub-matrix of `rows` x `cols`
// at (i, j) (arguments position-2 and position-1).
void check_matrix(const char* routine, const char* name, int position, const Descriptor& d, int i, int j, int rows,
                  int cols, const ProcessGrid& grid) {
  auto entry = [&](int e, int value, const std::string& rule) {
    fail(routine, -(position * 100 + e),
         "argument " + std::to_string(position) + " " + name + "(" + kEntryNames[e] + ") = " +
             std::to_string(value) + " " + rule);
  };
  const char row_letter[] = {'I', name[4], '\0'};  // "IA" from "DESCA"
  const char col_letter[] = {'J', name[4], '\0'};
  if (d.dtype != 1) entry(1, d.dtype, "is not 1 (a dense block-cyclic matrix)");
  if (d.ctxt != grid.context) entry(2, d.ctxt, "is not the context of DESCC (" + std::to_string(grid.context) + ")");
  if (d.m < 0) entry(3, d.m, "is negative");
  if (d.n < 0) entry(4, d.n, "is negative");
  if (d.mb < 1) entry(5, d.mb, "must be at least 1");
  if (d.nb < 1) entry(6, d.nb, "must be at least 1");
  if (d.rsrc < 0 || d.rsrc >= grid.rows)
    entry(7, d.rsrc, "is not a process row of the " + std::to_string(grid.rows) + "-row grid");
  if (d.csrc < 0 || d.csrc >= grid.cols)
    entry(8, d.csrc, "is not a process column of the " + std::to_string(grid.cols) + "-column grid");
  const Axis rows_axis{size_t(d.mb), d.rsrc, grid.rows};
  const size_t local_rows = rows_axis.count(size_t(d.m), grid.row);
  if (d.lld < 1 || size_t(d.lld) < local_rows)
    entry(9, d.lld, "is smaller than the " + std::to_string(local_rows) + " local rows (and 1)");
  if (i < 1) fail(routine, -(position - 2), "argument " + std::to_string(position - 2) + " " + row_letter + " = " + std::to_string(i) + " must be at least 1");
  if (j < 1) fail(routine, -(position - 1), "argument " + std::to_string(position - 1) + " " + col_letter + " = " + std::to_string(j) + " must be at least 1");
  if (rows > 0 && cols > 0) {
    if (long(i) + rows - 1 > d.m)
      fail(routine, -(position - 2),
           "argument " + std::to_string(position - 2) + " " + row_letter + " = " + std::to_string(i) + ": rows " +
               std::to_string(i) + ".." + std::to_string(long(i) + rows - 1) + " reach past " + name + "(M_) = " +
               std::to_string(d.m));
    if (long(j) + cols - 1 > d.n)
      fail(routine, -(position - 1),
           "argument " + std::to_string(position - 1) + " " + col_letter + " = " + std::to_string(j) + ": columns " +
               std::to_string(j) + ".." + std::to_string(long(j) + cols - 1) + " reach past " + name + "(N_) = " +
               std::to_string(d.n));
  }
}

}  // namespace

Transpose parse_transpose(const char* text, int position, const char* routine) {
  const char t = text ? char(std::toupper(static_cast<unsigned char>(text[0]))) : '\0';
  if (t == 'N') return Transpose::No;
  if (t == 'T' || t == 'C') return Transpose::Yes;
  fail(routine, -position,
       std::string("argument ") + std::to_string(position) + (position == 1 ? " TRANSA" : " TRANSB") + " = '" +
           (text ? std::string(text, text[0] ? 1 : 0) : std::string("NULL")) + "' is not 'N', 'T' or 'C'");
}

void check_pgemm_arguments(const char* routine, Transpose a_transpose, Transpose b_transpose, int m, int n, int k,
                           const Descriptor& a, int ia, int ja, const Descriptor& b, int ib, int jb,
                           const Descriptor& c, int ic, int jc) {
  const ProcessGrid grid = grid_info(c.ctxt);
  if (!grid.valid())
    fail(routine, -(19 * 100 + 2),
         "argument 19 DESCC(CTXT_) = " + std::to_string(c.ctxt) + " is not a BLACS grid that this process is in");
  if (m < 0) fail(routine, -3, "argument 3 M = " + std::to_string(m) + " is negative");
  if (n < 0) fail(routine, -4, "argument 4 N = " + std::to_string(n) + " is negative");
  if (k < 0) fail(routine, -5, "argument 5 K = " + std::to_string(k) + " is negative");
  const bool ta = a_transpose == Transpose::Yes, tb = b_transpose == Transpose::Yes;
  check_matrix(routine, "DESCA", 10, a, ia, ja, ta ? k : m, ta ? m : k, grid);
  check_matrix(routine, "DESCB", 14, b, ib, jb, tb ? n : k, tb ? k : n, grid);
  check_matrix(routine, "DESCC", 19, c, ic, jc, m, n, grid);
}

}  // namespace clgemm::dist
