// ladder_registry.cpp — the table of ladder rungs, in teaching order. Each rung's descriptor lives
// in its own file under rungs/.
#include "kernels/descriptor.hpp"
#include "ladder/rungs.hpp"

#include <clgemm/error.hpp>

namespace clgemm::detail {

GemmKernelDescriptor rung01_naive();
GemmKernelDescriptor rung02_tiled();
GemmKernelDescriptor rung03_more_work();
GemmKernelDescriptor rung04_wide_vectors();
GemmKernelDescriptor rung05_transposed();
GemmKernelDescriptor rung06_register_blocking();
GemmKernelDescriptor rung07_double_buffered();
GemmKernelDescriptor rung08_async_copy();

const std::vector<GemmKernelDescriptor>& ladder_descriptors() {
  static const std::vector<GemmKernelDescriptor> table = {
      rung01_naive(),      rung02_tiled(),      rung03_more_work(),         rung04_wide_vectors(),
      rung05_transposed(), rung06_register_blocking(), rung07_double_buffered(), rung08_async_copy(),
  };
  return table;
}

const GemmKernelDescriptor& ladder_descriptor(int rung) {
  const auto& all = ladder_descriptors();
  for (const auto& d : all)
    if (d.info.number == rung) return d;
  throw Error(Status::InvalidArgument, "there is no ladder rung " + std::to_string(rung) + "; rungs are 1.." +
                                           std::to_string(all.size()));
}

}  // namespace clgemm::detail

namespace clgemm {

std::vector<RungInfo> ladder_rungs() {
  std::vector<RungInfo> out;
  for (const auto& d : detail::ladder_descriptors()) {
    RungInfo info = d.info;
    for (const auto& spec : d.params) {
      info.gpu_defaults[spec.name] = spec.gpu_default;
      info.cpu_defaults[spec.name] = spec.cpu_default;
    }
    out.push_back(std::move(info));
  }
  return out;
}

}  // namespace clgemm
