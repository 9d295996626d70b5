// bench/stats.hpp — summary statistics of repeated timings.
#pragma once

#include <cstddef>
#include <vector>

namespace clgemm::bench {

struct Stats {
  size_t count = 0;
  double median = 0, min = 0, max = 0, mean = 0;
  double stddev = 0;  // sample standard deviation (0 for fewer than two samples)
};

// Median of `v` (the mean of the two middle values for an even count; 0 for an empty list).
double median(std::vector<double> v);

// All of Stats at once. An empty list gives all zeros.
Stats summarize(const std::vector<double>& times);

// GFLOP/s of `flops` done in `seconds` (0 when seconds is not positive).
double gflops(double flops, double seconds);

}  // namespace clgemm::bench
