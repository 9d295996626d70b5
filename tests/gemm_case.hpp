// gemm_case.hpp — one GEMM case through the public API, checked against OpenBLAS: every element
// of C's buffer outside the m×n result must be untouched, guard zones intact, error within
// tolerance. Shared by the sweep and the forced-configuration tests.
#pragma once

#include <clgemm/gemm.hpp>

#include <string>

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

}  // namespace clgemm::test
