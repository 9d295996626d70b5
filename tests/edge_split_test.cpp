// edge_split_test.cpp — ragged edges run apart (GemmPlan::interior_m): the interior and the two
// strips left over are three GEMMs on blocks of C; every layout, transpose and batch form must
// give the same results as one GEMM, without writing outside C, on in-order and out-of-order
// queues; and the plan says when it splits.
#include <clgemm/gemm.hpp>

#include "plan/edge_split.hpp"
#include "kernels/gemm/xgemm/xgemm_kernel.hpp"
#include "gemm_case.hpp"
#include "test_support.hpp"

#include <tuple>

namespace clgemm::test {
namespace {

// Small tiles, so that small shapes have an interior and edges on both sides.
const KernelParams kSmallTiles = {{"MWG", 32}, {"NWG", 32}, {"KWG", 16}, {"MDIMC", 8}, {"NDIMC", 8}, {"VWM", 2},
                                  {"VWN", 2}};
// The cp.async pipeline with A read in place (NVIDIA sm_80+ only).
const KernelParams kAsyncTiles = {{"MWG", 64}, {"NWG", 32}, {"KWG", 16}, {"MDIMC", 8}, {"NDIMC", 16}, {"VWM", 4},
                                  {"VWN", 2}, {"ASYNC", 3}, {"PACKA", 0}};

GemmOptions split_options(const KernelParams& params) {
  GemmOptions o;
  o.force_path = GemmPath::Packed;
  o.force_params = params;
  o.force_edge_split = GemmOptions::Toggle::On;
  return o;
}

TEST(EdgeSplitBlocks, OffsetsMoveToTheBlocksFirstRowAndColumn) {
  detail::RowMajorGemm g;
  g.m = 100, g.n = 90, g.k = 80;
  g.a = {nullptr, 5, 81}, g.b = {nullptr, 7, 95}, g.c = {nullptr, 11, 91};
  detail::BatchSpec arrays;
  arrays.count = 2, arrays.arrays = true;
  arrays.a_offsets = {0, 1000}, arrays.b_offsets = {3, 2000}, arrays.c_offsets = {4, 3000};
  const auto plain = detail::block_of(g, {}, 64, 36, 32, 58);
  EXPECT_EQ(plain.g.m, 36u);
  EXPECT_EQ(plain.g.n, 58u);
  EXPECT_EQ(plain.g.k, 80u);
  EXPECT_EQ(plain.g.a.offset, 5u + 64 * 81);  // row 64 of A
  EXPECT_EQ(plain.g.b.offset, 7u + 32);       // column 32 of B
  EXPECT_EQ(plain.g.c.offset, 11u + 64 * 91 + 32);
  g.trans_a = g.trans_b = true;  // Aᵀ stored k×m, Bᵀ stored n×k
  const auto transposed = detail::block_of(g, arrays, 64, 36, 32, 58);
  EXPECT_EQ(transposed.g.a.offset, 5u + 64);       // column 64 of Aᵀ
  EXPECT_EQ(transposed.g.b.offset, 7u + 32 * 95);  // row 32 of Bᵀ
  EXPECT_EQ(transposed.batch.a_offsets, (std::vector<size_t>{64, 1064}));
  EXPECT_EQ(transposed.batch.b_offsets, (std::vector<size_t>{3 + 32 * 95, 2000 + 32 * 95}));
  EXPECT_EQ(transposed.batch.c_offsets, (std::vector<size_t>{4 + 64 * 91 + 32, 3000 + 64 * 91 + 32}));
}

TEST(EdgeSplitBlocks, InteriorHoldsWholeTilesOnly) {
  using detail::interior_of;
  EXPECT_EQ(interior_of(2064, 2064, 128, 128).m, 2048u);
  EXPECT_EQ(interior_of(2064, 2100, 128, 64).n, 2048u);
  EXPECT_EQ(interior_of(2048, 2048, 128, 128).m, 0u) << "no edge";
  EXPECT_EQ(interior_of(100, 2064, 128, 128).m, 0u) << "no whole tile along M";
  EXPECT_EQ(interior_of(2048, 2050, 128, 128).m, 2048u) << "an edge along N only";
  const auto strips = detail::edge_strips(2064, 2100, {2048, 2048});
  ASSERT_EQ(strips.size(), 2u);
  EXPECT_EQ(strips[0].row0, 2048u);  // the rows below, full width
  EXPECT_EQ(strips[0].rows, 16u);
  EXPECT_EQ(strips[0].col0, 0u);
  EXPECT_EQ(strips[0].cols, 2100u);
  EXPECT_EQ(strips[1].row0, 0u);  // the columns right of the interior, its rows only
  EXPECT_EQ(strips[1].rows, 2048u);
  EXPECT_EQ(strips[1].col0, 2048u);
  EXPECT_EQ(strips[1].cols, 52u);
  EXPECT_EQ(detail::edge_strips(2048, 2050, {2048, 2048}).size(), 1u) << "no rows left below";
}

TEST(EdgeSplitPlan, ForcedOnSplitsAndOffKeepsOneGemm) {
  const DeviceInfo& d = shared_context().info();
  GemmOptions on = split_options(kSmallTiles);
  const GemmPlan split = plan_gemm(d, 200, 170, 300, on);
  EXPECT_EQ(split.interior_m, 192u);
  EXPECT_EQ(split.interior_n, 160u);
  EXPECT_NE(split.describe().find("edges apart"), std::string::npos) << split.describe();
  const GemmPlan aligned = plan_gemm(d, 192, 160, 300, on);
  EXPECT_EQ(aligned.interior_m, 0u) << "nothing to split off";
  GemmOptions off = on;
  off.force_edge_split = GemmOptions::Toggle::Off;
  EXPECT_EQ(plan_gemm(d, 200, 170, 300, off).interior_m, 0u);
  GemmOptions direct = on;
  direct.force_path = GemmPath::Direct;
  direct.force_params.clear();
  EXPECT_EQ(plan_gemm(d, 200, 170, 300, direct).interior_m, 0u) << "the direct kernel has no tiles to pad";
}

// The rule on the built-in H200 entries (H200 measurements in edge_split.hpp): split where the
// interior saves a wave of tiles and the strips are thin; not where no wave is saved, the strips
// are wide, or the call is small.
TEST(EdgeSplitPlan, H200SplitsWhereItMeasuredFaster) {
  const ScopedDatabase no_user_entries;
  const DeviceInfo h200 = fake_h200();
  const auto interior = [&](size_t m, size_t n, size_t k) {
    const GemmPlan p = plan_gemm(h200, m, n, k);
    return std::make_pair(p.interior_m, p.interior_n);
  };
  using Size = std::pair<size_t, size_t>;
  EXPECT_EQ(interior(2064, 2064, 2064), Size(2048, 2048));
  EXPECT_EQ(interior(4128, 4128, 4128), Size(4096, 4096));
  EXPECT_EQ(interior(4100, 4100, 4100), Size(4096, 4096));
  EXPECT_EQ(interior(2048, 2064, 2048), Size(2048, 2048));
  for (size_t n : {1032, 1548, 2000, 2100, 3000, 3999, 4000, 4096})
    EXPECT_EQ(interior(n, n, n), Size(0, 0)) << n << "³";
  EXPECT_EQ(interior(4096, 4096, 2064), Size(0, 0)) << "a ragged K needs no split";
  DeviceInfo cpu = h200;
  cpu.kind = DeviceKind::CPU;
  EXPECT_EQ(plan_gemm(cpu, 2064, 2064, 2064).interior_m, 0u) << "measured on GPUs only";
}

class EdgeSplitSweep : public ::testing::TestWithParam<KernelParams> {};

TEST_P(EdgeSplitSweep, SweepMatchesOpenBlas) {
  if (GetParam().count("ASYNC") && !detail::has_cp_async(shared_context().info()))
    GTEST_SKIP() << "needs cp.async (an NVIDIA GPU, sm_80 or newer)";
  const GemmOptions o = split_options(GetParam());
  // Edges along M, N or both; an edge of one row or column; no interior (1³, 31×100); K below
  // one tile depth and across many.
  const std::vector<std::tuple<size_t, size_t, size_t>> shapes = {{65, 63, 130}, {129, 65, 7},  {200, 170, 300}, {1, 1, 1},
                                                       {31, 100, 50}, {100, 31, 50}, {129, 64, 33},   {64, 129, 1000}};
  run_every_layout(shapes, o);
}

INSTANTIATE_TEST_SUITE_P(Forced, EdgeSplitSweep, ::testing::Values(kSmallTiles, kAsyncTiles),
                         [](const auto& info) { return info.index == 0 ? "SmallTiles" : "Async"; });

// Every batch item's blocks move with its own offsets; the gaps between the items stay untouched.
TEST(EdgeSplitBatches, StridedAndArraysMatchTheReference) {
  check_batched_calls(70, 45, 33, split_options(kSmallTiles));
}

// On an out-of-order queue the three GEMMs may run at once; the event handed back must still
// complete only when all of them have, and the events list holds every command.
TEST(EdgeSplitQueues, OutOfOrderQueueEventCoversEveryPart) {
  Context& ctx = shared_context();
  cl_int err = CL_SUCCESS;
  const cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
  cl_command_queue q = clCreateCommandQueueWithProperties(ctx.context()(), ctx.info().device(), props, &err);
  if (err != CL_SUCCESS) GTEST_SKIP() << "the device has no out-of-order queues";
  const size_t m = 200, n = 170, k = 300;
  std::vector<float> a(m * k), b(k * n), c(m * n);
  cpu::fill_random(a, fresh_seed());
  cpu::fill_random(b, fresh_seed());
  cpu::fill_random(c, fresh_seed());
  cl::Buffer da = upload(ctx, a), db = upload(ctx, b), dc = upload(ctx, c);
  std::vector<cl::Event> events;
  GemmOptions o = split_options(kSmallTiles);
  o.events = &events;
  cl_event ev = nullptr;
  gemm(row_major_call(m, n, k, 1.5f, -1.0f, da(), db(), dc()), q, &ev, o);
  wait_and_release(ev);
  for (const auto& e : events) EXPECT_EQ(e.getInfo<CL_EVENT_COMMAND_EXECUTION_STATUS>(), CL_COMPLETE);
  EXPECT_GE(events.size(), 4u) << "at least three GEMMs and the marker";
  const auto want = reference_gemm(m, n, k, 1.5f, a.data(), b.data(), -1.0f, c.data());
  EXPECT_TRUE(matches_reference(download(ctx, dc, m * n), want, k, 0));
  clReleaseCommandQueue(q);
}

}  // namespace
}  // namespace clgemm::test
