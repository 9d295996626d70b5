// grouped_kernel.cpp — descriptor of the grouped kernel (gemm/grouped/grouped.cl). Its tiles are the
// direct kernel's, so it takes the same parameters, constraints and defaults.
#include "kernels/gemm/grouped/grouped_kernel.hpp"

#include "kernels/gemm/direct/direct_kernel.hpp"

namespace clgemm::detail {

const GemmKernelDescriptor& grouped_descriptor() {
  static const GemmKernelDescriptor d = [] {
    GemmKernelDescriptor d = direct_descriptor();
    d.info.id = "grouped";
    d.info.title = "a list of problems of any shapes in one launch, a work-group per tile of C";
    d.info.file = "gemm/grouped/grouped.cl";
    d.entry = "gemm_grouped";
    d.sources = {"common/vectors.cl", "gemm/register_tile.cl"};
    return d;
  }();
  return d;
}

}  // namespace clgemm::detail
