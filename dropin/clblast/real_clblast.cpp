// real_clblast.cpp — finding the real libclblast's functions.
#include "dropin/clblast/real_clblast.hpp"

#include "dropin/clblast/clblast_serve.hpp"

#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>

namespace clgemm::dropin {

void* real_entry(const void* self) {
  Dl_info info{};
  if (!dladdr(self, &info) || !info.dli_sname) return nullptr;
  void* found = dlsym(RTLD_NEXT, info.dli_sname);
  if (found && found != self) return found;
  // Linked in place of -lclblast: the real library, where installed, opened once and kept.
  // $CLGEMM_CLBLAST_LIBRARY names another file.
  static void* library = [] {
    if (const char* path = std::getenv("CLGEMM_CLBLAST_LIBRARY"); path && *path) return dlopen(path, RTLD_NOW | RTLD_LOCAL);
    void* h = dlopen("libclblast.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!h) h = dlopen("libclblast.so", RTLD_NOW | RTLD_LOCAL);
    return h;
  }();
  found = library ? dlsym(library, info.dli_sname) : nullptr;
  if (tracing() && !found) std::fprintf(stderr, "clgemm_clblast: %s: no real CLBlast to pass it to\n", info.dli_sname);
  return found != self ? found : nullptr;
}

}  // namespace clgemm::dropin
