// gemm_sweep_test.cpp — the BLAS-style API against OpenBLAS: both layouts × both transposes of A and
// B × m, n, k in {1, 7, 64, 65, 129} × minimal and padded leading dimensions × offsets {0, 13} ×
// four (alpha, beta) pairs. Every element of C's buffer outside the m×n result must be untouched
// (gemm_case.cpp does the checking).
#include <clgemm/gemm.hpp>

#include "gemm_case.hpp"
#include "test_support.hpp"

#include <cblas.h>

#include <cmath>
#include <tuple>

namespace clgemm::test {
namespace {

using SweepParam = std::tuple<Layout, Transpose, Transpose>;
class GemmSweep : public ::testing::TestWithParam<SweepParam> {};

const size_t kSizes[] = {1, 7, 64, 65, 129};
const std::pair<float, float> kScalars[] = {{1.0f, 0.0f}, {3.14f, 0.0f}, {0.0f, 2.0f}, {-1.5f, 0.5f}};

TEST_P(GemmSweep, MatchesOpenBlas) {
  const auto [layout, ta, tb] = GetParam();
  for (size_t m : kSizes)
    for (size_t n : kSizes)
      for (size_t k : kSizes)
        for (size_t pad : {0, 3})
          for (size_t offset : {0, 13})
            for (const auto& [alpha, beta] : kScalars) {
              run_case({layout, ta, tb, m, n, k, pad, offset, alpha, beta});
              if (HasFatalFailure()) return;
            }
}

INSTANTIATE_TEST_SUITE_P(
    AllLayouts, GemmSweep,
    ::testing::Combine(::testing::Values(Layout::RowMajor, Layout::ColMajor), ::testing::Values(Transpose::No, Transpose::Yes),
                       ::testing::Values(Transpose::No, Transpose::Yes)),
    [](const auto& info) {
      return std::string(std::get<0>(info.param) == Layout::RowMajor ? "Row" : "Col") +
             (std::get<1>(info.param) == Transpose::Yes ? "T" : "N") + (std::get<2>(info.param) == Transpose::Yes ? "T" : "N");
    });

// Both paths on every layout and transpose, forced, at sizes where the planner would pick either.
class GemmForcedPath : public ::testing::TestWithParam<std::tuple<GemmPath, Layout, Transpose, Transpose>> {};

TEST_P(GemmForcedPath, MatchesOpenBlas) {
  const auto [path, layout, ta, tb] = GetParam();
  GemmOptions o;
  o.force_path = path;
  for (const auto& [m, n, k] : std::vector<std::tuple<size_t, size_t, size_t>>{{1, 1, 1}, {7, 65, 3}, {130, 129, 200}, {257, 31, 66}})
    for (size_t pad : {0, 5}) {
      run_case({layout, ta, tb, m, n, k, pad, 13, -1.5f, 0.5f}, o);
      if (HasFatalFailure()) return;
    }
}

INSTANTIATE_TEST_SUITE_P(
    BothPaths, GemmForcedPath,
    ::testing::Combine(::testing::Values(GemmPath::Direct, GemmPath::Packed),
                       ::testing::Values(Layout::RowMajor, Layout::ColMajor), ::testing::Values(Transpose::No, Transpose::Yes),
                       ::testing::Values(Transpose::No, Transpose::Yes)),
    [](const auto& info) {
      return std::string(std::get<0>(info.param) == GemmPath::Direct ? "Direct" : "Packed") +
             (std::get<1>(info.param) == Layout::RowMajor ? "Row" : "Col") +
             (std::get<2>(info.param) == Transpose::Yes ? "T" : "N") + (std::get<3>(info.param) == Transpose::Yes ? "T" : "N");
    });

}  // namespace
}  // namespace clgemm::test
