// embedded_files.hpp — files compiled into the library as text (cmake/embed_files.cmake), so that
// it needs none at run time.
#pragma once

#include <string>
#include <vector>

namespace clgemm::detail {

struct EmbeddedFile {
  const char* path;  // relative to its folder, e.g. "gemm/01_naive.cl" or "nvidia-h200.json"
  std::string text;
};

// The OpenCL C sources under src/kernels.
const std::vector<EmbeddedFile>& embedded_kernel_files();

// The built-in tuning databases under data/tuning, in the order of their names.
const std::vector<EmbeddedFile>& embedded_tuning_files();

}  // namespace clgemm::detail
