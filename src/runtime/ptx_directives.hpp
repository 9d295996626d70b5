// ptx_directives.hpp — performance directives added to the PTX that NVIDIA's OpenCL compiler
// returns as a program's binary (OpenCL C has no launch bounds).
#pragma once

#include <optional>
#include <string>

namespace clgemm::detail {

// True when a program binary is PTX text (what NVIDIA's OpenCL returns).
bool is_ptx(const std::string& binary);

// The PTX with `.minnctapersm blocks` on every kernel entry that has a fixed or maximum thread
// count (.reqntid / .maxntid, which .minnctapersm needs): the assembler then caps each kernel's
// registers so that `blocks` work-groups fit on one SM. An existing .minnctapersm is replaced.
// nullopt when no entry could take it.
std::optional<std::string> with_min_blocks_per_sm(const std::string& ptx, unsigned blocks);

}  // namespace clgemm::detail
