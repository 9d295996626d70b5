// bench_stats_test.cpp — median, min, spread and GFLOP/s of repeated timings.
#include "bench/stats.hpp"

#include <gtest/gtest.h>

namespace clgemm::bench {
namespace {

TEST(BenchStats, MedianOfOddAndEvenCounts) {
  EXPECT_DOUBLE_EQ(median({3, 1, 2}), 2);
  EXPECT_DOUBLE_EQ(median({4, 1, 3, 2}), 2.5);
  EXPECT_DOUBLE_EQ(median({7}), 7);
  EXPECT_DOUBLE_EQ(median({}), 0);
}

TEST(BenchStats, SummaryOfTimes) {
  const Stats s = summarize({0.5, 0.1, 0.3, 0.2, 0.4});
  EXPECT_EQ(s.count, 5u);
  EXPECT_DOUBLE_EQ(s.median, 0.3);
  EXPECT_DOUBLE_EQ(s.min, 0.1);
  EXPECT_DOUBLE_EQ(s.max, 0.5);
  EXPECT_NEAR(s.mean, 0.3, 1e-15);
  EXPECT_NEAR(s.stddev, 0.158113883, 1e-9);  // sample standard deviation of 0.1..0.5
}

TEST(BenchStats, OutliersMoveTheMeanNotTheMedian) {
  const Stats s = summarize({1, 1, 1, 1, 1, 1, 1, 1, 1, 100});
  EXPECT_DOUBLE_EQ(s.median, 1);
  EXPECT_DOUBLE_EQ(s.min, 1);
  EXPECT_GT(s.mean, 10);
}

TEST(BenchStats, EmptyAndSingle) {
  const Stats e = summarize({});
  EXPECT_EQ(e.count, 0u);
  EXPECT_EQ(e.median, 0);
  const Stats one = summarize({2.5});
  EXPECT_EQ(one.median, 2.5);
  EXPECT_EQ(one.stddev, 0);
}

TEST(BenchStats, Gflops) {
  EXPECT_DOUBLE_EQ(gflops(2e9, 1.0), 2.0);
  EXPECT_DOUBLE_EQ(gflops(2.0 * 1024 * 1024 * 1024, 0.5), 2.0 * 1024 * 1024 * 1024 / 0.5 * 1e-9);
  EXPECT_EQ(gflops(1e9, 0), 0);
}

}  // namespace
}  // namespace clgemm::bench
