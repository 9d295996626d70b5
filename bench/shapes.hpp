// bench/shapes.hpp — the problem sizes a benchmark runs: explicit lists, ranges and named presets.
#pragma once

#include <clgemm/types.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace clgemm::bench {

// One GEMM shape, and where it belongs in tables and plots. `group` names a family of shapes
// that share an x axis (one panel of the plot); `x` is the shape's position on that axis. A
// `batch` above 1 makes it a strided batch of that many items of m×n×k, one call for them all.
struct Shape {
  size_t m = 0, n = 0, k = 0;
  std::string group;  // "square", "odd", "skinny m=16", ...
  size_t x = 0;       // the size a plot puts this shape at (N for squares, L for skinny/rect)
  size_t batch = 1;
  // A grouped shape (--grouped): these problems in one call; m, n and k are then the largest
  // sides, `group` is "grouped" and `spec` the --grouped text that made it.
  std::vector<GemmShape> problems = {};
  std::string spec = {};

  // "1024x1024x1024", "4096x[32x32x32]" for a batch of 4096, "grouped random:64:64:1024:1"
  std::string label() const;
  bool grouped() const { return !problems.empty(); }
  bool operator==(const Shape& o) const {
    return m == o.m && n == o.n && k == o.k && group == o.group && batch == o.batch && spec == o.spec;
  }
};

// The problems of `--grouped SPEC`: "random" (64 problems, each side uniform in 64..1024, seed
// 1), "random:COUNT:MIN:MAX[:SEED]", "moe" (a mixture-of-experts layer: 8192 rows routed unevenly
// to 64 experts, each a 14336×4096 weight, seed 1; some experts get none), "moe:EXPERTS:N:K[:ROWS
// [:SEED]]", or "@FILE", a problem per line as MxNxK ('#' starts a comment). Errors throw Error(InvalidArgument) naming the option and the item or line.
Shape parse_grouped(const std::string& spec);

// The most problems one grouped shape may have (--grouped).
constexpr size_t kMaxGroupedProblems = 100000;

// The most items one batched shape may have (--batch, COUNTx[MxNxK]).
constexpr size_t kMaxBatch = 1u << 24;

// The largest M, N or K clgemm takes: its kernels index rows and columns with 32-bit ints.
constexpr size_t kMaxDimension = 2147483647;

// The most shapes one specification may give: each shape is measured for every implementation,
// so more would run for days (a range with a tiny step or factor reaches millions).
constexpr size_t kMaxShapes = 1000;

// Throws Error(SizeOverflow) naming `what` (an option and its value, say "--m 2147483648") when
// `value` exceeds kMaxDimension.
void check_dimension(const std::string& what, size_t value);

// Bounds for the presets (explicit sizes are never clipped).
struct SizeLimits {
  size_t min_size = 64;
  size_t max_size = 4096;
};

// The names `parse_sizes` accepts as presets, with a one-line description each.
std::vector<std::pair<std::string, std::string>> preset_descriptions();

// Expands one preset; an unknown name throws Error(InvalidArgument).
std::vector<Shape> preset(const std::string& name, const SizeLimits& limits);

// Parses a comma-separated size specification. Each item is one of:
//   N          the square N×N×N                 (group "square")
//   MxNxK      one shape                         (group "custom")
//   BxMxNxK    a strided batch of B items of MxNxK (group "batched")
//   A:B        squares A, 2A, 4A, ... up to B    (group "square")
//   A:B:S      squares A, A+S, A+2S, ... up to B (S >= 1)
//   A:B:xF     squares A, A·F, A·F², ... up to B (F > 1, finite)
//   a preset   square, odd, odd-pairs, skinny, gemv, rect (bounded by `limits`), batched
// Duplicates are dropped; order is kept. Errors throw Error(InvalidArgument) naming `option` and
// the item: malformed items, and more than kMaxShapes shapes. A size above kMaxDimension throws
// Error(SizeOverflow).
std::vector<Shape> parse_sizes(const std::string& spec, const SizeLimits& limits,
                               const std::string& option = "--sizes");

}  // namespace clgemm::bench
