// bench/stats.cpp — median, min, max, mean and spread of a list of times.
#include "bench/stats.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace clgemm::bench {

double median(std::vector<double> v) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

Stats summarize(const std::vector<double>& times) {
  Stats s;
  s.count = times.size();
  if (times.empty()) return s;
  s.median = median(times);
  const auto [lo, hi] = std::minmax_element(times.begin(), times.end());
  s.min = *lo;
  s.max = *hi;
  s.mean = std::accumulate(times.begin(), times.end(), 0.0) / double(times.size());
  if (times.size() > 1) {
    double sq = 0;
    for (double t : times) sq += (t - s.mean) * (t - s.mean);
    s.stddev = std::sqrt(sq / double(times.size() - 1));
  }
  return s;
}

double gflops(double flops, double seconds) { return seconds > 0 ? flops / seconds * 1e-9 : 0.0; }

}  // namespace clgemm::bench
