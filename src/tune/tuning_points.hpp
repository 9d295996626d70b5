// tuning_points.hpp — after a search, the configurations it keeps (an entry and its alternatives)
// measured once more on a smaller shape of their class: the points (TuningPoint) from which the
// planner predicts the calls nearer that shape than the tuned one.
#pragma once

#include "database/database.hpp"
#include "tune/tuner.hpp"

#include <functional>
#include <optional>
#include <string>

namespace clgemm::detail {

// The shape on which shape class `cls`, tuned on `tuned`, gets its points: every side halved (a
// skinny shape keeps its thin side), or shrunk less where half would leave the class; none if no
// shrunk shape stays in it; for the batched class, items of half the side and four times as many
// of them. The small end, because that is where scaling from the tuned shape
// strays most (H200: the medium entry's 32×64 tiles, tuned at 1024³, predicted 15 µs at 516³ and
// took 23).
std::optional<GemmShape> point_shape(DeviceKind kind, const std::string& cls, const GemmShape& tuned);

// Measures `entry`'s configuration and then each alternative on `shape` (the packed kernel with
// the split the planner would choose there, as a point records) and gives each one that runs
// correctly a point there. The entry is always measured; an alternative only if it would likely
// end within `budget_s` (0: no limit; Tuner::measure), since a shape that is not a multiple of the
// tiles means a fresh build of each configuration (seconds each on PoCL). Returns the number of
// points added.
size_t add_points(Tuner& tuner, TuningEntry& entry, const GemmShape& shape, double budget_s = 0,
                  const std::function<void(size_t done, size_t total)>& progress = {});

// One class's budget for add_points when `left_s` seconds of the run's budget are left for
// `classes_left` classes: an equal part, and never 0 (which add_points reads as no limit) even
// when the search overran, so that only the entry is measured then.
double points_share(double left_s, size_t classes_left);

}  // namespace clgemm::detail
