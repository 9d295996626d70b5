// real_clblast.cpp — finding the real libclblast's functions.
#include "dropin/clblast/real_clblast.hpp"

#include "dropin/clblast/clblast_serve.hpp"

#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>

namespace clgemm::dropin {

namespace {

// Whether `address` lies in this shim: a search must never hand back one of the shim's own entries,
// which would call itself.
bool in_this_library(const void* address) {
  Dl_info mine{}, theirs{};
  return dladdr(reinterpret_cast<const void*>(&in_this_library), &mine) && dladdr(address, &theirs) &&
         mine.dli_fbase == theirs.dli_fbase;
}

}  // namespace

void* real_symbol(const char* symbol) {
  void* found = dlsym(RTLD_NEXT, symbol);
  if (found && !in_this_library(found)) return found;
  // Linked in place of -lclblast: the real library, where installed, opened once and kept.
  // $CLGEMM_CLBLAST_LIBRARY names another file.
  static void* library = [] {
    if (const char* path = std::getenv("CLGEMM_CLBLAST_LIBRARY"); path && *path) return dlopen(path, RTLD_NOW | RTLD_LOCAL);
    void* h = dlopen("libclblast.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!h) h = dlopen("libclblast.so", RTLD_NOW | RTLD_LOCAL);
    return h;
  }();
  found = library ? dlsym(library, symbol) : nullptr;
  if (found && in_this_library(found)) found = nullptr;
  if (tracing() && !found) std::fprintf(stderr, "clgemm_clblast: %s: no real CLBlast to pass it to\n", symbol);
  return found;
}

void* real_entry(const void* self) {
  Dl_info info{};
  if (!dladdr(self, &info) || !info.dli_sname) return nullptr;
  return real_symbol(info.dli_sname);
}

}  // namespace clgemm::dropin
