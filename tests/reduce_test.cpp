// reduce_test.cpp — the two-phase compensated sum against a float64 sum: edge lengths, misaligned
// sub-ranges, mixed signs, heavy cancellation, the GPU defaults, and argument checking.
//
// Tolerance. The kernels carry the rounding error of every addition (TwoSum, see reduce/sum.cl),
// so the result is the float32 rounding of a sum accurate to second order:
//     |result − S| ≤ ε|S| + ε·Σ|x| / 1024        (ε = FLT_EPSILON = 2^-23)
// The first term allows two roundings of the result (one is ≤ ε/2·|S|); the second stands for the
// O(d²ε²)·Σ|x| term of compensated summation, d being the longest chain of additions (a few
// hundred here), generously. Plain float32 summation would need d·ε·Σ|x| — hundreds of times more
// — and fails these tests. Inputs have |x| ≥ 0.5, so one element lost or counted twice moves the
// sum by ≥ 0.5, far above the tolerance (≤ 0.13 for the largest all-positive case).
#include <clgemm/error.hpp>
#include <clgemm/reduce.hpp>

#include "test_support.hpp"

#include <cfloat>
#include <cmath>
#include <random>

namespace clgemm::test {
namespace {

enum class Signs { Positive, Mixed };

// Values in ±[0.5, 1): never tiny, so every element matters.
std::vector<float> values(size_t n, Signs signs, uint64_t seed) {
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<float> mag(0.5f, 1.0f);
  std::vector<float> v(n);
  for (auto& x : v) x = (signs == Signs::Mixed && (gen() & 1)) ? -mag(gen) : mag(gen);
  return v;
}

// Neumaier-compensated float64 sum: the reference, exact to far below the tolerance.
struct Exact {
  double sum = 0.0, abs_sum = 0.0;
};
Exact exact_sum(const float* x, size_t n) {
  double s = 0.0, c = 0.0, a = 0.0;
  for (size_t i = 0; i < n; ++i) {
    const double v = x[i], t = s + v;
    c += std::fabs(s) >= std::fabs(v) ? (s - t) + v : (v - t) + s;
    s = t;
    a += std::fabs(v);
  }
  return {s + c, a};
}

::testing::AssertionResult close_enough(float got, const Exact& ref, const std::string& what) {
  const double tol = FLT_EPSILON * std::fabs(ref.sum) + FLT_EPSILON * ref.abs_sum / 1024.0;
  const double err = std::fabs(double(got) - ref.sum);
  if (std::isfinite(got) && err <= tol) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << what << ": got " << got << ", float64 sum " << ref.sum << ", error " << err
                                       << " > tolerance " << tol;
}

// Sums x[offset .. offset+n) of a buffer holding offset + n + 5 values (the extras must not count).
void check(size_t n, size_t offset, Signs signs, const KernelParams& params = {}) {
  Context& ctx = shared_context();
  const uint64_t seed = fresh_seed();
  std::vector<float> host = values(offset + n + 5, signs, seed);
  cl::Buffer buf = upload(ctx, host);
  const std::string what = "n=" + std::to_string(n) + " offset=" + std::to_string(offset) +
                           (signs == Signs::Mixed ? " mixed signs" : " positive") + " seed " + std::to_string(seed);

  Reduction r(ctx, n, params);
  const auto events = r.enqueue(buf, offset);
  EXPECT_EQ(events.size(), 2u);
  const Exact ref = exact_sum(host.data() + offset, n);
  EXPECT_TRUE(close_enough(r.result(), ref, what + " with " + r.build_options()));
  // A second run on the same prepared object gives the same (deterministic) result.
  const float first = r.result();
  r.enqueue(buf, offset);
  EXPECT_EQ(r.result(), first) << what;
  // The convenience call agrees.
  if (params.empty()) {
    EXPECT_EQ(reduce_sum(ctx, buf, n, offset), first) << what;
  }
  EXPECT_EQ(download(ctx, buf, host.size()), host) << what << ": the input was written";
}

class ReduceLengths : public ::testing::TestWithParam<size_t> {};

TEST_P(ReduceLengths, MatchesFloat64) {
  check(GetParam(), 0, Signs::Positive);
  check(GetParam(), 0, Signs::Mixed);
}

INSTANTIATE_TEST_SUITE_P(Reduce, ReduceLengths,
                         ::testing::Values(size_t(0), size_t(1), size_t(2), size_t(3), size_t(4), size_t(5),
                                           size_t(255), size_t(256), size_t(257), size_t(4099), size_t(1000003)));

// Sub-ranges that start off a 16-byte boundary take the scalar head; lengths leave all tails.
TEST(ReduceOffsets, MisalignedSubRanges) {
  for (size_t offset : {1, 2, 3, 5, 4096 + 3})
    for (size_t n : {0, 1, 2, 3, 7, 257, 100003}) check(n, offset, Signs::Mixed);
}

TEST(ReduceAccuracy, ZeroSumAndCancellation) {
  Context& ctx = shared_context();
  // Exact zero: x and -x.
  std::vector<float> v = values(50001, Signs::Mixed, fresh_seed());
  const size_t half = v.size();
  for (size_t i = 0; i < half; ++i) v.push_back(-v[i]);
  EXPECT_EQ(reduce_sum(ctx, upload(ctx, v), v.size()), 0.0f);

  // Huge values that cancel, spread among small ones: a float32 running sum near 2^20 rounds every
  // small addend to 1/8, which compensation recovers.
  const uint64_t seed = fresh_seed();
  std::vector<float> w = values(200003, Signs::Mixed, seed);
  for (size_t i = 0; i < 40; ++i) {
    w[i * 4999 + 17] = 1048576.0f;
    w[i * 4999 + 2500] = -1048576.0f;
  }
  const Exact ref = exact_sum(w.data(), w.size());
  EXPECT_TRUE(close_enough(reduce_sum(ctx, upload(ctx, w), w.size()), ref,
                           "cancellation, seed " + std::to_string(seed)));
}

// The GPU's parameters (more work-items, deeper unrolling) must be correct too.
TEST(ReduceGpuDefaults, CorrectOnThisDevice) {
  KernelParams gpu;
  for (const auto& p : reduce_params()) gpu[p.name] = p.gpu_default;
  try {
    for (size_t n : {0, 1, 257, 1000003}) check(n, 3, Signs::Mixed, gpu);
  } catch (const Error& e) {
    if (e.status() != Status::OutOfResources) throw;
    GTEST_SKIP() << "GPU defaults do not fit this device: " << e.what();
  }
}

TEST(ReduceErrors, RejectsBadArguments) {
  Context& ctx = shared_context();
  EXPECT_THROW(Reduction(ctx, 10, {{"NO_SUCH", 1}}), Error);
  EXPECT_THROW(Reduction(ctx, 10, {{"WG", 48}}), Error);
  EXPECT_THROW(Reduction(ctx, 10, {{"UNROLL", 0}}), Error);
  EXPECT_THROW(Reduction(ctx, size_t(1) << 40), Error);
  cl::Buffer buf = ctx.buffer(100 * sizeof(float));
  Reduction r(ctx, 100);
  EXPECT_NO_THROW(r.enqueue(buf));
  EXPECT_THROW(r.enqueue(buf, 1), Error);  // 101 floats do not fit
  EXPECT_THROW(reduce_sum(ctx, buf, 101), Error);
  ctx.queue().finish();
}

}  // namespace
}  // namespace clgemm::test
