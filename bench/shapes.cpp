// bench/shapes.cpp — size lists, ranges and the presets (square, odd, skinny, gemv, rect, batched,
// decode, attention), and the problems of grouped calls (random, moe, files).
#include "bench/shapes.hpp"

#include <clgemm/error.hpp>
#include <clgemm/ladder.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fstream>
#include <random>
#include <sstream>

namespace clgemm::bench {

std::string Shape::label() const {
  if (grouped()) return "grouped " + spec;
  const std::string item = shape_text({m, n, k});
  return batch > 1 ? std::to_string(batch) + "x[" + item + "]" : item;
}

namespace {

Shape square(size_t s, const std::string& group = "square") { return {s, s, s, group, s}; }

// Powers of two and the midpoints between them (64, 96, 128, 192, ...): tile-friendly sizes, plus
// ones that are a multiple of 32 but not of a 64- or 128-wide tile.
std::vector<size_t> powers_and_midpoints(size_t lo, size_t hi) {
  std::vector<size_t> out;
  for (size_t p = 1; p <= hi; p *= 2) {
    if (p >= lo) out.push_back(p);
    const size_t mid = p + p / 2;
    if (p >= 2 && mid >= lo && mid <= hi) out.push_back(mid);
    if (p > hi / 2) break;
  }
  return out;
}

std::vector<Shape> square_preset(const SizeLimits& l) {
  std::vector<Shape> out;
  for (size_t s : powers_and_midpoints(l.min_size, l.max_size)) out.push_back(square(s));
  return out;
}

// Multiples of 129 (129 = 128 + 1: every tile size misses by one, the worst case for edge
// handling), spaced like the square preset, plus the largest multiple that fits.
std::vector<Shape> odd_preset(const SizeLimits& l) {
  std::vector<Shape> out;
  const size_t top = l.max_size / 129;
  for (size_t j : powers_and_midpoints(1, top))
    if (129 * j >= l.min_size) out.push_back(square(129 * j, "odd"));
  if (top >= 1 && (out.empty() || out.back().m != 129 * top)) out.push_back(square(129 * top, "odd"));
  return out;
}

// Each odd size of the odd preset right after its neighbour, the multiple of 128 below it (129·j
// after 128·j), all in one group. The odd-size goal compares the two; measured back to back, they
// see the same state of the device (clocks, caches, the driver's queues) instead of runs minutes
// apart, and the report lists their ratio (Report::odd_neighbours).
std::vector<Shape> odd_pairs_preset(const SizeLimits& l) {
  std::vector<Shape> out;
  for (const Shape& odd : odd_preset(l)) {
    const size_t neighbour = odd.m / 129 * 128;
    if (neighbour >= l.min_size) out.push_back(square(neighbour, "odd pairs"));
    out.push_back(square(odd.m, "odd pairs"));
  }
  return out;
}

// The largest power-of-two sizes L from max(min_size, 512) up to max_size (or max_size alone
// when it is smaller than 512).
std::vector<size_t> large_powers(const SizeLimits& l, size_t floor) {
  std::vector<size_t> out;
  const size_t lo = std::max(l.min_size, floor);
  for (size_t p = 1; p <= l.max_size; p *= 2)
    if (p >= lo) out.push_back(p);
  if (out.empty()) out.push_back(l.max_size);
  return out;
}

// One dimension of 16 (a batch of 16 vectors, a thin activation matrix), the other two large:
// these shapes are bound by memory traffic, and big-tile kernels waste most of each tile on them.
std::vector<Shape> skinny_preset(const SizeLimits& l) {
  std::vector<Shape> out;
  const auto ls = large_powers(l, 512);
  for (size_t L : ls) out.push_back({16, L, L, "skinny m=16", L});
  for (size_t L : ls) out.push_back({L, 16, L, "skinny n=16", L});
  return out;
}

// Matrix-vector products: a row vector times L×L (1×L×L) and L×L times a column vector (L×1×L),
// L a power of two from 1024; how op(A) or op(B) is stored follows --transa and --transb.
std::vector<Shape> gemv_preset(const SizeLimits& l) {
  std::vector<Shape> out;
  const auto ls = large_powers(l, 1024);
  for (size_t L : ls) out.push_back({1, L, L, "gemv m=1", L});
  for (size_t L : ls) out.push_back({L, 1, L, "gemv n=1", L});
  return out;
}

// Strided batches of small and mid-sized items, about 2^27 to 2^33 flops each batch: many tiny
// items (attention heads, convolution tiles) down to a few large ones.
std::vector<Shape> batched_preset() {
  std::vector<Shape> out;
  for (const auto& [count, side] : {std::pair<size_t, size_t>{4096, 32}, {4096, 64}, {1024, 128}, {256, 256}, {64, 512}})
    out.push_back({side, side, side, "batched", side, count});
  return out;
}

// A language model's decoding: 1 to 128 rows of activations against each weight matrix of a layer
// 4096 wide with a 14336-wide MLP (N×K: the attention projections 4096×4096, the MLP's up and gate
// 14336×4096 and its down 4096×14336). Not bounded by the size limits: the widths are the point.
std::vector<Shape> decode_preset() {
  std::vector<Shape> out;
  for (const auto& [n, k] : {std::pair<size_t, size_t>{4096, 4096}, {14336, 4096}, {4096, 14336}})
    for (size_t m = 1; m <= 128; m *= 2)
      out.push_back({m, n, k, "decode " + std::to_string(n) + "x" + std::to_string(k), m});
  return out;
}

// Attention's strided batches, an item per head: QKᵀ (S×S from a head dimension D) and PV (S×D
// from S), 32 heads of D = 128 for sequences S of 512 to 4096, and 128 heads of D = 64 at S = 1024.
// QKᵀ reads K transposed (`--transb t`). Not bounded by the size limits.
std::vector<Shape> attention_preset() {
  std::vector<Shape> out;
  const auto add = [&](size_t heads, size_t d, size_t seq) {
    const std::string dim = " d=" + std::to_string(d);
    out.push_back({seq, seq, d, "attention QK" + dim, seq, heads});
    out.push_back({seq, d, seq, "attention PV" + dim, seq, heads});
  };
  for (size_t seq = 512; seq <= 4096; seq *= 2) add(32, 128, seq);
  add(128, 64, 1024);
  return out;
}

// Non-square large shapes with the work of an L³ cube: a wide C with a short K, and a small C
// with a long K (where a kernel that parallelises only over C runs out of work-groups).
std::vector<Shape> rect_preset(const SizeLimits& l) {
  std::vector<Shape> out;
  SizeLimits half = l;
  half.max_size = std::max<size_t>(l.max_size / 2, 2);
  const auto ls = large_powers(half, 256);
  for (size_t L : ls) out.push_back({2 * L, L, L / 2, "rect 2L x L x L/2", L});
  for (size_t L : ls) out.push_back({L / 2, L, 2 * L, "rect L/2 x L x 2L", L});
  return out;
}

// `where` is the option and the item, "--sizes '64:32'".
[[noreturn]] void bad_item(const std::string& where, const std::string& why) {
  throw Error(Status::InvalidArgument, where + " " + why +
                                           " (expected N, MxNxK, BxMxNxK, A:B, A:B:STEP, A:B:xFACTOR or a preset: "
                                           "square, odd, odd-pairs, skinny, gemv, rect, batched, decode, attention)");
}

[[noreturn]] void too_large(const std::string& what, const std::string& value) {
  throw Error(Status::SizeOverflow, what + ": " + value +
                                        " exceeds 2^31 - 1 = 2147483647, the largest size clgemm supports (its "
                                        "kernels index rows and columns with 32-bit integers)");
}

bool all_digits(const std::string& text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isdigit(c); });
}

// A size: a positive integer up to kMaxDimension.
size_t parse_count(const std::string& text, const std::string& where) {
  if (!all_digits(text)) bad_item(where, "has '" + text + "' where a positive integer belongs");
  // More than ten significant digits is past kMaxDimension, and past what stoull reads at twenty.
  const size_t first = std::min(text.find_first_not_of('0'), text.size());
  if (text.size() - first > 10) too_large(where, text);
  const size_t v = std::stoull(text);
  if (v == 0) bad_item(where, "has a zero size");
  check_dimension(where, v);
  return v;
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string part;
  std::istringstream in(s);
  while (std::getline(in, part, sep)) out.push_back(part);
  if (!s.empty() && s.back() == sep) out.push_back("");
  return out;
}

// The step of A:B:S, at least 1; any larger step than B - A gives A alone.
size_t parse_step(const std::string& text, const std::string& where) {
  if (!all_digits(text)) bad_item(where, "has '" + text + "' where a step (a positive integer) belongs");
  const size_t first = std::min(text.find_first_not_of('0'), text.size());
  if (first == text.size()) bad_item(where, "has a step of 0; the step must be at least 1");
  return text.size() - first > 10 ? kMaxDimension : size_t(std::stoull(text));
}

// The factor of A:B:xF: a finite number above 1.
double parse_factor(const std::string& text, const std::string& where) {
  double factor = 0;
  try {
    size_t used = 0;
    factor = std::stod(text, &used);
    if (used != text.size()) throw std::invalid_argument("trailing");
  } catch (const std::exception&) {
    bad_item(where, "has a factor that is not a number");
  }
  if (!(factor > 1.0) || !std::isfinite(factor)) bad_item(where, "needs a finite factor above 1");
  return factor;
}

void add_square(std::vector<Shape>& out, size_t side, const std::string& where) {
  if (out.size() == kMaxShapes)
    bad_item(where, "gives more than " + std::to_string(kMaxShapes) + " sizes; use a larger step or factor");
  out.push_back(square(side));
}

std::vector<Shape> parse_range(const std::string& item, const std::string& where) {
  const auto parts = split(item, ':');
  if (parts.size() < 2 || parts.size() > 3) bad_item(where, "is not a range");
  const size_t a = parse_count(parts[0], where), b = parse_count(parts[1], where);
  if (b < a) bad_item(where, "ends before it starts");
  std::vector<Shape> out;
  if (parts.size() == 3 && !parts[2].empty() && parts[2][0] != 'x') {
    const size_t step = parse_step(parts[2], where);
    for (size_t s = a; s <= b; s += step) {
      add_square(out, s, where);
      if (b - s < step) break;  // s + step would pass b (or wrap)
    }
    return out;
  }
  const double factor = parts.size() == 3 ? parse_factor(parts[2].substr(1), where) : 2.0;
  for (double s = double(a); s <= double(b) + 0.5;) {
    const size_t v = size_t(std::llround(s));
    if (out.empty() || out.back().m != v) add_square(out, v, where);
    s = std::max(s * factor, double(v + 1));
  }
  return out;
}

}  // namespace

void check_dimension(const std::string& what, size_t value) {
  if (value > kMaxDimension) too_large(what, std::to_string(value));
}

std::vector<std::pair<std::string, std::string>> preset_descriptions() {
  return {{"square", "N×N×N for N a power of two or a midpoint between two (64, 96, 128, 192, ...)"},
          {"odd", "N×N×N for N a multiple of 129 (129, 258, 387, 516, 774, ...) up to the largest that fits"},
          {"odd-pairs", "the odd sizes, each right after its neighbouring multiple of 128 (128, 129, 256, 258, ...); "
                        "the report lists each odd size against its neighbour"},
          {"skinny", "16×L×L and L×16×L for L a power of two from 512"},
          {"gemv", "1×L×L and L×1×L (matrix times vector) for L a power of two from 1024"},
          {"rect", "2L×L×(L/2) and (L/2)×L×2L (the work of an L³ cube) for L a power of two from 256 to max/2"},
          {"batched", "strided batches 4096×32³, 4096×64³, 1024×128³, 256×256³ and 64×512³ (not bounded by the "
                      "size limits)"},
          {"decode", "M×4096×4096, M×14336×4096 and M×4096×14336 for M = 1, 2, 4, ... 128: a language model's "
                     "decoding steps (not bounded by the size limits)"},
          {"attention", "attention's batches: QKᵀ 32×[S×S×128] and PV 32×[S×128×S] for S = 512 ... 4096, and "
                        "128 heads of 64 at S = 1024; QKᵀ as attention runs it takes --transb t (not bounded by "
                        "the size limits)"}};
}

std::vector<Shape> preset(const std::string& name, const SizeLimits& limits) {
  if (limits.min_size == 0 || limits.max_size < limits.min_size)
    throw Error(Status::InvalidArgument, "--min-size " + std::to_string(limits.min_size) + " and --max-size " +
                                             std::to_string(limits.max_size) +
                                             ": the presets need 1 <= min-size <= max-size");
  if (name == "square") return square_preset(limits);
  if (name == "odd") return odd_preset(limits);
  if (name == "odd-pairs") return odd_pairs_preset(limits);
  if (name == "skinny") return skinny_preset(limits);
  if (name == "rect") return rect_preset(limits);
  if (name == "gemv") return gemv_preset(limits);
  if (name == "batched") return batched_preset();
  if (name == "decode") return decode_preset();
  if (name == "attention") return attention_preset();
  throw Error(Status::InvalidArgument, "unknown size preset '" + name +
                                           "' (square, odd, odd-pairs, skinny, gemv, rect, batched, decode, attention)");
}

std::vector<Shape> parse_sizes(const std::string& spec, const SizeLimits& limits, const std::string& option) {
  std::vector<Shape> out;
  auto add = [&out](const Shape& s) {
    if (std::find(out.begin(), out.end(), s) == out.end()) out.push_back(s);
  };
  for (std::string item : split(spec, ',')) {
    item.erase(std::remove_if(item.begin(), item.end(), [](unsigned char c) { return std::isspace(c); }), item.end());
    const std::string where = option + " '" + item + "'";
    if (item.empty()) bad_item(where, "is empty");
    if (std::isalpha(static_cast<unsigned char>(item[0]))) {
      for (const auto& s : preset(item, limits)) add(s);
    } else if (item.find(':') != std::string::npos) {
      for (const auto& s : parse_range(item, where)) add(s);
    } else if (item.find('x') != std::string::npos) {
      const auto parts = split(item, 'x');
      if (parts.size() == 4) {
        const size_t count = parse_count(parts[0], where);
        if (count > kMaxBatch) bad_item(where, "has a batch of more than " + std::to_string(kMaxBatch) + " items");
        add({parse_count(parts[1], where), parse_count(parts[2], where), parse_count(parts[3], where), "batched",
             parse_count(parts[1], where), count});
        continue;
      }
      if (parts.size() != 3) bad_item(where, "is not MxNxK or BxMxNxK");
      Shape s{parse_count(parts[0], where), parse_count(parts[1], where), parse_count(parts[2], where), "custom", 0};
      // A custom shape sits on the axis at the side of the cube with the same work.
      s.x = size_t(std::llround(std::cbrt(double(s.m) * double(s.n) * double(s.k))));
      if (s.m == s.n && s.n == s.k) s = square(s.m);
      add(s);
    } else {
      add(square(parse_count(item, where)));
    }
  }
  if (out.empty()) throw Error(Status::InvalidArgument, option + " gave no sizes");
  if (out.size() > kMaxShapes)
    throw Error(Status::InvalidArgument, option + " gives " + std::to_string(out.size()) + " shapes, more than the " +
                                             std::to_string(kMaxShapes) + " one run takes; split it into several runs");
  return out;
}

Shape parse_grouped(const std::string& spec) {
  const std::string where = "--grouped '" + spec + "'";
  const auto bad = [&](const std::string& why) {
    throw Error(Status::InvalidArgument, where + " " + why +
                                             " (expected random, random:COUNT:MIN:MAX[:SEED], moe, "
                                             "moe:EXPERTS:N:K[:ROWS[:SEED]] or @FILE with a problem MxNxK per line)");
  };
  Shape out;
  out.group = "grouped";
  out.spec = spec;
  if (!spec.empty() && spec[0] == '@') {
    std::ifstream in(spec.substr(1));
    if (!in) bad("names a file that cannot be read");
    std::string line;
    for (size_t number = 1; std::getline(in, line); ++number) {
      line = line.substr(0, line.find('#'));
      line.erase(std::remove_if(line.begin(), line.end(), [](unsigned char c) { return std::isspace(c); }), line.end());
      if (line.empty()) continue;
      const auto parts = split(line, 'x');
      const std::string at = where + " line " + std::to_string(number);
      if (parts.size() != 3) bad("line " + std::to_string(number) + " is not MxNxK");
      out.problems.push_back({parse_count(parts[0], at), parse_count(parts[1], at), parse_count(parts[2], at)});
      if (out.problems.size() > kMaxGroupedProblems) bad("has more than " + std::to_string(kMaxGroupedProblems) + " problems");
    }
    if (out.problems.empty()) bad("holds no problem");
  } else if (spec.rfind("moe", 0) == 0) {
    // A mixture-of-experts layer: ROWS rows of activations (tokens times experts per token) routed
    // to EXPERTS experts, each an N×K weight. The experts' shares are drawn from Gamma(1/2), so
    // that some experts get thousands of rows and some none; each row then picks an expert.
    const auto parts = split(spec, ':');
    if (parts[0] != "moe" || (parts.size() != 1 && (parts.size() < 4 || parts.size() > 6)))
      bad("is not a grouped specification");
    size_t experts = 64, n = 14336, k = 4096, rows = 8192, seed = 1;
    if (parts.size() >= 4) {
      experts = parse_count(parts[1], where), n = parse_count(parts[2], where), k = parse_count(parts[3], where);
      if (parts.size() >= 5) rows = parse_count(parts[4], where);
      if (parts.size() == 6) seed = parse_count(parts[5], where);
    }
    if (experts > kMaxGroupedProblems) bad("asks for more than " + std::to_string(kMaxGroupedProblems) + " experts");
    check_dimension(where, std::max({n, k, rows}));
    std::mt19937_64 gen(seed);
    std::gamma_distribution<double> share(0.5, 1.0);
    std::vector<double> shares(experts);
    for (double& x : shares) x = share(gen);
    std::discrete_distribution<size_t> pick(shares.begin(), shares.end());
    std::vector<size_t> routed(experts, 0);
    for (size_t r = 0; r < rows; ++r) ++routed[pick(gen)];
    for (size_t e = 0; e < experts; ++e) out.problems.push_back({routed[e], n, k});
    out.spec = "moe:" + std::to_string(experts) + ":" + std::to_string(n) + ":" + std::to_string(k) + ":" +
               std::to_string(rows) + ":" + std::to_string(seed);
  } else {
    const auto parts = split(spec, ':');
    if (parts.empty() || parts[0] != "random" || (parts.size() != 1 && parts.size() != 4 && parts.size() != 5))
      bad("is not a grouped specification");
    size_t count = 64, lo = 64, hi = 1024, seed = 1;
    if (parts.size() >= 4) {
      count = parse_count(parts[1], where), lo = parse_count(parts[2], where), hi = parse_count(parts[3], where);
      if (parts.size() == 5) seed = parse_count(parts[4], where);
    }
    if (hi < lo) bad("has MAX below MIN");
    if (count > kMaxGroupedProblems) bad("asks for more than " + std::to_string(kMaxGroupedProblems) + " problems");
    std::mt19937_64 gen(seed);
    std::uniform_int_distribution<size_t> side(lo, hi);
    for (size_t i = 0; i < count; ++i) {
      const size_t m = side(gen), n = side(gen), k = side(gen);
      out.problems.push_back({m, n, k});
    }
    if (parts.size() == 1) out.spec = "random:64:64:1024:1";
  }
  for (const GemmShape& p : out.problems) {
    out.m = std::max(out.m, p.m), out.n = std::max(out.n, p.n), out.k = std::max(out.k, p.k);
  }
  out.x = out.problems.size();
  return out;
}

}  // namespace clgemm::bench
