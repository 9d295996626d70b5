// entry_choice.hpp — the tuning database's entries as the planner reads them: the entry of a shape
// class, and its configuration or the alternative that the load-balance model predicts fastest
// for a call.
#pragma once

#include <clgemm/gemm.hpp>

#include "database/database.hpp"
#include "kernels/descriptor.hpp"
#include "plan/tile_choice.hpp"

#include <optional>
#include <string>

namespace clgemm::detail {

// The tuned entry for a shape class (among the tensor path's entries with `tensor`, those of
// `kernel` where it is given). With `borrow`, a class without one borrows from its neighbours (a
// database tuned before the "mid" class existed has only "medium" and "large"; `clgemm tune
// --tensor --classes large` leaves mid without one), and 16-bit types from their compute type.
// Entries whose parameters are invalid for their kernel are passed over, and such alternatives
// dropped, each with a warning.
std::optional<FoundEntry> find_entry(const DeviceInfo& device, const std::string& cls, bool tensor = false,
                                     DataType type = DataType::F32, const std::string& kernel = "",
                                     bool borrow = true);

struct Choice {
  KernelParams params;
  std::string note;
  SplitK split;
  double seconds = 0;  // the model's prediction (0: none)
};

// The entry's configuration or one of its alternatives, with or without split-K: whichever the
// load-balance model predicts fastest for this shape (tile_choice.hpp). Only this class's entry:
// the model does not know how many blocks share a compute unit, so it misjudges configurations
// measured on shapes far away (it predicted the 2048³ entry's 128×128 tiles split in two
// fastest at 1024³, where they leave most of each unit idle).
Choice choose_among(const TuningEntry& e, const DeviceInfo& device, const GemmKernelDescriptor& desc,
                    const GemmShape& call, bool allow_split);

// Split-K is a feature of the xgemm kernel only.
bool splits_k(const GemmKernelDescriptor& desc);

// The caller's split, or none: for configurations without a measurement (defaults, overrides).
SplitK forced_split(const GemmKernelDescriptor& desc, const KernelParams& full, const DeviceInfo& device, size_t m,
                    size_t n, size_t k, const GemmOptions& o);

// Where the database holds an entry of `desc`'s kernel (wgmma, dmma) for the call's own class and
// `type`, never borrowed from another class: the plan takes its configuration or an alternative,
// whichever the load-balance model predicts fastest, with `fixed` set whatever the entry holds.
// An entry that does not fit this device leaves the plan as it is.
void take_tensor_entry(GemmPlan& plan, const DeviceInfo& device, const GemmKernelDescriptor& desc, DataType type,
                       const GemmShape& call, const KernelParams& fixed);

}  // namespace clgemm::detail
