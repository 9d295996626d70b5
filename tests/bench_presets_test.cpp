// bench_presets_test.cpp — `clgemm bench --sizes` and `--grouped`: lists, ranges, presets and their
// errors.
#include <clgemm/error.hpp>

#include "bench/shapes.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>

namespace clgemm::bench {
namespace {

std::vector<size_t> sides(const std::vector<Shape>& shapes) {
  std::vector<size_t> out;
  for (const auto& s : shapes) out.push_back(s.m);
  return out;
}

bool all_square(const std::vector<Shape>& shapes) {
  return std::all_of(shapes.begin(), shapes.end(), [](const Shape& s) { return s.m == s.n && s.n == s.k && s.x == s.m; });
}

TEST(BenchPresets, SquareIsPowersOfTwoAndMidpoints) {
  const auto s = preset("square", {64, 1024});
  EXPECT_EQ(sides(s), (std::vector<size_t>{64, 96, 128, 192, 256, 384, 512, 768, 1024}));
  EXPECT_TRUE(all_square(s));
  for (const auto& x : s) EXPECT_EQ(x.group, "square");
  EXPECT_EQ(preset("square", {64, 8192}).back().m, 8192u);
  EXPECT_EQ(preset("square", {64, 8192}).size(), 15u);
}

TEST(BenchPresets, OddIsMultiplesOf129UpToTheLargestThatFits) {
  const auto s = preset("odd", {64, 1024});
  EXPECT_EQ(sides(s), (std::vector<size_t>{129, 258, 387, 516, 774, 903}));
  EXPECT_TRUE(all_square(s));
  const auto big = preset("odd", {64, 8192});
  EXPECT_EQ(big.back().m, 8127u);  // 63 x 129
  for (const auto& x : big) {
    EXPECT_EQ(x.m % 129, 0u);
    EXPECT_LE(x.m, 8192u);
    EXPECT_EQ(x.group, "odd");
  }
}

TEST(BenchPresets, OddPairsPutEachOddSizeRightAfterItsNeighbour) {
  const auto s = preset("odd-pairs", {64, 1024});
  EXPECT_EQ(sides(s), (std::vector<size_t>{128, 129, 256, 258, 384, 387, 512, 516, 768, 774, 896, 903}));
  EXPECT_TRUE(all_square(s));
  for (const auto& x : s) EXPECT_EQ(x.group, "odd pairs");
  EXPECT_EQ(sides(preset("odd-pairs", {200, 600})), (std::vector<size_t>{256, 258, 384, 387, 512, 516}));
  EXPECT_EQ(sides(preset("odd-pairs", {129, 200})), (std::vector<size_t>{129})) << "128 is below min-size";
}

TEST(BenchPresets, SkinnyHasOneDimensionOf16AndTwoLarge) {
  const auto s = preset("skinny", {64, 8192});
  EXPECT_EQ(s.size(), 10u);  // L = 512 ... 8192, for m = 16 and for n = 16
  for (const auto& x : s) {
    EXPECT_TRUE((x.m == 16 && x.n == x.k) || (x.n == 16 && x.m == x.k)) << x.label();
    EXPECT_GE(x.k, 512u);
    EXPECT_LE(x.k, 8192u);
    EXPECT_EQ(x.x, x.k);
    EXPECT_EQ(x.group, x.m == 16 ? "skinny m=16" : "skinny n=16");
  }
}

TEST(BenchPresets, GemvHasOneDimensionOf1AndTwoLarge) {
  const auto s = preset("gemv", {64, 8192});
  EXPECT_EQ(s.size(), 8u);  // L = 1024 ... 8192, for m = 1 and for n = 1
  for (const auto& x : s) {
    EXPECT_TRUE((x.m == 1 && x.n == x.k) || (x.n == 1 && x.m == x.k)) << x.label();
    EXPECT_GE(x.k, 1024u);
    EXPECT_LE(x.k, 8192u);
    EXPECT_EQ(x.group, x.m == 1 ? "gemv m=1" : "gemv n=1");
  }
}

TEST(BenchPresets, RectIsNonSquareWithTheWorkOfACube) {
  const auto s = preset("rect", {64, 4096});
  ASSERT_FALSE(s.empty());
  for (const auto& x : s) {
    EXPECT_FALSE(x.m == x.n && x.n == x.k) << x.label();
    EXPECT_EQ(x.m * x.n * x.k, x.x * x.x * x.x) << x.label();
    EXPECT_LE(std::max({x.m, x.n, x.k}), 4096u) << x.label();
    EXPECT_EQ(x.group.rfind("rect", 0), 0u);
  }
}

TEST(BenchPresets, UnknownPresetAndBadLimitsAreErrors) {
  EXPECT_THROW(preset("cubes", {64, 1024}), Error);
  EXPECT_THROW(preset("square", {2048, 1024}), Error);
}

TEST(BenchSizes, ListOfSquares) {
  const auto s = parse_sizes("512,1024,4096", {});
  EXPECT_EQ(sides(s), (std::vector<size_t>{512, 1024, 4096}));
  EXPECT_TRUE(all_square(s));
}

TEST(BenchSizes, ExplicitShapeSitsAtTheSideOfTheEquivalentCube) {
  const auto s = parse_sizes("100x200x400,  8x8x8", {});
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[0].m, 100u);
  EXPECT_EQ(s[0].n, 200u);
  EXPECT_EQ(s[0].k, 400u);
  EXPECT_EQ(s[0].group, "custom");
  EXPECT_EQ(s[0].x, 200u);  // cbrt(8e6)
  EXPECT_EQ(s[1].group, "square");
}

TEST(BenchSizes, Ranges) {
  EXPECT_EQ(sides(parse_sizes("64:256", {})), (std::vector<size_t>{64, 128, 256}));
  EXPECT_EQ(sides(parse_sizes("100:400:100", {})), (std::vector<size_t>{100, 200, 300, 400}));
  EXPECT_EQ(sides(parse_sizes("64:1024:x4", {})), (std::vector<size_t>{64, 256, 1024}));
  EXPECT_EQ(sides(parse_sizes("64:150:x1.5", {})), (std::vector<size_t>{64, 96, 144}));
}

TEST(BenchSizes, PresetsMixWithNumbersAndDuplicatesAreDropped) {
  const auto s = parse_sizes("square,100,64,odd", {64, 256});
  EXPECT_EQ(sides(s), (std::vector<size_t>{64, 96, 128, 192, 256, 100, 129}));
  EXPECT_EQ(s.back().group, "odd");
}

// BxMxNxK is a strided batch of B items; the batched preset is the issue's five batches, whatever
// the limits; a batch and a single GEMM of the same item are different shapes.
TEST(BenchSizes, BatchedShapesAndThePreset) {
  const auto s = parse_sizes("4096x32x16x8,32x16x8", {});
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[0].batch, 4096u);
  EXPECT_EQ(s[0].m, 32u);
  EXPECT_EQ(s[0].k, 8u);
  EXPECT_EQ(s[0].group, "batched");
  EXPECT_EQ(s[0].label(), "4096x[32x16x8]");
  EXPECT_EQ(s[1].batch, 1u);
  EXPECT_EQ(s[1].label(), "32x16x8");
  const auto b = preset("batched", {64, 128});
  ASSERT_EQ(b.size(), 5u);
  EXPECT_EQ(b.front().label(), "4096x[32x32x32]");
  EXPECT_EQ(b.back().label(), "64x[512x512x512]");
}

// --grouped: seeded random problems (the same every time), a file of MxNxK lines, and errors that
// name the item or line.
TEST(BenchGrouped, RandomProblemsFilesAndErrors) {
  const Shape r = parse_grouped("random");
  ASSERT_EQ(r.problems.size(), 64u);
  EXPECT_EQ(r.spec, "random:64:64:1024:1");
  EXPECT_EQ(r.label(), "grouped random:64:64:1024:1");
  for (const GemmShape& p : r.problems) {
    EXPECT_GE(std::min({p.m, p.n, p.k}), 64u);
    EXPECT_LE(std::max({p.m, p.n, p.k}), 1024u);
  }
  const Shape again = parse_grouped("random:64:64:1024:1");
  for (size_t i = 0; i < r.problems.size(); ++i) EXPECT_EQ(shape_text(again.problems[i]), shape_text(r.problems[i]));
  EXPECT_EQ(parse_grouped("random:3:5:5").problems.size(), 3u);
  const std::string path = ::testing::TempDir() + "/grouped_problems.txt";
  {
    std::ofstream out(path);
    out << "# problems\n7x9x13\n\n 100 x 1 x 5  # a comment\n";
  }
  const Shape f = parse_grouped("@" + path);
  ASSERT_EQ(f.problems.size(), 2u);
  EXPECT_EQ(shape_text(f.problems[1]), "100x1x5");
  EXPECT_EQ(f.m, 100u);
  EXPECT_EQ(f.k, 13u);
  for (const char* bad : {"rand", "random:0:5:5", "random:3:9:5", "random:3:5", "@/nonexistent/file"}) {
    try {
      parse_grouped(bad);
      ADD_FAILURE() << "'" << bad << "' was accepted";
    } catch (const Error& e) {
      EXPECT_EQ(e.status(), Status::InvalidArgument) << bad;
      EXPECT_NE(std::string(e.what()).find("--grouped"), std::string::npos) << e.what();
    }
  }
}

// Language-model presets: decoding's rows against a layer's three weights, attention's batches
// per head, both whatever the size limits.
TEST(BenchPresets, DecodeAndAttentionHaveTheModelsShapes) {
  const auto d = preset("decode", {64, 1024});
  ASSERT_EQ(d.size(), 24u);  // M = 1 ... 128 for each of three weights
  for (const auto& x : d) {
    EXPECT_EQ(x.m & (x.m - 1), 0u) << x.label();
    EXPECT_LE(x.m, 128u);
    EXPECT_TRUE((x.n == 4096 && x.k == 4096) || (x.n == 14336 && x.k == 4096) || (x.n == 4096 && x.k == 14336))
        << x.label();
    EXPECT_EQ(x.group, "decode " + std::to_string(x.n) + "x" + std::to_string(x.k));
    EXPECT_EQ(x.x, x.m);
  }
  EXPECT_EQ(d.front().label(), "1x4096x4096");
  const auto a = preset("attention", {64, 1024});
  ASSERT_EQ(a.size(), 10u);
  for (const auto& x : a) {
    const bool qk = x.group.rfind("attention QK", 0) == 0;
    EXPECT_TRUE(qk || x.group.rfind("attention PV", 0) == 0) << x.group;
    const size_t d_head = x.batch == 32 ? 128 : 64;
    EXPECT_TRUE(x.batch == 32 || (x.batch == 128 && x.m == 1024)) << x.label();
    if (qk) EXPECT_TRUE(x.n == x.m && x.k == d_head) << x.label();
    else EXPECT_TRUE(x.n == d_head && x.k == x.m) << x.label();
  }
  EXPECT_EQ(a.front().label(), "32x[512x512x128]");
  // In a list, the presets mix with other items.
  EXPECT_EQ(parse_sizes("decode,attention,64", {64, 1024}).size(), 35u);
}

// --grouped moe: the experts of one layer, rows routed unevenly (some experts none), the same for
// a seed every time, and its errors.
TEST(BenchGrouped, MixtureOfExpertsRoutesEveryRowUnevenly) {
  const Shape m = parse_grouped("moe");
  EXPECT_EQ(m.spec, "moe:64:14336:4096:8192:1");
  ASSERT_EQ(m.problems.size(), 64u);
  size_t rows = 0, empty = 0, most = 0;
  for (const GemmShape& p : m.problems) {
    EXPECT_EQ(p.n, 14336u);
    EXPECT_EQ(p.k, 4096u);
    rows += p.m, empty += p.m == 0, most = std::max(most, p.m);
  }
  EXPECT_EQ(rows, 8192u);
  EXPECT_GT(most, 3 * 8192u / 64) << "the routing should be uneven";
  const Shape large = parse_grouped("moe:128:4096:14336:8192:7");
  size_t empty_large = 0;
  for (const GemmShape& p : large.problems) empty_large += p.m == 0;
  EXPECT_GT(empty + empty_large, 0u) << "some experts should get no rows";
  EXPECT_EQ(large.n, 4096u);
  EXPECT_EQ(large.k, 14336u);
  const Shape again = parse_grouped("moe:64:14336:4096:8192:1");
  for (size_t i = 0; i < m.problems.size(); ++i) EXPECT_EQ(again.problems[i].m, m.problems[i].m);
  const Shape other = parse_grouped("moe:64:14336:4096:8192:2");
  bool differs = false;
  for (size_t i = 0; i < m.problems.size(); ++i) differs |= other.problems[i].m != m.problems[i].m;
  EXPECT_TRUE(differs) << "another seed routes otherwise";
  EXPECT_EQ(parse_grouped("moe:8:64:32:100").spec, "moe:8:64:32:100:1");
  for (const char* bad : {"moe:8", "moe:8:64", "moe:0:64:64", "moe:8:64:64:0", "moe:8:64:64:1:1:1", "moex", "moe:a:1:1"}) {
    try {
      parse_grouped(bad);
      ADD_FAILURE() << "'" << bad << "' was accepted";
    } catch (const Error& e) {
      EXPECT_EQ(e.status(), Status::InvalidArgument) << bad;
      EXPECT_NE(std::string(e.what()).find("--grouped"), std::string::npos) << e.what();
    }
  }
}

TEST(BenchSizes, ExplicitSizesIgnoreThePresetLimits) {
  EXPECT_EQ(parse_sizes("10000", {64, 1024}).front().m, 10000u);
}

TEST(BenchSizes, MalformedItemsAreErrorsNamingTheItem) {
  for (const char* bad : {"", "0", "12a", "10x20", "1x2x3x4x5", "0x2x3x4", "16777217x2x2x2", "64:32", "64:128:x1", "64:128:xz", "1:2:3:4", "5,,6",
                          "cubes", "-5"}) {
    try {
      parse_sizes(bad, {});
      ADD_FAILURE() << "'" << bad << "' was accepted";
    } catch (const Error& e) {
      EXPECT_EQ(e.status(), Status::InvalidArgument) << bad;
    }
  }
}

// A range needs a step of at least 1 and a finite factor above 1: a step of 0 or a factor of 1
// never ends, and an infinite factor gives A alone.
TEST(BenchSizes, RangesRefuseStepsAndFactorsThatDoNotAdvance) {
  for (const char* bad : {"1:100:0", "1:100:000", "1:100:x1", "1:100:x0.5", "1:100:xinf", "1:100:xnan", "1:100:x-2"}) {
    try {
      parse_sizes(bad, {});
      ADD_FAILURE() << "'" << bad << "' was accepted";
    } catch (const Error& e) {
      EXPECT_EQ(e.status(), Status::InvalidArgument) << bad;
      EXPECT_NE(std::string(e.what()).find(std::string("--sizes '") + bad + "'"), std::string::npos) << e.what();
    }
  }
  EXPECT_EQ(sides(parse_sizes("1:5:1000000000000", {})), (std::vector<size_t>{1}));
}

// Sizes past 2^31 - 1 are refused (the kernels index with 32-bit ints), whatever the digits.
TEST(BenchSizes, SizesPastTheIndexRangeAreSizeOverflow) {
  EXPECT_EQ(parse_sizes("2147483647", {}).front().m, kMaxDimension);
  for (const char* bad : {"2147483648", "999999999999", "99999999999999999999999", "16x16x2147483648",
                          "1:999999999999:x1.000001", "2147483648:2147483649"}) {
    try {
      parse_sizes(bad, {});
      ADD_FAILURE() << "'" << bad << "' was accepted";
    } catch (const Error& e) {
      EXPECT_EQ(e.status(), Status::SizeOverflow) << bad;
      EXPECT_NE(std::string(e.what()).find("2^31 - 1"), std::string::npos) << e.what();
    }
  }
}

// A range that would give more than kMaxShapes sizes is refused at once, without expanding it.
TEST(BenchSizes, TooManySizesAreRefused) {
  EXPECT_EQ(parse_sizes("1:1000:1", {}).size(), kMaxShapes);
  for (const char* bad : {"1:1001:1", "1:2000000000:x1.000001", "1:2147483647:1"}) {
    try {
      parse_sizes(bad, {});
      ADD_FAILURE() << "'" << bad << "' was accepted";
    } catch (const Error& e) {
      EXPECT_EQ(e.status(), Status::InvalidArgument) << bad;
      EXPECT_NE(std::string(e.what()).find("more than 1000"), std::string::npos) << e.what();
    }
  }
  EXPECT_THROW(parse_sizes("1:600:1,601:1200:1", {}), Error);
}

TEST(BenchSizes, MessagesNameTheOptionGiven) {
  try {
    parse_sizes("64:32", {}, "--shape");
    ADD_FAILURE();
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()).rfind("--shape '64:32'", 0), 0u) << e.what();
  }
}

}  // namespace
}  // namespace clgemm::bench
