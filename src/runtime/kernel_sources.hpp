// kernel_sources.hpp — the OpenCL C sources the library compiles, by path under src/kernels.
#pragma once

#include <string>

namespace clgemm::detail {

// Source text of one kernel file. When $CLGEMM_KERNEL_DIR is set, the file is read from that
// folder instead (kernel development without rebuilding). Throws Error(InvalidArgument) for an
// unknown path.
std::string kernel_source(const std::string& path);

}  // namespace clgemm::detail
