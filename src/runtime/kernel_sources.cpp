// kernel_sources.cpp — lookup of embedded kernel text, with an on-disk override for development.
#include "runtime/kernel_sources.hpp"

#include <clgemm/error.hpp>

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace clgemm::detail {

std::string kernel_source(const std::string& path) {
  if (const char* dir = std::getenv("CLGEMM_KERNEL_DIR"); dir && *dir) {
    const std::string full = std::string(dir) + "/" + path;
    std::ifstream in(full, std::ios::binary);
    if (!in) throw Error(Status::InvalidArgument, "CLGEMM_KERNEL_DIR is set but " + full + " cannot be read");
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }
  for (const auto& s : embedded_sources())
    if (path == s.path) return s.text;
  throw Error(Status::InternalError, "no embedded kernel source named '" + path + "'");
}

}  // namespace clgemm::detail
