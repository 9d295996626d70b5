// warnings_test.cpp — the library never prints: its warnings reach a handler the program sets (C
// or C++), or wait to be taken, and the last one can be read.
#include <clgemm/clgemm.h>
#include <clgemm/warnings.hpp>

#include "runtime/warnings.hpp"
#include "database/database.hpp"
#include "test_support.hpp"

#include <fstream>

namespace clgemm::test {
namespace {

TEST(Warnings, KeptUntilTakenAndBounded) {
  take_warnings();
  detail::warn("first");
  detail::warn("second");
  EXPECT_EQ(take_warnings(), (std::vector<std::string>{"first", "second"}));
  EXPECT_TRUE(take_warnings().empty());
  for (int i = 0; i < 100; ++i) detail::warn("w" + std::to_string(i));
  const auto kept = take_warnings();
  ASSERT_EQ(kept.size(), 64u);
  EXPECT_EQ(kept.front(), "w36");
  EXPECT_EQ(kept.back(), "w99");
  EXPECT_STREQ(clgemmLastWarning(), "w99");
}

TEST(Warnings, OnceMeansOnce) {
  take_warnings();
  const std::string m = "said once " + std::to_string(fresh_seed());
  detail::warn_once(m);
  detail::warn_once(m);
  EXPECT_EQ(take_warnings(), std::vector<std::string>{m});
}

TEST(Warnings, HandlersReceiveThem) {
  std::vector<std::string> got;
  set_warning_handler([&](const std::string& m) { got.push_back(m); });
  detail::warn("to the C++ handler");
  set_warning_handler({});
  EXPECT_EQ(got, std::vector<std::string>{"to the C++ handler"});

  struct Seen {
    std::string message;
    int calls = 0;
  } seen;
  ASSERT_EQ(clgemmSetWarningCallback(
                [](const char* m, void* user) {
                  auto* s = static_cast<Seen*>(user);
                  s->message = m, ++s->calls;
                },
                &seen),
            clgemmSuccess);
  detail::warn("to the C callback");
  ASSERT_EQ(clgemmSetWarningCallback(nullptr, nullptr), clgemmSuccess);
  detail::warn("kept again");
  EXPECT_EQ(seen.calls, 1);
  EXPECT_EQ(seen.message, "to the C callback");
  EXPECT_EQ(take_warnings(), std::vector<std::string>{"kept again"});
}

// A damaged tuning database is a warning, and nothing on stderr.
TEST(Warnings, TheLibraryPrintsNothing) {
  ScopedDatabase db;
  {
    std::ofstream out(db.path());
    out << "{ damaged";
  }
  detail::reload_user_database();
  take_warnings();
  ::testing::internal::CaptureStderr();
  ::testing::internal::CaptureStdout();
  plan_gemm(shared_context().info(), 100, 100, 100);
  const std::string out = ::testing::internal::GetCapturedStdout();
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(out + err, "");
  const auto kept = take_warnings();
  ASSERT_EQ(kept.size(), 1u);
  EXPECT_NE(kept[0].find("ignoring the tuning database"), std::string::npos) << kept[0];
}

}  // namespace
}  // namespace clgemm::test
