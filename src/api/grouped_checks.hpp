// grouped_checks.hpp — the argument checks of a grouped call (gemm_grouped): each problem as gemm
// checks a call, then what one launch needs of them all.
#pragma once

#include <clgemm/gemm.hpp>

#include <vector>

namespace clgemm::detail {

// Whether a problem reads A and B (k > 0 and alpha != 0) and whether it has any element of C.
bool grouped_reads_ab(const GemmCall& problem);
bool grouped_has_work(const GemmCall& problem);

// Throws the status of the first failure, its message starting "problem i: ": each problem's
// enums, index range and operands (as gemm checks them); the same layout, element and compute
// types as problem 0, no tensor-core compute type, and the same A, B and C buffers as the first
// problem that reads each; and no problem's C sharing an element with another's A, B or C.
void check_grouped(const std::vector<GemmCall>& problems, cl_context queue_context);

}  // namespace clgemm::detail
