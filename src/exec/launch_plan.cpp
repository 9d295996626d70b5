// launch_plan.cpp — what a launch plan implies for running it.
#include "exec/launch_plan.hpp"

#include <algorithm>

namespace clgemm::detail {

bool passes_data_between_commands(const LaunchPlan& plan) {
  std::vector<size_t> users(plan.temporaries.size(), 0);
  for (const Command& c : plan.commands) {
    std::vector<bool> named(plan.temporaries.size(), false);
    for (const KernelArg& a : c.args)
      if (a.kind == KernelArg::Kind::Buffer && a.buffer == BufferRole::Temporary) named[a.index] = true;
    for (size_t t = 0; t < named.size(); ++t) users[t] += named[t];
  }
  return std::any_of(users.begin(), users.end(), [](size_t n) { return n > 1; });
}

}  // namespace clgemm::detail
