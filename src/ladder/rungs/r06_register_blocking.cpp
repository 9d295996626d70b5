// r06_register_blocking.cpp — descriptor of rung 6 (gemm/06_register_blocking.cl).
#include "kernels/descriptor.hpp"

#include "ladder/rungs/blocked_tiles.hpp"

namespace clgemm::detail {

GemmKernelDescriptor rung06_register_blocking() {
  GemmKernelDescriptor d;
  d.info = {6, "register-blocking", "WPTM×WPTN block of C per work-item from register fragments",
            "gemm/06_register_blocking.cl", {}};
  d.entry = "gemm_register_blocking";
  describe_blocked_tiles(d, {/*buffers=*/1, /*loads_by_work_items=*/true});
  return d;
}

}  // namespace clgemm::detail
