// bench/impls/types_check.cpp — the guard every typed implementation applies to a problem.
#include "bench/impls/factories.hpp"

namespace clgemm::bench {

std::string types_mismatch(const GemmTypes& built, const Problem& p) {
  if (p.settings.types == built) return "";
  return "set up for --precision " + built.name() + ", the problem is " + p.settings.types.name();
}

}  // namespace clgemm::bench
