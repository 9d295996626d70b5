// ladder_rungs_test.cpp — rungs 3–8 with parameters other than their defaults: legal sets must
// build and be correct (so the constraints are no looser than the kernels' #error checks), illegal
// sets must be refused by the constraints before anything is built.
#include <clgemm/error.hpp>
#include <clgemm/ladder.hpp>

#include "test_support.hpp"

#include <string>
#include <utility>
#include <vector>

namespace clgemm::test {
namespace {

struct RungParams {
  int rung;
  KernelParams params;
};

std::string describe(const RungParams& rp) {
  std::string out = "rung" + std::to_string(rp.rung);
  for (const auto& [name, value] : rp.params) out += "_" + name + std::to_string(value);
  return out;
}

// Readable test names in CTest's listing instead of a byte dump.
void PrintTo(const RungParams& rp, std::ostream* os) { *os << describe(rp); }

// Legal, deliberately unusual sets: WIDTH 1, 2 and 8, one work-item per row, rectangular tiles
// and blocks, tiles that split unevenly between A and B.
const std::vector<RungParams> kLegal = {
    {3, {{"TS", 8}, {"WPT", 8}}},
    {3, {{"TS", 32}, {"WPT", 2}}},
    {3, {{"TS", 16}, {"WPT", 1}}},
    {4, {{"TS", 16}, {"WPT", 2}, {"WIDTH", 8}}},
    {4, {{"TS", 8}, {"WPT", 1}, {"WIDTH", 1}}},
    {4, {{"TS", 64}, {"WPT", 8}, {"WIDTH", 2}}},
    {5, {{"TS", 16}, {"WPT", 4}, {"WIDTH", 8}}},
    {5, {{"TS", 8}, {"WPT", 2}, {"WIDTH", 1}}},
    {5, {{"TS", 32}, {"WPT", 8}, {"WIDTH", 2}}},
    {6, {{"TSM", 64}, {"TSN", 32}, {"TSK", 16}, {"WPTM", 8}, {"WPTN", 2}, {"WIDTH", 2}}},
    {6, {{"TSM", 16}, {"TSN", 64}, {"TSK", 4}, {"WPTM", 2}, {"WPTN", 8}, {"WIDTH", 1}}},
    {6, {{"TSM", 32}, {"TSN", 32}, {"TSK", 8}, {"WPTM", 8}, {"WPTN", 8}, {"WIDTH", 8}}},
    {7, {{"TSM", 64}, {"TSN", 32}, {"TSK", 16}, {"WPTM", 8}, {"WPTN", 2}, {"WIDTH", 2}}},
    {7, {{"TSM", 16}, {"TSN", 64}, {"TSK", 4}, {"WPTM", 2}, {"WPTN", 8}, {"WIDTH", 1}}},
    {7, {{"TSM", 32}, {"TSN", 32}, {"TSK", 8}, {"WPTM", 8}, {"WPTN", 8}, {"WIDTH", 8}}},
    {8, {{"TSM", 64}, {"TSN", 32}, {"TSK", 16}, {"WPTM", 8}, {"WPTN", 2}, {"WIDTH", 2}}},
    {8, {{"TSM", 16}, {"TSN", 64}, {"TSK", 4}, {"WPTM", 2}, {"WPTN", 8}, {"WIDTH", 1}}},
    {8, {{"TSM", 32}, {"TSN", 32}, {"TSK", 8}, {"WPTM", 8}, {"WPTN", 8}, {"WIDTH", 8}}},
    // Async copies need no even split of the tile over the work-items (rungs 6 and 7 do).
    {8, {{"TSM", 16}, {"TSN", 16}, {"TSK", 1}, {"WPTM", 1}, {"WPTN", 1}, {"WIDTH", 1}}},
};

// Sets that break a constraint: refused with InvalidArgument, before any build.
const std::vector<RungParams> kIllegal = {
    {3, {{"TS", 16}, {"WPT", 3}}},                              // WPT does not divide TS
    {3, {{"WPT", 0}}},                                          // not positive
    {4, {{"WIDTH", 3}}},                                        // not a vector width
    {4, {{"TS", 12}, {"WPT", 4}, {"WIDTH", 8}}},                // WIDTH does not divide TS
    {5, {{"TS", 16}, {"WPT", 32}}},                             // WPT does not divide TS
    {6, {{"WPTM", 6}, {"WIDTH", 4}}},                           // WIDTH does not divide WPTM
    {6, {{"TSM", 96}, {"WPTM", 64}}},                           // WPTM does not divide TSM
    {6, {{"TSM", 16}, {"TSN", 16}, {"TSK", 1}, {"WPTM", 1}, {"WPTN", 1}, {"WIDTH", 1}}},  // uneven tile split
    {7, {{"TSM", 16}, {"TSN", 16}, {"TSK", 1}, {"WPTM", 1}, {"WPTN", 1}, {"WIDTH", 1}}},  // uneven tile split
    {8, {{"WIDTH", 16}}},                                       // not a vector width
};

void check(const RungParams& rp, const GemmShape& s) {
  Context& ctx = shared_context();
  const uint64_t seed = fresh_seed();
  std::vector<float> a(s.m * s.k), b(s.k * s.n);
  cpu::fill_random(a, seed);
  cpu::fill_random(b, seed + 1);
  cl::Buffer da = upload(ctx, a), db = upload(ctx, b);
  GuardedBuffer c(ctx, s.m * s.n);

  LadderRun run(ctx, rp.rung, s, rp.params);
  run.enqueue(da, db, c.view());
  ctx.queue().finish();
  EXPECT_EQ(c.guard_damage(), "") << run.build_options();
  EXPECT_TRUE(matches_reference(c.read(), cpu::gemm_reference_f64(s, a.data(), b.data()), s.k, seed))
      << "rung " << rp.rung << " " << s.m << "x" << s.n << "x" << s.k << " with " << run.build_options();
}

class LadderRungParams : public ::testing::TestWithParam<RungParams> {};

TEST_P(LadderRungParams, LegalSetIsCorrect) {
  check(GetParam(), {67, 45, 39});    // no dimension a multiple of any tile: padding everywhere
  check(GetParam(), {128, 64, 64});   // multiples of every tile here: no padding, C written in place
}

INSTANTIATE_TEST_SUITE_P(Rungs3to8, LadderRungParams, ::testing::ValuesIn(kLegal),
                         [](const auto& info) { return describe(info.param); });

class LadderRungBadParams : public ::testing::TestWithParam<RungParams> {};

TEST_P(LadderRungBadParams, IllegalSetIsRefused) {
  const RungParams& rp = GetParam();
  try {
    LadderRun(shared_context(), rp.rung, {8, 8, 8}, rp.params);
    FAIL() << describe(rp) << " was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::InvalidArgument) << e.what();
  }
}

INSTANTIATE_TEST_SUITE_P(Rungs3to8, LadderRungBadParams, ::testing::ValuesIn(kIllegal),
                         [](const auto& info) { return describe(info.param) + "_" + std::to_string(info.index); });

}  // namespace
}  // namespace clgemm::test
