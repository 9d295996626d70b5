// path_choice.hpp — how a call's options stand to one path, decided in one place for every
// planner: forced onto it (GemmOptions::force_path), free for the planner to take it where it pays
// (nothing forced: no path, no parameters), or ruled out (another path, or parameters meant for
// the kernel the planner would otherwise pick).
#pragma once

#include <clgemm/gemm.hpp>

namespace clgemm::detail {

enum class PathChoice { Forced, Free, RuledOut };

inline bool chooses_freely(const GemmOptions& o) { return o.force_path == GemmPath::Auto && o.force_params.empty(); }

inline PathChoice path_choice(const GemmOptions& o, GemmPath path) {
  if (o.force_path == path) return PathChoice::Forced;
  return chooses_freely(o) ? PathChoice::Free : PathChoice::RuledOut;
}

}  // namespace clgemm::detail
