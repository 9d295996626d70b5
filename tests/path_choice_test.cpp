// path_choice_test.cpp — how a call's options stand to each path (plan/path_choice.hpp), the one
// rule the tiny, tall, wide, tensor, wgmma and grouped planners ask.
#include "plan/path_choice.hpp"

#include <gtest/gtest.h>

namespace clgemm::test {
namespace {

// One rule for every planner: a path forced is taken; with nothing forced each path is free to be
// taken where it pays; another path forced, or parameters without a path, rule it out.
TEST(PathChoice, EachPathIsForcedFreeOrRuledOut) {
  using detail::PathChoice;
  GemmOptions none;
  EXPECT_TRUE(detail::chooses_freely(none));
  EXPECT_EQ(detail::path_choice(none, GemmPath::Tensor), PathChoice::Free);
  GemmOptions tall;
  tall.force_path = GemmPath::Tall;
  EXPECT_FALSE(detail::chooses_freely(tall));
  EXPECT_EQ(detail::path_choice(tall, GemmPath::Tall), PathChoice::Forced);
  EXPECT_EQ(detail::path_choice(tall, GemmPath::Tiny), PathChoice::RuledOut);
  GemmOptions params;
  params.force_params = {{"BM", 64}};
  EXPECT_FALSE(detail::chooses_freely(params));
  EXPECT_EQ(detail::path_choice(params, GemmPath::Wgmma), PathChoice::RuledOut);
  params.force_path = GemmPath::Wgmma;
  EXPECT_EQ(detail::path_choice(params, GemmPath::Wgmma), PathChoice::Forced);
  // The arithmetic asked for forces nothing.
  GemmOptions math;
  math.math = Math::Tf32x3;
  EXPECT_TRUE(detail::chooses_freely(math));
}

}  // namespace
}  // namespace clgemm::test
