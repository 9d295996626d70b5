// grouped_checks.cpp — the checks of a grouped call (grouped_checks.hpp).
#include "api/grouped_checks.hpp"

#include <clgemm/error.hpp>

#include "api/gemm_checks.hpp"
#include "api/operand_overlap.hpp"
#include "exec/problem.hpp"

#include <climits>
#include <string>

namespace clgemm::detail {

namespace {

std::string problem_text(size_t i) { return "problem " + std::to_string(i) + ": "; }

// How one of a problem's matrices lies in its buffer: `outer` runs of `inner` elements, ld apart.
Footprint stored(const GemmCall& c, char which) {
  const bool row = c.layout == Layout::RowMajor;
  size_t rows = c.m, cols = c.n;
  const MatrixRef* ref = &c.c;
  DataType type = c.c_type;
  if (which == 'a') {
    const bool t = c.a_transpose == Transpose::Yes;
    rows = t ? c.k : c.m, cols = t ? c.m : c.k, ref = &c.a, type = c.a_type;
  } else if (which == 'b') {
    const bool t = c.b_transpose == Transpose::Yes;
    rows = t ? c.n : c.k, cols = t ? c.k : c.n, ref = &c.b, type = c.b_type;
  }
  const char* name = which == 'a' ? "a" : which == 'b' ? "b" : "c";
  return {name, ref->buffer, row ? rows : cols, row ? cols : rows, ref->ld, {1, ref->offset}, data_type_bytes(type)};
}

// The bytes a footprint spans from its first element, as a half-open range.
std::pair<size_t, size_t> extent(const Footprint& f) {
  const size_t first = f.starts.first * f.element_bytes;
  return {first, first + ((f.outer - 1) * f.ld + f.inner) * f.element_bytes};
}

bool intersect(const Footprint& x, const Footprint& y) {
  if (x.buffer != y.buffer) return true;  // sub-buffers of one buffer: check_no_overlap resolves them
  const auto [x0, x1] = extent(x);
  const auto [y0, y1] = extent(y);
  return x0 < y1 && y0 < x1;
}

// The same value in every problem that uses it, else an error naming the problems and `what`.
template <class T>
void same_as(const T& value, const T& first, size_t i, size_t first_index, const std::string& what, Status status) {
  if (value != first)
    throw Error(status, problem_text(i) + what + " differs from problem " + std::to_string(first_index) +
                            "'s; one grouped call takes one " + what + " for all its problems");
}

}  // namespace

bool grouped_reads_ab(const GemmCall& p) { return reads_operands(p.k, p.alpha) && grouped_has_work(p); }
bool grouped_has_work(const GemmCall& p) { return p.m > 0 && p.n > 0; }

void check_grouped(const std::vector<GemmCall>& problems, cl_context queue_context) {
  if (problems.size() > size_t(INT_MAX))
    throw Error(Status::InvalidBatchCount, "a grouped call takes at most 2^31 - 1 problems; this one has " +
                                               std::to_string(problems.size()));
  const size_t none = problems.size();
  size_t first_a = none, first_c = none;  // the first problem that reads A and B, that writes C
  for (size_t i = 0; i < problems.size(); ++i) {
    const GemmCall& c = problems[i];
    try {
      check_enums(c);
      check_index_range(c);
      if (c.compute == ComputeType::Tf32 || c.compute == ComputeType::Tf32x3)
        throw Error(Status::UnsupportedTypes, "a grouped call computes in float32 or float64; the tensor-core "
                                              "compute types (tf32, 3xtf32) take gemm, not gemm_grouped");
      const GemmCall& p0 = problems[0];
      same_as(int(c.layout), int(p0.layout), i, 0, "layout", Status::InvalidArgument);
      same_as(int(c.a_type), int(p0.a_type), i, 0, "A type", Status::UnsupportedTypes);
      same_as(int(c.b_type), int(p0.b_type), i, 0, "B type", Status::UnsupportedTypes);
      same_as(int(c.c_type), int(p0.c_type), i, 0, "C type", Status::UnsupportedTypes);
      same_as(int(c.compute), int(p0.compute), i, 0, "compute type", Status::UnsupportedTypes);
      if (!grouped_has_work(c)) continue;
      if (first_c == none) first_c = i;
      same_as(c.c.buffer, problems[first_c].c.buffer, i, first_c, "C buffer", Status::InvalidArgument);
      if (grouped_reads_ab(c)) {
        if (first_a == none) first_a = i;
        same_as(c.a.buffer, problems[first_a].a.buffer, i, first_a, "A buffer", Status::InvalidArgument);
        same_as(c.b.buffer, problems[first_a].b.buffer, i, first_a, "B buffer", Status::InvalidArgument);
      }
      check_operands(c, queue_context, {1, c.a.offset}, {1, c.b.offset}, {1, c.c.offset}, c.beta != 0.0);
    } catch (const Error& e) {
      throw Error(e.status(), problem_text(i) + e.what());
    }
  }
  // Across problems: one problem's C against every other's C, and A and B where read. The exact
  // test (check_no_overlap) runs only where the byte ranges meet.
  for (size_t i = 0; i < problems.size(); ++i) {
    if (!grouped_has_work(problems[i])) continue;
    const Footprint c = stored(problems[i], 'c');
    for (size_t j = 0; j < problems.size(); ++j) {
      if (j == i || !grouped_has_work(problems[j])) continue;
      std::vector<Footprint> others;
      if (j > i) others.push_back(stored(problems[j], 'c'));
      if (grouped_reads_ab(problems[j]))
        for (char which : {'a', 'b'}) others.push_back(stored(problems[j], which));
      for (const Footprint& f : others) {
        if (!intersect(c, f)) continue;
        try {
          check_no_overlap(c, {f});
        } catch (const Error& e) {
          throw Error(e.status(), "problems " + std::to_string(i) + " and " + std::to_string(j) + ": problem " +
                                      std::to_string(i) + "'s c and problem " + std::to_string(j) + "'s " + f.name +
                                      " share memory (" + e.what() + ")");
        }
      }
    }
  }
}

}  // namespace clgemm::detail
