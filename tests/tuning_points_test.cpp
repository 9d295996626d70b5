// tuning_points_test.cpp — the measured points of a tuning run: the shape each class gets them on,
// and the entry's and alternatives' measurements there on this device, which the planner then
// predicts from.
#include <clgemm/gemm.hpp>

#include "database/database.hpp"
#include "tune/tuner.hpp"
#include "tune/tuning_points.hpp"
#include "test_support.hpp"

namespace clgemm::test {
namespace {

// Every default target of both device kinds gets a point shape in its own class, smaller than the
// tuned shape; a skinny shape keeps its thin side.
TEST(TuningPoints, PointShapesStayInTheirClassAndShrink) {
  for (DeviceKind kind : {DeviceKind::GPU, DeviceKind::CPU}) {
    DeviceInfo dev;
    dev.kind = kind;
    for (const auto& t : detail::default_targets(dev, 100, {})) {
      const auto s = detail::point_shape(kind, t.shape_class, t.shape);
      ASSERT_TRUE(s.has_value()) << t.shape_class;
      EXPECT_EQ(detail::class_of(kind, *s), t.shape_class);
      EXPECT_LT(double(s->m) * s->n * s->k, double(t.shape.m) * t.shape.n * t.shape.k) << t.shape_class;
      if (t.shape_class == "skinny") {
        EXPECT_EQ(s->m, t.shape.m);
      }
      if (t.shape_class == "batched") {
        EXPECT_EQ(s->batch, 4 * t.shape.batch) << "smaller items, more of them";
        EXPECT_EQ(s->m * 2, t.shape.m);
      }
    }
  }
  // Half where half stays in the class, less where it would not.
  const auto gpu_medium = detail::point_shape(DeviceKind::GPU, "medium", {1024, 1024, 1024});
  ASSERT_TRUE(gpu_medium.has_value());
  EXPECT_EQ(gpu_medium->m, 512u);
  const auto cpu_medium = detail::point_shape(DeviceKind::CPU, "medium", {512, 512, 512});
  ASSERT_TRUE(cpu_medium.has_value());
  EXPECT_EQ(cpu_medium->m, 360u);  // 256³ would be "small"
  // A shape with nothing to shrink, or none that stays in the class: no point.
  EXPECT_FALSE(detail::point_shape(DeviceKind::GPU, "skinny", {16, 16, 16}).has_value());
  EXPECT_FALSE(detail::point_shape(DeviceKind::GPU, "large", {2600, 2600, 2600}).has_value());
}

// Points measured here for an entry with one alternative: one each, at the point shape, with a
// speed; the planner then predicts a call near that shape from them. With no time to spare only
// the entry is measured.
TEST(TuningPoints, EntryAndAlternativesAreMeasuredAndThePlannerUsesThem) {
  const ScopedDatabase scoped;
  Context& ctx = shared_context();
  detail::Tuner tuner(ctx, fresh_seed());
  detail::TuningEntry e;
  e.device = ctx.info().name, e.architecture = ctx.info().architecture, e.vendor = ctx.info().vendor;
  e.device_type = ctx.info().kind_name(), e.shape_class = "medium", e.kernel = "xgemm", e.date = "2026-11-22";
  // Tuned (so the entry says) far away and far faster than anything at the point: a call nearer
  // the point than the tuned shape is predicted from the point.
  e.shape = {4096, 4096, 4096}, e.gflops = 1e6;
  e.params = {{"MWG", 32}, {"NWG", 32}, {"KWG", 16}, {"MDIMC", 8}, {"NDIMC", 8}, {"VWM", 2}, {"VWN", 2}};
  e.alternatives.push_back({{{"MWG", 16}, {"NWG", 32}, {"KWG", 16}, {"MDIMC", 8}, {"NDIMC", 8}, {"VWM", 1}, {"VWN", 2}}, 1e6, {}});
  const GemmShape at{72, 40, 36};

  size_t reports = 0, total_seen = 0;
  const auto report = [&](size_t, size_t total) { ++reports, total_seen = total; };
  EXPECT_EQ(detail::add_points(tuner, e, at, 0, report), 2u);
  EXPECT_EQ(reports, 2u);
  EXPECT_EQ(total_seen, 2u);
  for (const auto* points : {&e.points, &e.alternatives[0].points}) {
    ASSERT_EQ(points->size(), 1u);
    EXPECT_EQ((*points)[0].shape.m, at.m);
    EXPECT_EQ((*points)[0].shape.n, at.n);
    EXPECT_EQ((*points)[0].shape.k, at.k);
    EXPECT_GT((*points)[0].gflops, 0);
    EXPECT_LT((*points)[0].gflops, 1e6);
  }

  // Stored and planned: a medium call nearer the point than 4096³ is predicted from it.
  detail::TuningDatabase db;
  db.upsert(e);
  detail::save_database(db, scoped.path());
  detail::reload_user_database();
  const auto back = detail::find_tuning(ctx.info(), "medium");
  ASSERT_TRUE(back.has_value());
  ASSERT_EQ(back->entry.points.size(), 1u);
  GemmOptions packed;
  packed.force_path = GemmPath::Packed;
  const GemmPlan plan = plan_gemm(ctx.info(), 330, 330, 330, packed);
  EXPECT_NE(plan.source.find("predicted from its measurement at 72x40x36"), std::string::npos) << plan.source;

  detail::TuningEntry hurried = e;
  hurried.points.clear(), hurried.alternatives[0].points.clear();
  EXPECT_EQ(detail::add_points(tuner, hurried, at, 1e-9), 1u);
  EXPECT_EQ(hurried.points.size(), 1u);
  EXPECT_TRUE(hurried.alternatives[0].points.empty());

  // A search that overran leaves the points a share that still limits them (0 would not).
  EXPECT_GT(detail::points_share(-5.0, 2), 0.0);
  EXPECT_LT(detail::points_share(-5.0, 2), 0.01);
  EXPECT_DOUBLE_EQ(detail::points_share(9.0, 3), 3.0);
  hurried.points.clear();
  EXPECT_EQ(detail::add_points(tuner, hurried, at, detail::points_share(-5.0, 1)), 1u);
}

}  // namespace
}  // namespace clgemm::test
