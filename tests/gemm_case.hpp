// gemm_case.hpp — one GEMM case through the public API, checked against OpenBLAS: every element
// of C's buffer outside the m×n result must be untouched, guard zones intact, error within
// tolerance. Shared by the sweep and the forced-configuration tests.
#pragma once

#include <clgemm/gemm.hpp>

#include <string>
#include <tuple>
#include <vector>

namespace clgemm::test {

struct SweepCase {
  Layout layout;
  Transpose ta, tb;
  size_t m, n, k;
  size_t pad, offset;
  float alpha, beta;
};

std::string describe(const SweepCase& c);

// Runs `sc` through clgemm::gemm (with `options`) and OpenBLAS on the same fresh random inputs,
// reporting mismatches as gtest failures.
void run_case(const SweepCase& sc, const GemmOptions& options = {});

// run_case for every shape (m, n, k) on both layouts and every transpose of A and B, twice: with
// leading dimensions padded by 3, offsets of 13, alpha -1.5 and beta 0.5; then dense, with alpha 1
// and beta 0. Stops at the first fatal failure.
void run_every_layout(const std::vector<std::tuple<size_t, size_t, size_t>>& shapes, const GemmOptions& options);

}  // namespace clgemm::test
