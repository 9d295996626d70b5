// tunable_kernels.hpp — the table of GEMM kernel families that the tuner searches and the tuning
// database names (TuningEntry::kernel): xgemm, direct, xmma, wgmma and dmma. The tuning database,
// the tuner, its candidate bench and the planner's entry lookups ask this table what a family is,
// instead of comparing its name.
#pragma once

#include "kernels/descriptor.hpp"

#include <clgemm/gemm.hpp>

#include <string>
#include <vector>

namespace clgemm::detail {

struct KernelFamily {
  std::string id;                               // the descriptor's info.id and the entries' kernel name
  GemmPath path = GemmPath::Direct;             // the planner's path that runs it
  bool tensor = false;                          // tensor cores: entries of `clgemm tune --tensor`
  bool splits_k = false;                        // its tuned entries may carry split-K (xgemm)
  const GemmKernelDescriptor& (*descriptor)() = nullptr;
  bool (*multiplies)(DataType operands) = nullptr;  // the operand types it multiplies
  std::string operands;                         // the same in words, for errors
  // Tensor families: the planner's rule for the tiles of a call of `shape` (items in shape.batch)
  // with `operands` of that type, where no tuned entry serves it (TF32 for wgmma's f32).
  KernelParams (*rule_tiles)(const DeviceInfo& device, const GemmShape& shape, DataType operands) = nullptr;
};

// Every tunable family, in the order `clgemm tune` lists them.
const std::vector<KernelFamily>& tunable_families();

// The family named `kernel`, or nullptr for any other name.
const KernelFamily* find_tunable_family(const std::string& kernel);

// The family named `kernel`; Error(InvalidArgument) naming the families for any other name.
const KernelFamily& tunable_family(const std::string& kernel);

// Whether `kernel` names a tunable family.
bool is_tunable_family(const std::string& kernel);

// "xgemm, direct, xmma, wgmma, dmma".
std::string tunable_family_names();

// The descriptor of the family named `kernel` (tunable_family(kernel).descriptor()).
const GemmKernelDescriptor& tunable_descriptor(const std::string& kernel);

}  // namespace clgemm::detail
