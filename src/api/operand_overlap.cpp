// operand_overlap.cpp — exact overlap tests of strided matrices, in bytes of the parent buffer.
#include "api/operand_overlap.hpp"

#include <clgemm/error.hpp>

#include <algorithm>
#include <map>
#include <string>
#include <utility>

namespace clgemm::detail {

namespace {

// Byte arithmetic: rows × pitch of the largest buffers passes 2^64.
using wide = __int128;

// Item pairs compared one by one before an overlap that cannot be ruled out is reported: about
// 0.1 s of host time. Only inputs and C that share a buffer with different leading dimensions,
// and whose byte ranges interleave, come near it.
constexpr size_t kPairBudget = size_t(1) << 24;

wide floor_div(wide a, wide b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

// `rows` runs of `width` bytes, `pitch` apart, from `start`: one matrix item in its buffer.
struct Rect {
  wide start, rows, width, pitch;
  wide end() const { return start + (rows - 1) * pitch + width; }
};

// Exact for x.pitch == y.pitch, or for a single-row x (its pitch then does not matter). Row i of
// x meets row j of y iff (i - j)·pitch lies strictly between d - x.width and d + y.width, where
// d = y.start - x.start; i - j takes every value from -(y.rows - 1) to x.rows - 1.
bool same_pitch_meet(const Rect& x, const Rect& y) {
  const wide p = y.pitch, d = y.start - x.start;
  const wide lo = std::max(floor_div(d - x.width, p) + 1, -(y.rows - 1));
  const wide hi = std::min(floor_div(d + y.width - 1, p), x.rows - 1);
  return lo <= hi;
}

// Whether two items share a byte; `budget` counts the row comparisons of items with different
// pitches, and is spent (0) when the answer is "cannot tell", which counts as meeting.
bool meet(const Rect& x, const Rect& y, size_t& budget) {
  if (x.end() <= y.start || y.end() <= x.start) return false;
  if (x.pitch == y.pitch) return same_pitch_meet(x, y);
  // Row by row through the rows of the item with fewer of them that lie within the other's span.
  const Rect& few = x.rows <= y.rows ? x : y;
  const Rect& many = x.rows <= y.rows ? y : x;
  const wide first = std::max<wide>(0, floor_div(many.start - few.start - few.width, few.pitch) + 1);
  const wide last = std::min<wide>(few.rows - 1, floor_div(many.end() - 1 - few.start, few.pitch));
  for (wide i = first; i <= last; ++i) {
    if (budget == 0) return true;
    --budget;
    if (same_pitch_meet({few.start + i * few.pitch, 1, few.width, many.pitch}, many)) return true;
  }
  return false;
}

// The buffer whose memory `buffer` views, and the byte where the view begins in it.
std::pair<cl_mem, size_t> root_of(cl_mem buffer) {
  cl_mem parent = nullptr;
  size_t origin = 0;
  if (clGetMemObjectInfo(buffer, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof parent, &parent, nullptr) != CL_SUCCESS || !parent)
    return {buffer, 0};
  clGetMemObjectInfo(buffer, CL_MEM_OFFSET, sizeof origin, &origin, nullptr);
  return {parent, origin};
}

// An operand's items in bytes of its root buffer.
struct Placed {
  const Footprint* f;
  cl_mem root;
  size_t origin;
  Rect item(size_t i) const {
    const wide e = wide(f->element_bytes);
    return {wide(origin) + wide(f->starts.at(i)) * e, wide(f->outer), wide(f->inner) * e, wide(f->ld) * e};
  }
};

Placed place(const Footprint& f) {
  const auto [root, origin] = root_of(f.buffer);
  return {&f, root, origin};
}

std::string item_name(const Footprint& f, size_t i) {
  std::string s(1, char(f.name[0] - 'a' + 'A'));
  return f.starts.count > 1 ? s + " (batch item " + std::to_string(i) + ")" : s;
}

[[noreturn]] void report(const Footprint& x, size_t i, const Footprint& y, size_t j, bool certain) {
  const std::string what = item_name(x, i) + " and " + item_name(y, j);
  throw Error(Status::OverlappingOperands,
              (certain ? what + " share memory" : what + " may share memory (their rows interleave in " + x.name +
                                                      "_buffer and could not all be compared)") +
                  "; BLAS forbids an output that overlaps an input or another output: give each item of C "
                  "its own elements");
}

// Strided items of C: item i and item i + j overlap exactly when items 0 and j do.
void check_strided_items(const Placed& c) {
  const Rect first = c.item(0);
  const wide span = first.end() - first.start;
  for (size_t j = 1; j < c.f->starts.count; ++j) {
    const Rect other = c.item(j);
    if (other.start - first.start >= span) return;  // every later item starts further on
    if (same_pitch_meet(first, other)) report(*c.f, 0, *c.f, j, true);
  }
}

// Items of C at arbitrary starts. With the buffer viewed as a grid of rows `pitch` bytes wide,
// an item is one rectangle of cells, or two where its rows wrap past the grid's right edge; a
// sweep from left to right keeps the row ranges of the rectangles under the sweep line, which
// are disjoint until two items meet. O(n log n) for n items.
void check_listed_items(const Placed& c) {
  const size_t n = c.f->starts.count;
  std::vector<std::pair<wide, size_t>> order(n);
  for (size_t i = 0; i < n; ++i) order[i] = {c.item(i).start, i};
  std::sort(order.begin(), order.end());
  const Rect shape = c.item(0);
  const wide span = shape.end() - shape.start;
  bool apart = true;
  for (size_t i = 1; i < n; ++i) {
    if (order[i].first == order[i - 1].first) report(*c.f, order[i - 1].second, *c.f, order[i].second, true);
    apart = apart && order[i].first - order[i - 1].first >= span;
  }
  if (apart) return;
  struct Event {
    wide column;
    bool opens;  // closes sort first at one column: rectangles are half-open
    wide row0, row1;
    size_t item;
    bool operator<(const Event& o) const { return column != o.column ? column < o.column : opens < o.opens; }
  };
  const wide p = shape.pitch, w = shape.width, rows = shape.rows;
  std::vector<Event> events;
  events.reserve(4 * n);
  auto add = [&](wide col0, wide col1, wide row0, size_t item) {
    events.push_back({col0, true, row0, row0 + rows, item});
    events.push_back({col1, false, row0, row0 + rows, item});
  };
  for (size_t i = 0; i < n; ++i) {
    const wide s = c.item(i).start, row = floor_div(s, p), col = s - row * p;
    add(col, std::min(col + w, p), row, i);
    if (col + w > p) add(0, col + w - p, row + 1, i);  // the wrapped part of each row
  }
  std::sort(events.begin(), events.end());
  std::map<wide, std::pair<wide, size_t>> open;  // row0 -> (row1, item)
  for (const Event& e : events) {
    if (!e.opens) {
      open.erase(e.row0);
      continue;
    }
    auto next = open.lower_bound(e.row0);
    if (next != open.end() && next->first < e.row1) report(*c.f, next->second.second, *c.f, e.item, true);
    if (next != open.begin()) {
      const auto prev = std::prev(next);
      if (prev->second.first > e.row0) report(*c.f, prev->second.second, *c.f, e.item, true);
    }
    open.emplace(e.row0, std::make_pair(e.row1, e.item));
  }
}

// The items of an input against those of C, in the same root buffer: for each item of C, the
// input's items that start less than an input item's span before it ends.
void check_input(const Placed& in, const Placed& c, size_t& budget) {
  const ItemStarts& s = in.f->starts;
  const Rect shape = in.item(0);
  const wide span = shape.end() - shape.start;
  std::vector<std::pair<wide, size_t>> sorted;  // listed inputs, by start
  if (s.list) {
    for (size_t i = 0; i < s.count; ++i) sorted.push_back({in.item(i).start, i});
    std::sort(sorted.begin(), sorted.end());
  }
  // A stride of 0 repeats one item.
  const size_t distinct = s.list || s.stride > 0 ? s.count : 1;
  for (size_t j = 0; j < c.f->starts.count; ++j) {
    const Rect cj = c.item(j);
    const wide lo = cj.start - span + 1, hi = cj.end();  // starts of items that can reach cj
    auto test = [&](size_t i) {
      if (budget == 0) report(*in.f, i, *c.f, j, false);
      --budget;
      if (meet(in.item(i), cj, budget)) report(*in.f, i, *c.f, j, budget > 0);
    };
    if (s.list) {
      for (auto it = std::lower_bound(sorted.begin(), sorted.end(), std::make_pair(lo, size_t(0)));
           it != sorted.end() && it->first < hi; ++it)
        test(it->second);
    } else if (distinct == 1) {
      test(0);
    } else {
      const wide step = wide(s.stride) * wide(in.f->element_bytes), first = shape.start;
      const wide i0 = std::max<wide>(0, floor_div(lo - first + step - 1, step));
      const wide i1 = std::min<wide>(wide(s.count) - 1, floor_div(hi - 1 - first, step));
      for (wide i = i0; i <= i1; ++i) test(size_t(i));
    }
  }
}

}  // namespace

void check_no_overlap(const Footprint& c, const std::vector<Footprint>& inputs) {
  if (c.outer == 0 || c.inner == 0) return;
  const Placed pc = place(c);
  if (c.starts.count > 1) {
    if (c.starts.list) check_listed_items(pc);
    else if (c.starts.stride == 0) report(c, 0, c, 1, true);
    else check_strided_items(pc);
  }
  size_t budget = kPairBudget;
  for (const Footprint& f : inputs) {
    if (f.outer == 0 || f.inner == 0) continue;
    const Placed pi = place(f);
    if (pi.root == pc.root) check_input(pi, pc, budget);
  }
}

}  // namespace clgemm::detail
