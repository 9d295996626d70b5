// tensor_map_fix.cpp — arguments and PTX rule of util/tensor_map_fix.cl.
#include "kernels/util/tensor_map_fix.hpp"

namespace clgemm::detail {

std::vector<PtxMarkerRule> tensor_map_fix_rules() {
  return {{"tensormap_address", 2, "tensormap.replace.tile.global_address.global.b1024.b64 [{0}], {1};"}};
}

Command tensor_map_fix_command(const MappedOperand& a, const MappedOperand& b, const KernelArg& maps) {
  Command c;
  c.what = "tensor maps of A and B";
  c.sources = {"util/tensor_map_fix.cl"};
  c.entry = "tensor_map_fix";
  c.ptx_rules = tensor_map_fix_rules();
  c.args = {KernelArg::raw(a.map.data(), sizeof a.map), a.buffer, KernelArg::u64(a.byte_offset),
            KernelArg::raw(b.map.data(), sizeof b.map), b.buffer, KernelArg::u64(b.byte_offset), maps};
  return c;
}

}  // namespace clgemm::detail
