// host_blas.cpp — finding the host BLAS's functions.
#include "dropin/blas/host_blas.hpp"

#include <dlfcn.h>
#include <link.h>

#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace clgemm::blas {

namespace {

// The interposer's own file, so that it is never taken for the host.
const std::string& own_path() {
  static const std::string path = [] {
    Dl_info info{};
    return dladdr(reinterpret_cast<const void*>(&host_function), &info) && info.dli_fname ? std::string(info.dli_fname)
                                                                                         : std::string();
  }();
  return path;
}

// Every loaded object's path, in load order (collected first: the loader's lock is held while
// dl_iterate_phdr walks them, and dlopen must not run under it).
int collect(struct dl_phdr_info* info, size_t, void* data) {
  if (info->dlpi_name && *info->dlpi_name) static_cast<std::vector<std::string>*>(data)->push_back(info->dlpi_name);
  return 0;
}

// The first loaded object other than the interposer that defines `name`. Libraries loaded with
// RTLD_LOCAL (NumPy's bundled OpenBLAS) are found too, which RTLD_NEXT does not see.
void* search_loaded(const char* name) {
  std::vector<std::string> paths;
  dl_iterate_phdr(collect, &paths);
  for (const std::string& path : paths) {
    if (path == own_path()) continue;
    void* h = dlopen(path.c_str(), RTLD_LAZY | RTLD_NOLOAD);
    if (!h) continue;
    void* f = dlsym(h, name);
    Dl_info where{};
    // dlsym also answers from the object's dependencies: keep only a definition that is not the
    // interposer's.
    const bool other = f && dladdr(f, &where) && where.dli_fname && own_path() != where.dli_fname;
    dlclose(h);
    if (other) return f;
  }
  return nullptr;
}

}  // namespace

void* host_function(const char* name) {
  static std::mutex mutex;
  static std::unordered_map<std::string, void*> cache;
  std::lock_guard<std::mutex> lock(mutex);
  if (auto it = cache.find(name); it != cache.end()) return it->second;
  void* f = nullptr;
  if (const char* path = std::getenv("CLGEMM_BLAS_HOST"); path && *path) {
    static void* library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    f = library ? dlsym(library, name) : nullptr;
  } else {
    f = search_loaded(name);
  }
  cache[name] = f;
  return f;
}

}  // namespace clgemm::blas
