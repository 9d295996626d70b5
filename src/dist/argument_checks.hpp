// argument_checks.hpp — ScaLAPACK's checks of p?gemm's arguments, with its INFO numbering
// (argument positions as in psgemm_: TRANSA 1, TRANSB 2, M 3, N 4, K 5, ALPHA 6, A 7, IA 8, JA 9,
// DESCA 10, B 11, IB 12, JB 13, DESCB 14, BETA 15, C 16, IC 17, JC 18, DESCC 19).
#pragma once

#include <clgemm/dist.hpp>

namespace clgemm::dist {

// Parses TRANSA or TRANSB ("N", "T" or "C", any case); throws ArgumentError(-position) otherwise.
Transpose parse_transpose(const char* text, int position, const char* routine);

// Checks sizes, descriptors and sub-matrix positions against the grid of C's context, in
// ScaLAPACK's order. Throws ArgumentError with INFO and a message that names the argument and
// its value. Needs no communication, so every rank finds the same error.
void check_pgemm_arguments(const char* routine, Transpose a_transpose, Transpose b_transpose, int m, int n, int k,
                           const Descriptor& a, int ia, int ja, const Descriptor& b, int ib, int jb,
                           const Descriptor& c, int ic, int jc);

}  // namespace clgemm::dist
