// ptx_markers.hpp — instructions that NVIDIA's OpenCL compiler will not emit (wgmma, setmaxnreg:
// sm_90a only), put into the PTX it returns. A kernel leaves a marker in an inline-asm comment,
//   asm volatile("// PATCH:wgmma_tf32 %0 %1 %2 %3 %4" : "+f"(d0), ... : "l"(desc));
// so that the compiler allocates the operands and writes their register names into the comment:
//   // PATCH:wgmma_tf32 %f1 %f2 %f3 %f4 %rd7
// The patch replaces each such line with its rule's instructions and raises the target
// (.target sm_90 → sm_90a), after which clCreateProgramWithBinary builds the result.
// The compiler copies a marker wherever it unrolls or duplicates code; every copy is replaced, and
// a marker that no rule names is an error, never left behind (a kernel would silently skip work).
#pragma once

#include <string>
#include <vector>

namespace clgemm::detail {

// What replaces the markers named `name`: `body` is PTX with {0}, {1}, … for the marker's
// operands (exactly `operands` of them). It is put inside braces, so it may declare registers.
struct PtxMarkerRule {
  std::string name;
  size_t operands = 0;
  std::string body;
};

struct PatchedPtx {
  std::string ptx;
  size_t replaced = 0;  // markers replaced, copies included
};

// The PTX with every marker replaced and `.target` set to `target` (e.g. "sm_90a"). Throws
// Error(BuildFailure) naming the problem where the PTX has no `.version` of at least 8.0 (the
// first with wgmma) or no `.target`, the target is not of the same architecture family as
// `target` (sm_90 for sm_90a), a marker names no rule or has another count of operands, or a rule
// uses an operand it does not have.
PatchedPtx patch_ptx_markers(const std::string& ptx, const std::vector<PtxMarkerRule>& rules, const std::string& target);

}  // namespace clgemm::detail
