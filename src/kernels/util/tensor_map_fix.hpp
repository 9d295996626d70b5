// tensor_map_fix.hpp — the command that gives two tensor maps their operands' device addresses
// (util/tensor_map_fix.cl), run before each launch of a kernel that copies through them.
#pragma once

#include "kernels/command.hpp"
#include "runtime/tensor_maps.hpp"

namespace clgemm::detail {

// One tensor map's operand: the map encoded with the placeholder address, and the buffer and
// byte offset (a multiple of 16) where the tensor starts.
struct MappedOperand {
  TensorMapBytes map{};
  KernelArg buffer;
  size_t byte_offset = 0;
};

// Writes a's map and then b's, 128 bytes each, into `maps` (a buffer of at least 256 bytes) with
// their addresses in place. Built from PTX patched for sm_90a (tensormap.replace).
Command tensor_map_fix_command(const MappedOperand& a, const MappedOperand& b, const KernelArg& maps);

// The rule that turns the kernel's markers into tensormap.replace.
std::vector<PtxMarkerRule> tensor_map_fix_rules();

}  // namespace clgemm::detail
