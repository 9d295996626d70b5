// host_cblas.cpp — opening OpenBLAS for the CPU reference and peer.
#include "cpu/host_cblas.hpp"

#include <clgemm/error.hpp>

#include <dlfcn.h>

#include <string>

namespace clgemm::cpu::detail {

const HostCblas& host_cblas() {
  static const HostCblas functions = [] {
    const char* names[] = {"libopenblas.so.0", CLGEMM_OPENBLAS_LIBRARY};
    std::string tried;
    for (const char* name : names) {
      void* h = dlopen(name, RTLD_NOW | RTLD_LOCAL);
      if (!h) {
        tried += std::string(tried.empty() ? "" : "; ") + dlerror();
        continue;
      }
      HostCblas f;
      f.sgemm = reinterpret_cast<decltype(f.sgemm)>(dlsym(h, "cblas_sgemm"));
      f.dgemm = reinterpret_cast<decltype(f.dgemm)>(dlsym(h, "cblas_dgemm"));
      if (f.sgemm && f.dgemm) return f;
      tried += std::string(tried.empty() ? "" : "; ") + name + " lacks cblas_sgemm or cblas_dgemm";
    }
    throw Error(Status::Unsupported, "the CPU reference needs OpenBLAS, which did not open: " + tried);
  }();
  return functions;
}

}  // namespace clgemm::cpu::detail
