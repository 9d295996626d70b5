// tunable_kernels.cpp — the tunable GEMM kernels by name.
#include "kernels/gemm/tunable_kernels.hpp"

#include <clgemm/error.hpp>

#include "kernels/gemm/direct_kernel.hpp"
#include "kernels/gemm/dmma_kernel.hpp"
#include "kernels/gemm/wgmma_kernel.hpp"
#include "kernels/gemm/xgemm_kernel.hpp"
#include "kernels/gemm/xmma_kernel.hpp"

namespace clgemm::detail {

const GemmKernelDescriptor& tunable_descriptor(const std::string& kernel) {
  if (kernel == "xgemm") return xgemm_descriptor();
  if (kernel == "direct") return direct_descriptor();
  if (kernel == "xmma") return xmma_descriptor();
  if (kernel == "wgmma") return wgmma_descriptor();
  if (kernel == "dmma") return dmma_descriptor();
  throw Error(Status::InvalidArgument, "no tunable kernel named '" + kernel + "' (xgemm, direct, xmma, wgmma, dmma)");
}

}  // namespace clgemm::detail
