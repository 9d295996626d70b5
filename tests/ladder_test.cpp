// ladder_test.cpp — every rung of the ladder against the float64 reference, at sizes that are not
// multiples of any tile, with guard zones around C and A/B checked for stray writes.
#include <clgemm/error.hpp>
#include <clgemm/ladder.hpp>

#include "test_support.hpp"

#include <tuple>

namespace clgemm::test {
namespace {

std::vector<int> all_rungs() {
  std::vector<int> out;
  for (const auto& r : ladder_rungs()) out.push_back(r.number);
  return out;
}

}  // namespace
}  // namespace clgemm::test

namespace clgemm {
// Readable parameter names in test listings.
inline void PrintTo(const GemmShape& s, std::ostream* os) { *os << s.m << "x" << s.n << "x" << s.k; }
}  // namespace clgemm

namespace clgemm::test {
namespace {

const std::vector<GemmShape> kShapes = {
    {1, 1, 1}, {7, 13, 5}, {63, 65, 127}, {129, 127, 257}, {256, 256, 256}, {1000, 3, 17},
};

// Runs one rung once on fresh inputs and checks everything a caller could notice.
void check_rung(int rung, const GemmShape& s, const KernelParams& params = {}) {
  Context& ctx = shared_context();
  const uint64_t seed = fresh_seed();
  std::vector<float> a(s.m * s.k), b(s.k * s.n);
  cpu::fill_random(a, seed);
  cpu::fill_random(b, seed + 1);
  cl::Buffer da = upload(ctx, a), db = upload(ctx, b);
  GuardedBuffer c(ctx, s.m * s.n);

  LadderRun run(ctx, rung, s, params);
  auto events = run.enqueue(da, db, c.view());
  ctx.queue().finish();
  ASSERT_FALSE(events.empty());

  EXPECT_EQ(c.guard_damage(), "") << "rung " << rung << " with " << run.build_options();
  EXPECT_TRUE(matches_reference(c.read(), cpu::gemm_reference_f64(s, a.data(), b.data()), s.k, seed))
      << "rung " << rung << " (" << run.rung().id << ") " << s.m << "x" << s.n << "x" << s.k << " with "
      << run.build_options();
  EXPECT_EQ(download(ctx, da, a.size()), a) << "rung " << rung << " wrote into A";
  EXPECT_EQ(download(ctx, db, b.size()), b) << "rung " << rung << " wrote into B";

  // A second run into the same poisoned C must give the same answer (no state left behind).
  c.poison();
  run.enqueue(da, db, c.view());
  ctx.queue().finish();
  EXPECT_TRUE(matches_reference(c.read(), cpu::gemm_reference_f64(s, a.data(), b.data()), s.k, seed))
      << "second run of rung " << rung;
}

class LadderShapes : public ::testing::TestWithParam<std::tuple<int, GemmShape>> {};

TEST_P(LadderShapes, MatchesFloat64Reference) {
  const auto& [rung, shape] = GetParam();
  check_rung(rung, shape);
}

INSTANTIATE_TEST_SUITE_P(AllRungs, LadderShapes, ::testing::Combine(::testing::ValuesIn(all_rungs()),
                                                                    ::testing::ValuesIn(kShapes)),
                         [](const auto& info) {
                           const GemmShape& s = std::get<1>(info.param);
                           return "rung" + std::to_string(std::get<0>(info.param)) + "_" + std::to_string(s.m) +
                                  "x" + std::to_string(s.n) + "x" + std::to_string(s.k);
                         });

// The parameters the GPU uses by default must be correct too, even though CI has only a CPU.
class LadderGpuDefaults : public ::testing::TestWithParam<int> {};

TEST_P(LadderGpuDefaults, CorrectOnThisDevice) {
  const int rung = GetParam();
  for (const auto& r : ladder_rungs())
    if (r.number == rung) {
      KernelParams ps = r.gpu_defaults;
      // Keep the work-group within what this device allows; the tile shapes stay the GPU's.
      try {
        check_rung(rung, {129, 130, 131}, ps);
      } catch (const Error& e) {
        if (e.status() != Status::OutOfResources) throw;
        GTEST_SKIP() << "GPU defaults do not fit this device: " << e.what();
      }
    }
}

INSTANTIATE_TEST_SUITE_P(AllRungs, LadderGpuDefaults, ::testing::ValuesIn(all_rungs()));

TEST(LadderErrors, RejectsBadArguments) {
  Context& ctx = shared_context();
  EXPECT_THROW(LadderRun(ctx, 0, {4, 4, 4}), Error);
  EXPECT_THROW(LadderRun(ctx, 99, {4, 4, 4}), Error);
  EXPECT_THROW(LadderRun(ctx, 1, {0, 4, 4}), Error);
  EXPECT_THROW(LadderRun(ctx, 1, {4, 4, 4}, {{"NO_SUCH_PARAM", 3}}), Error);
  try {
    LadderRun(ctx, 2, {4, 4, 4}, {{"TS", 4096}});
    FAIL() << "a 4096×4096 work-group must be refused";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::OutOfResources);
  }
  try {
    LadderRun(ctx, 1, {70000, 70000, 2});
    FAIL() << "sizes beyond 32-bit indexing must be refused";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::InvalidArgument);
  }
}

}  // namespace
}  // namespace clgemm::test
