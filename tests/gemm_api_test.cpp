// gemm_api_test.cpp — semantics beyond the sweep (NaN with beta = 0, k = 0, empty sizes), batched
// and strided-batched calls, every argument check, and many host threads on one context.
#include <clgemm/clgemm.h>
#include <clgemm/error.hpp>
#include <clgemm/gemm.hpp>

#include "api/gemm_checks.hpp"
#include "test_support.hpp"

#include <cblas.h>

#include <cmath>
#include <limits>
#include <thread>

namespace clgemm::test {
namespace {

class GemmPaths : public ::testing::TestWithParam<GemmPath> {};

TEST_P(GemmPaths, BetaZeroIgnoresNanInC) {
  Context& ctx = shared_context();
  const size_t m = 150, n = 140, k = 130;
  std::vector<float> a(m * k), b(k * n), c(m * n, std::numeric_limits<float>::quiet_NaN());
  for (size_t i = 0; i < c.size(); i += 7) c[i] = std::numeric_limits<float>::infinity();
  cpu::fill_random(a, fresh_seed());
  cpu::fill_random(b, fresh_seed());
  cl::Buffer da = upload(ctx, a), db = upload(ctx, b), dc = upload(ctx, c);
  GemmOptions o;
  o.force_path = GetParam();
  cl_event ev = nullptr;
  gemm(row_major_call(m, n, k, 2.0f, 0.0f, da(), db(), dc()), ctx.queue()(), &ev, o);
  wait_and_release(ev);
  const auto got = download(ctx, dc, c.size());
  EXPECT_TRUE(matches_reference(got, reference_gemm(m, n, k, 2.0f, a.data(), b.data(), 0.0f, c.data()), k, 0));
}

TEST_P(GemmPaths, BatchedAndStridedBatched) {
  GemmOptions o;
  o.force_path = GetParam();
  check_batched_calls(33, 140, 129, o);
}

INSTANTIATE_TEST_SUITE_P(BothPaths, GemmPaths, ::testing::Values(GemmPath::Direct, GemmPath::Packed),
                         [](const auto& info) { return info.param == GemmPath::Direct ? "Direct" : "Packed"; });

TEST(GemmSemantics, KZeroScalesCAndMZeroDoesNothing) {
  Context& ctx = shared_context();
  std::vector<float> c(6 * 5);
  cpu::fill_random(c, fresh_seed());
  cl::Buffer dc = upload(ctx, c), dummy = ctx.buffer(4);
  cl_event ev = nullptr;
  gemm(row_major_call(6, 5, 0, 1.0f, 3.0f, dummy(), dummy(), dc()), ctx.queue()(), &ev);
  wait_and_release(ev);
  auto got = download(ctx, dc, c.size());
  for (size_t i = 0; i < c.size(); ++i) EXPECT_FLOAT_EQ(got[i], 3.0f * c[i]);
  // m = 0: success, no work, still an event to wait on; buffers are not even looked at.
  ev = nullptr;
  gemm(row_major_call(0, 5, 4, 1.0f, 3.0f, nullptr, nullptr, nullptr), ctx.queue()(), &ev);
  wait_and_release(ev);
  EXPECT_EQ(download(ctx, dc, c.size()), got);
}

// ---- argument checks: each its own status, nothing written ---------------------------------

class GemmChecks : public ::testing::Test {
 protected:
  void SetUp() override {
    std::vector<float> c(16 * 16, 7.0f);
    a_ = shared_context().buffer(16 * 16 * 4);
    b_ = shared_context().buffer(16 * 16 * 4);
    c_ = upload(shared_context(), c);
  }
  GemmCall call() const { return row_major_call(16, 16, 16, 1.0f, 0.0f, a_(), b_(), c_()); }
  Status status_of(const GemmCall& call, cl_command_queue q = nullptr) const {
    try {
      gemm(call, q ? q : shared_context().queue()(), nullptr);
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()), "");
      return e.status();
    }
    return Status::Success;
  }
  void TearDown() override {
    const auto c = download(shared_context(), c_, 16 * 16);
    for (float x : c) ASSERT_EQ(x, 7.0f) << "a rejected call wrote into C";
  }
  cl::Buffer a_, b_, c_;
};

TEST_F(GemmChecks, EachFailureHasItsOwnStatus) {
  GemmCall g = call();
  g.layout = static_cast<Layout>(7);
  EXPECT_EQ(status_of(g), Status::InvalidLayout);
  g = call();
  g.a_transpose = static_cast<Transpose>(113);
  EXPECT_EQ(status_of(g), Status::InvalidTranspose);
  g = call();
  g.b_transpose = static_cast<Transpose>(0);
  EXPECT_EQ(status_of(g), Status::InvalidTranspose);
  g = call();
  g.a.ld = 15;
  EXPECT_EQ(status_of(g), Status::InvalidLeadingDimension);
  g = call();
  g.c.ld = 0;
  EXPECT_EQ(status_of(g), Status::InvalidLeadingDimension);
  g = call();
  g.b.buffer = nullptr;
  EXPECT_EQ(status_of(g), Status::InvalidBuffer);
  g = call();
  g.c.offset = 1;  // one element past the end
  EXPECT_EQ(status_of(g), Status::BufferTooSmall);
  g = call();
  g.a.ld = 17;  // 15·17 + 16 > 256
  EXPECT_EQ(status_of(g), Status::BufferTooSmall);
  g = call();
  g.m = size_t(1) << 40;
  EXPECT_EQ(status_of(g), Status::SizeOverflow);
  g = call();
  g.c.offset = std::numeric_limits<size_t>::max() - 3;
  EXPECT_EQ(status_of(g), Status::SizeOverflow);
  try {
    gemm(call(), nullptr, nullptr);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::InvalidQueue);
  }
  try {
    gemm_strided_batched(call(), 0, 0, 0, 0, shared_context().queue()(), nullptr);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::InvalidBatchCount);
  }
  try {
    gemm_strided_batched(call(), 0, 0, 256, 2, shared_context().queue()(), nullptr);  // 2nd C past the end
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::BufferTooSmall);
  }
  try {
    gemm_strided_batched(call(), 0, 0, std::numeric_limits<size_t>::max() / 2, 3, shared_context().queue()(), nullptr);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::SizeOverflow);
  }
  try {
    gemm_batched(call(), {1.0f}, {0.0f, 1.0f}, {0}, {0}, {0}, shared_context().queue()(), nullptr);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::InvalidBatchCount);
  }
}

TEST_F(GemmChecks, MessagesNameTheArgument) {
  GemmCall g = call();
  g.b.ld = 3;
  try {
    gemm(g, shared_context().queue()(), nullptr);
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("b_ld is 3"), std::string::npos) << e.what();
  }
}

TEST(GemmDeviceCheck, RejectsDevicesThatCannotRunKernels) {
  DeviceInfo d = shared_context().info();
  EXPECT_NO_THROW(detail::check_device(d));
  d.compiler_available = false;
  try {
    detail::check_device(d);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::Unsupported);
  }
  d = shared_context().info();
  d.local_mem_bytes = 4096;
  EXPECT_THROW(detail::check_device(d), Error);
}

// ---- the C API ------------------------------------------------------------------------------

TEST(CApi, ComputesAndReportsStatuses) {
  Context& ctx = shared_context();
  const size_t m = 5, n = 9, k = 4;
  std::vector<float> a(m * k), b(k * n), c(m * n, 1.0f);
  cpu::fill_random(a, fresh_seed());
  cpu::fill_random(b, fresh_seed());
  cl::Buffer da = upload(ctx, a), db = upload(ctx, b), dc = upload(ctx, c);
  cl_command_queue q = ctx.queue()();
  cl_event ev = nullptr;
  ASSERT_EQ(clgemmSgemm(clgemmLayoutRowMajor, clgemmTransposeNo, clgemmTransposeNo, m, n, k, 1.0f, da(), 0, k, db(), 0,
                        n, 1.0f, dc(), 0, n, &q, &ev),
            clgemmSuccess)
      << clgemmLastErrorMessage();
  wait_and_release(ev);
  EXPECT_TRUE(matches_reference(download(ctx, dc, c.size()),
                                reference_gemm(m, n, k, 1, a.data(), b.data(), 1, c.data()), k, 0));

  EXPECT_EQ(clgemmSgemm(clgemmLayoutRowMajor, clgemmTransposeNo, clgemmTransposeNo, m, n, k, 1.0f, da(), 0, k, db(), 0,
                        n, 1.0f, dc(), 0, n, nullptr, nullptr),
            clgemmInvalidQueue);
  EXPECT_EQ(clgemmSgemm(static_cast<clgemmLayout>(1), clgemmTransposeNo, clgemmTransposeNo, m, n, k, 1.0f, da(), 0, k,
                        db(), 0, n, 1.0f, dc(), 0, n, &q, nullptr),
            clgemmInvalidLayout);
  EXPECT_NE(std::string(clgemmLastErrorMessage()), "");
  EXPECT_EQ(clgemmSgemm(clgemmLayoutRowMajor, clgemmTransposeNo, clgemmTransposeNo, m, n, k, 1.0f, da(), 0, k - 1, db(),
                        0, n, 1.0f, dc(), 0, n, &q, nullptr),
            clgemmInvalidLeadingDimension);
  EXPECT_EQ(clgemmSgemmStridedBatched(clgemmLayoutRowMajor, clgemmTransposeNo, clgemmTransposeNo, m, n, k, 1.0f, da(), 0,
                                      k, 0, db(), 0, n, 0, 0.0f, dc(), 0, n, 0, 0, &q, nullptr),
            clgemmInvalidBatchCount);
  EXPECT_EQ(clgemmSgemmBatched(clgemmLayoutRowMajor, clgemmTransposeNo, clgemmTransposeNo, m, n, k, nullptr, da(),
                               nullptr, k, db(), nullptr, n, nullptr, dc(), nullptr, n, 1, &q, nullptr),
            clgemmInvalidArgument);
  EXPECT_STREQ(clgemmStatusString(clgemmBufferTooSmall), "buffer too small");
}

// ---- threads ----------------------------------------------------------------------------------

TEST(GemmThreads, EightThreadsFiftyCallsEach) {
  Context& ctx = shared_context();
  constexpr int kThreads = 8, kCalls = 50;
  std::vector<std::string> failures(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      try {
        // Each thread has its own queue on the shared context, as a real program would.
        cl::CommandQueue q(ctx.context(), ctx.device());
        const size_t m = 20 + t, n = 30 + 2 * t, k = 17 + t;  // a different shape per thread
        std::vector<float> a(m * k), b(k * n);
        cpu::fill_random(a, 1000 + t);
        cpu::fill_random(b, 2000 + t);
        const auto want = reference_gemm(m, n, k, 1.0f, a.data(), b.data(), 0.0f, nullptr);
        cl::Buffer da(ctx.context(), CL_MEM_COPY_HOST_PTR, a.size() * 4, a.data());
        cl::Buffer db(ctx.context(), CL_MEM_COPY_HOST_PTR, b.size() * 4, b.data());
        cl::Buffer dc(ctx.context(), CL_MEM_READ_WRITE, m * n * 4);
        for (int i = 0; i < kCalls; ++i) {
          std::vector<float> got(m * n, poison_value());
          q.enqueueWriteBuffer(dc, CL_TRUE, 0, got.size() * 4, got.data());
          gemm(row_major_call(m, n, k, 1.0f, 0.0f, da(), db(), dc()), q(), nullptr);
          q.enqueueReadBuffer(dc, CL_TRUE, 0, got.size() * 4, got.data());
          if (!matches_reference(got, want, k, 0)) {
            failures[t] = "call " + std::to_string(i) + " gave a wrong result";
            return;
          }
        }
      } catch (const std::exception& e) {
        failures[t] = e.what();
      }
    });
  for (auto& th : threads) th.join();
  for (int t = 0; t < kThreads; ++t) EXPECT_EQ(failures[t], "") << "thread " << t;
}

}  // namespace
}  // namespace clgemm::test

namespace clgemm::test {
namespace {

// GemmOptions::events lists every command a call enqueues: one for the direct kernel, pack plus
// GEMM for a packed call that must transpose A. `clgemm bench` times by events only in the first case.
TEST(GemmEvents, ListsEveryEnqueuedCommand) {
  Context& ctx = shared_context();
  const size_t m = 150, n = 160, k = 170;
  std::vector<float> a(m * k), b(k * n);
  cpu::fill_random(a, fresh_seed());
  cpu::fill_random(b, fresh_seed());
  cl::Buffer da = upload(ctx, a), db = upload(ctx, b), dc = ctx.buffer(m * n * 4);
  std::vector<cl::Event> events;
  GemmOptions o;
  o.events = &events;
  o.force_path = GemmPath::Direct;
  gemm(row_major_call(m, n, k, 1.0f, 0.0f, da(), db(), dc()), ctx.queue()(), nullptr, o);
  ctx.queue().finish();
  EXPECT_EQ(events.size(), 1u);
  EXPECT_GT(elapsed_seconds(events), 0.0);
  o.force_path = GemmPath::Packed;
  o.force_params = {{"PACKA", 1}};
  gemm(row_major_call(m, n, k, 1.0f, 0.0f, da(), db(), dc()), ctx.queue()(), nullptr, o);
  ctx.queue().finish();
  EXPECT_GE(events.size(), 2u) << "packing A, then the GEMM";
  EXPECT_TRUE(matches_reference(download(ctx, dc, m * n),
                                reference_gemm(m, n, k, 1, a.data(), b.data(), 0, nullptr), k, 0));
}

}  // namespace
}  // namespace clgemm::test
