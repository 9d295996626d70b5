// tuning_points.cpp — the measured points of a tuning run (tuning_points.hpp).
#include "tune/tuning_points.hpp"

#include <algorithm>
#include <cmath>

namespace clgemm::detail {

namespace {

// Thin sides (a skinny shape's m or n) stay as they are; the others shrink by `factor`, to a
// multiple of 4.
size_t shrink(size_t side, double factor) {
  if (side <= 32) return side;
  return std::max<size_t>(4, size_t(std::lround(double(side) * factor / 4.0)) * 4);
}

}  // namespace

std::optional<GemmShape> point_shape(DeviceKind kind, const std::string& cls, const GemmShape& tuned) {
  // A batch's point: items of half the side, four times as many (the same bytes, an eighth of
  // the work per item), where a smaller tile may win.
  if (cls == "batched") {
    const GemmShape s{shrink(tuned.m, 0.5), shrink(tuned.n, 0.5), shrink(tuned.k, 0.5), tuned.batch * 4};
    if (s.m == tuned.m && s.n == tuned.n && s.k == tuned.k) return std::nullopt;
    return s;
  }
  for (double factor : {0.5, 0.6, 0.7, 0.8, 0.9}) {
    const GemmShape s{shrink(tuned.m, factor), shrink(tuned.n, factor), shrink(tuned.k, factor)};
    if (s.m == tuned.m && s.n == tuned.n && s.k == tuned.k) return std::nullopt;  // nothing to shrink
    if (shape_class(kind, s.m, s.n, s.k) == cls) return s;
  }
  return std::nullopt;
}

double points_share(double left_s, size_t classes_left) {
  constexpr double kLeast = 1e-3;  // seconds
  return std::max(kLeast, left_s / double(std::max<size_t>(classes_left, 1)));
}

size_t add_points(Tuner& tuner, TuningEntry& entry, const GemmShape& shape, double budget_s,
                  const std::function<void(size_t done, size_t total)>& progress) {
  std::vector<KernelParams> configs{entry.params};
  for (const auto& alt : entry.alternatives) configs.push_back(alt.params);
  // SPLIT = 0: the split the planner's model picks at this shape, the one a point is read with.
  if (entry.kernel == "xgemm")
    for (auto& c : configs) c["SPLIT"] = 0;
  const size_t total = configs.size();
  const auto measured = tuner.measure(
      shape, entry.kernel, configs, [&](size_t done) { if (progress) progress(done, total); }, budget_s);
  size_t added = 0;
  for (size_t i = 0; i < measured.size(); ++i) {
    if (measured[i].outcome != Measurement::Ok || !(measured[i].gflops > 0)) continue;
    auto& points = i == 0 ? entry.points : entry.alternatives[i - 1].points;
    points.push_back({shape, measured[i].gflops});
    ++added;
  }
  return added;
}

}  // namespace clgemm::detail
