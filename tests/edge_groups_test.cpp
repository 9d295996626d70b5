// edge_groups_test.cpp — ragged edges in the same launch (GemmPlan::edge_groups): the interior's
// whole tiles plus work-groups that compute the rows below it and the columns right of it. Every
// layout, transpose and batch form must give OpenBLAS's results without writing outside C, for
// each way the kernel stages its operands; and the plan says when and how many groups it adds.
#include <clgemm/gemm.hpp>

#include "gemm/edge_groups.hpp"
#include "gemm/xgemm_kernel.hpp"
#include "gemm_case.hpp"
#include "test_support.hpp"

#include <tuple>

namespace clgemm::test {
namespace {

// Small tiles, so that small shapes have an interior and edges on both sides.
const KernelParams kSmallTiles = {{"MWG", 32}, {"NWG", 32}, {"KWG", 16}, {"MDIMC", 8}, {"NDIMC", 8}, {"VWM", 2},
                                  {"VWN", 2}};
// Neither operand staged: the edge groups' sums get local memory of their own.
const KernelParams kUnstaged = {{"MWG", 32}, {"NWG", 32}, {"KWG", 16}, {"MDIMC", 8}, {"NDIMC", 8},
                                {"VWM", 2},  {"VWN", 2},  {"SA", 0},   {"SB", 0}};
// Sliced K: three-dimensional work-groups of 144 work-items.
const KernelParams kSliced = {{"MWG", 24}, {"NWG", 24}, {"KWG", 48}, {"MDIMC", 6}, {"NDIMC", 6}, {"VWM", 2},
                              {"VWN", 2},  {"KSLICE", 4}, {"KUNROLL", 4}};
// 81 work-items: the parts of K do not divide them, and one is left without a part.
const KernelParams kOddGroup = {{"MWG", 36}, {"NWG", 36}, {"KWG", 36}, {"MDIMC", 9}, {"NDIMC", 9},
                                {"VWM", 2},  {"VWN", 2},  {"KUNROLL", 4}};
// The cp.async pipeline with A read in place (NVIDIA sm_80+ only).
const KernelParams kAsyncTiles = {{"MWG", 64}, {"NWG", 32}, {"KWG", 16}, {"MDIMC", 8}, {"NDIMC", 16}, {"VWM", 4},
                                  {"VWN", 2}, {"ASYNC", 3}, {"PACKA", 0}};

GemmOptions fused_options(const KernelParams& params) {
  GemmOptions o;
  o.force_path = GemmPath::Packed;
  o.force_params = params;
  o.force_edge_groups = GemmOptions::Toggle::On;
  return o;
}

TEST(EdgeGroupsCount, ElementsSlicesAndGroups) {
  using detail::edge_elements;
  EXPECT_EQ(edge_elements(258, 258, 16, 32), 2u * 258 + 256 * 2);
  EXPECT_EQ(edge_elements(1032, 1032, 64, 128), 8u * 1032 + 1024 * 8);
  EXPECT_EQ(edge_elements(256, 258, 16, 32), 256u * 2) << "columns only";
  EXPECT_EQ(edge_elements(256, 256, 16, 32), 0u) << "no edge";
  EXPECT_EQ(edge_elements(10, 258, 16, 32), 0u) << "no whole tile";
  // Parts of K: at least 16 elements per pass and 32 k per part, a power of two.
  EXPECT_EQ(detail::edge_slices(258, 128), 8u);
  EXPECT_EQ(detail::edge_slices(1032, 128), 8u);
  EXPECT_EQ(detail::edge_slices(1032, 256), 16u);
  EXPECT_EQ(detail::edge_slices(63, 128), 1u);
  EXPECT_EQ(detail::edge_slices(1000, 64), 4u);
  EXPECT_EQ(detail::edge_slices(1000, 15), 1u);
  EXPECT_EQ(detail::edge_slices(130, 81), 4u) << "81 work-items: 20 per pass, one spare";
  // Segments of up to 8: 258 columns of 2 rows below, 256 rows of 2 columns right; 1032³: 1032
  // and 1024 of 8; 100 rows in 64-row tiles leave 36 below, 5 segments per column.
  EXPECT_EQ(detail::edge_segments(258, 258, 16, 32), 258u + 256);
  EXPECT_EQ(detail::edge_segments(1032, 1032, 64, 128), 1032u + 1024);
  EXPECT_EQ(detail::edge_segments(100, 128, 64, 64), 5u * 128);
  // 258³ in 16×32 tiles of 128 work-items: 514 segments, 16 per pass, 33 groups; rounded up to
  // rows of 8 interior tiles.
  EXPECT_EQ(detail::edge_group_count(258, 258, 258, 16, 32, 128, 132), 40u);
  // 1032³ in 64×128 tiles: 2056 segments, one group per unit (129 would do), rounded up to rows of 8.
  EXPECT_EQ(detail::edge_group_count(1032, 1032, 1032, 64, 128, 128, 132), 136u);
  EXPECT_EQ(detail::edge_group_count(256, 256, 256, 16, 32, 128, 132), 0u);
}

TEST(EdgeGroupsPlan, ForcedOnAddsGroupsWhereThereAreEdges) {
  const DeviceInfo& d = shared_context().info();
  const GemmOptions on = fused_options(kSmallTiles);
  const GemmPlan fused = plan_gemm(d, 200, 170, 300, on);
  EXPECT_GT(fused.edge_groups, 0u);
  EXPECT_EQ(fused.edge_groups % (170 / 32), 0u) << "whole rows of the interior's grid";
  EXPECT_EQ(fused.interior_m, 0u);
  EXPECT_EQ(fused.splits, 1u);
  EXPECT_NE(fused.describe().find("edges in the same launch"), std::string::npos) << fused.describe();
  EXPECT_EQ(plan_gemm(d, 192, 160, 300, on).edge_groups, 0u) << "no edge";
  EXPECT_EQ(plan_gemm(d, 31, 100, 50, on).edge_groups, 0u) << "no whole tile along M";
  GemmOptions off = on;
  off.force_edge_groups = GemmOptions::Toggle::Off;
  EXPECT_EQ(plan_gemm(d, 200, 170, 300, off).edge_groups, 0u);
  GemmOptions split = on;
  split.force_splits = 2;
  EXPECT_EQ(plan_gemm(d, 200, 170, 300, split).edge_groups, 0u) << "a forced split-K keeps its padded tiles";
  GemmOptions apart = on;
  apart.force_edge_split = GemmOptions::Toggle::On;
  const GemmPlan three = plan_gemm(d, 200, 170, 300, apart);
  EXPECT_GT(three.interior_m, 0u);
  EXPECT_EQ(three.edge_groups, 0u) << "edges apart leave the interior without edges";
}

class EdgeGroupsSweep : public ::testing::TestWithParam<KernelParams> {};

TEST_P(EdgeGroupsSweep, SweepMatchesOpenBlas) {
  if (GetParam().count("ASYNC") && !detail::has_cp_async(shared_context().info()))
    GTEST_SKIP() << "needs cp.async (an NVIDIA GPU, sm_80 or newer)";
  // Edges along M, N or both; an edge of one row or column; K below one tile depth, below one
  // part per slice, and across many; no interior (1³).
  const std::vector<std::tuple<size_t, size_t, size_t>> shapes = {
      {65, 63, 130}, {129, 65, 7}, {200, 170, 300}, {64, 129, 1000}, {1, 1, 1}};
  run_every_layout(shapes, fused_options(GetParam()));
}

std::string config_name(const ::testing::TestParamInfo<KernelParams>& info) {
  static const char* const names[] = {"SmallTiles", "Unstaged", "Sliced", "OddGroup", "Async"};
  return names[info.index];
}

INSTANTIATE_TEST_SUITE_P(Forced, EdgeGroupsSweep,
                         ::testing::Values(kSmallTiles, kUnstaged, kSliced, kOddGroup, kAsyncTiles), config_name);

// Every batch item's edges go to its own C; the gaps between the items stay untouched.
TEST(EdgeGroupsBatches, StridedAndArraysMatchTheReference) {
  check_batched_calls(70, 45, 33, fused_options(kSmallTiles));
}

}  // namespace
}  // namespace clgemm::test
