// forwarders.cpp — where the entries of cmake/clblast_forwarders.cmake lead: every CLBlast routine
// that clgemm does not compute, passed to the real library, or CLBlast's kNotImplemented where no
// real library is in reach. Linked in place of -lclblast, a program can then call any routine.
#include "dropin/clblast/real_clblast.hpp"

#include <clblast_c.h>

#include <cstddef>
#include <cstdint>

extern "C" {
// The generated table (hidden in the assembly): one slot, and one name, per exported symbol.
extern void* clgemm_forwarder_slots[];
extern const char* const clgemm_forwarder_names[];
extern const std::uint64_t clgemm_forwarder_count;
}

namespace {

// Every forwarded function returns CLBlast's status (an int in C, the same values in C++), so one
// function serves all of them where there is no real CLBlast: it ignores its arguments.
int not_implemented() { return CLBlastNotImplemented; }

}  // namespace

// The slot's first call: the real function, kept in the slot for the calls after it. Threads that
// race here store the same address.
extern "C" __attribute__((visibility("hidden"))) void* clgemm_forwarder_resolve(unsigned index) {
  if (index >= clgemm_forwarder_count) return reinterpret_cast<void*>(&not_implemented);
  void* real = clgemm::dropin::real_symbol(clgemm_forwarder_names[index]);
  void* target = real ? real : reinterpret_cast<void*>(&not_implemented);
  __atomic_store_n(&clgemm_forwarder_slots[index], target, __ATOMIC_RELEASE);
  return target;
}
