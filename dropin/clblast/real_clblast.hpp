// real_clblast.hpp — the real libclblast's entry points, for what clgemm does not compute (complex
// GEMMs): the next definition of the same symbol in the process (RTLD_NEXT, where the shim is
// preloaded before libclblast), else $CLGEMM_CLBLAST_LIBRARY or libclblast.so.1 opened for it.
#pragma once

#include <utility>

namespace clgemm::dropin {

// The real library's definition of `symbol`: null where no real CLBlast is in reach. Never one of
// the shim's own functions.
void* real_symbol(const char* symbol);

// The real library's definition of the function at `self` (one of the shim's own exported
// functions, whose symbol name dladdr finds): null where no real CLBlast is in reach.
void* real_entry(const void* self);

template <typename T>
struct same_type {
  using type = T;
};

// Calls the real definition of `self` with `args` (of self's own parameter types), or returns
// `missing` where there is none (CLBlast's kNotImplemented).
template <typename R, typename... P>
R forward_to_real(R (*self)(P...), R missing, typename same_type<P>::type... args) {
  void* real = real_entry(reinterpret_cast<const void*>(self));
  if (!real) return missing;
  return reinterpret_cast<R (*)(P...)>(real)(std::forward<P>(args)...);
}

}  // namespace clgemm::dropin
