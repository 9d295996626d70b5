// kernel_sources.cpp — lookup of embedded kernel text, with an on-disk override for development.
#include "runtime/kernel_sources.hpp"

#include <clgemm/error.hpp>

#include "runtime/embedded_files.hpp"
#include "runtime/regular_file.hpp"

#include <cstdlib>

namespace clgemm::detail {

namespace {

// The largest kernel file is about 50 KB; a file over 4 MiB is a mistake (or a device), not a source.
constexpr size_t kMaxSourceBytes = size_t(4) << 20;

}  // namespace

std::string kernel_source(const std::string& path) {
  if (const char* dir = std::getenv("CLGEMM_KERNEL_DIR"); dir && *dir) {
    const std::string full = std::string(dir) + "/" + path;
    // Links are followed (a kernel folder may link to a work tree); the target must be a regular file.
    try {
      return read_regular_file(full, kMaxSourceBytes, Links::Follow);
    } catch (const FileError& e) {
      throw Error(Status::InvalidArgument, std::string("CLGEMM_KERNEL_DIR is set but ") + full +
                                               " cannot be read: " + e.what());
    }
  }
  for (const auto& s : embedded_kernel_files())
    if (path == s.path) return s.text;
  throw Error(Status::InternalError, "no embedded kernel source named '" + path + "'");
}

}  // namespace clgemm::detail
