// kernel_sources.hpp — the OpenCL C sources the library compiles, by path under src/kernels.
#pragma once

#include <string>
#include <vector>

namespace clgemm::detail {

struct EmbeddedSource {
  const char* path;  // e.g. "gemm/01_naive.cl"
  std::string text;
};

// The table generated at build time by cmake/embed_kernels.cmake.
const std::vector<EmbeddedSource>& embedded_sources();

// Source text of one kernel file. When $CLGEMM_KERNEL_DIR is set, the file is read from that
// folder instead (kernel development without rebuilding). Throws Error(InvalidArgument) for an
// unknown path.
std::string kernel_source(const std::string& path);

}  // namespace clgemm::detail
