// operand_checks_test.cpp — objects a call must refuse (buffers of another context, images,
// read-only outputs, outputs that overlap their inputs or each other), batch counts past the
// limit, enum values outside their lists through the C API, and the overlap test itself against
// a brute-force one.
#include <clgemm/clgemm.h>
#include <clgemm/error.hpp>
#include <clgemm/gemm.hpp>

#include "api/operand_overlap.hpp"
#include "test_support.hpp"

#include <chrono>
#include <cstring>
#include <limits>
#include <random>
#include <set>

namespace clgemm::test {
namespace {

// ---- the overlap test against element sets --------------------------------------------------

std::set<size_t> elements(const detail::Footprint& f) {
  std::set<size_t> out;
  for (size_t item = 0; item < f.starts.count; ++item)
    for (size_t r = 0; r < f.outer; ++r)
      for (size_t c = 0; c < f.inner; ++c) out.insert(f.starts.at(item) + r * f.ld + c);
  return out;
}

bool brute_items_overlap(const detail::Footprint& f) {
  std::set<size_t> seen;
  for (size_t item = 0; item < f.starts.count; ++item)
    for (size_t r = 0; r < f.outer; ++r)
      for (size_t c = 0; c < f.inner; ++c)
        if (!seen.insert(f.starts.at(item) + r * f.ld + c).second) return true;
  return false;
}

bool brute_meet(const detail::Footprint& x, const detail::Footprint& y) {
  const auto a = elements(x), b = elements(y);
  for (size_t e : a)
    if (b.count(e)) return true;
  return false;
}

bool refused(const detail::Footprint& c, const std::vector<detail::Footprint>& inputs) {
  try {
    detail::check_no_overlap(c, inputs);
    return false;
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::OverlappingOperands);
    return true;
  }
}

TEST(OperandOverlap, AgreesWithElementSetsOnRandomLayouts) {
  Context& ctx = shared_context();
  cl::Buffer buf = ctx.buffer(4 << 20), other = ctx.buffer(4 << 20);
  const uint64_t seed = fresh_seed();
  std::mt19937_64 gen(seed);
  auto pick = [&](size_t lo, size_t hi) { return std::uniform_int_distribution<size_t>(lo, hi)(gen); };
  size_t refusals = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    const size_t inner = pick(1, 6), ld = inner + pick(0, 12), outer = pick(1, 5), count = pick(1, 7);
    std::vector<size_t> list(count);
    for (auto& s : list) s = pick(0, 80);
    const bool strided = pick(0, 1) == 1;
    detail::ItemStarts starts = strided ? detail::ItemStarts{count, pick(0, 20), pick(0, 30)}
                                        : detail::ItemStarts{count, 0, 0, &list};
    const detail::Footprint c{"c", buf(), outer, inner, ld, starts};
    // An input in the same buffer, with the same or another leading dimension.
    const size_t a_inner = pick(1, 6), a_ld = pick(0, 1) ? ld : a_inner + pick(0, 12);
    std::vector<size_t> a_list(pick(1, 4));
    for (auto& s : a_list) s = pick(0, 120);
    const detail::Footprint a{"a", buf(), pick(1, 5), a_inner, a_ld, {a_list.size(), 0, 0, &a_list}};
    const bool want = brute_items_overlap(c) || brute_meet(a, c);
    const bool got = refused(c, {a});
    ASSERT_EQ(got, want) << "seed " << seed << " trial " << trial;
    refusals += got;
    // The same input in another buffer never overlaps C.
    const detail::Footprint elsewhere{"a", other(), a.outer, a.inner, a.ld, a.starts};
    ASSERT_EQ(refused(c, {elsewhere}), brute_items_overlap(c)) << "seed " << seed << " trial " << trial;
  }
  EXPECT_GT(refusals, 300u);
  EXPECT_LT(refusals, 2700u);
}

// Items side by side in one wide matrix (attention heads, say) are disjoint: the exact test passes
// them where a test of address ranges would refuse them; one column more and they overlap.
TEST(OperandOverlap, InterleavedItemsPassAndAnOverlapIsFound) {
  Context& ctx = shared_context();
  cl::Buffer buf = ctx.buffer(1 << 20);
  const size_t heads = 64, m = 50, n = 16;
  detail::Footprint c{"c", buf(), m, n, heads * n, {heads, 0, n}};
  EXPECT_FALSE(refused(c, {}));
  std::vector<size_t> shuffled;
  for (size_t h = 0; h < heads; ++h) shuffled.push_back(((h * 37) % heads) * n);
  c.starts = {heads, 0, 0, &shuffled};
  EXPECT_FALSE(refused(c, {}));
  c.inner = n + 1;  // each item one column wider: neighbours share a column
  c.starts = {heads, 0, n};
  EXPECT_TRUE(refused(c, {}));
  c.starts = {heads, 0, 0, &shuffled};
  EXPECT_TRUE(refused(c, {}));
  // Sub-buffers are compared through their parent: two views at different origins that meet.
  cl_buffer_region first{0, 4096}, second{1024, 4096};
  const size_t align = ctx.device().getInfo<CL_DEVICE_MEM_BASE_ADDR_ALIGN>() / 8;
  if (second.origin % align != 0) second.origin = align;
  cl::Buffer v1 = buf.createSubBuffer(CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &first);
  cl::Buffer v2 = buf.createSubBuffer(CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &second);
  const size_t shift = second.origin / 4;
  const detail::Footprint in_v1{"a", v1(), 1, 16, 16, {1, shift}};  // elements shift .. shift + 15 of v1
  const detail::Footprint out_v2{"c", v2(), 1, 16, 16, {1, 0}};     // the same memory through v2
  EXPECT_TRUE(refused(out_v2, {in_v1}));
  const detail::Footprint in_v1_before{"a", v1(), 1, 16, 16, {1, 0}};
  if (shift >= 16) {
    EXPECT_FALSE(refused(out_v2, {in_v1_before}));
  }
}

TEST(OperandOverlap, MillionItemsWithStrideZeroAreRefusedAtOnce) {
  Context& ctx = shared_context();
  cl::Buffer a = ctx.buffer(64), b = ctx.buffer(64), c = ctx.buffer(64);
  const auto start = std::chrono::steady_clock::now();
  try {
    gemm_strided_batched(row_major_call(1, 1, 1, 1.0f, 0.0f, a(), b(), c()), 0, 0, 0, size_t(1) << 20,
                         shared_context().queue()(), nullptr);
    FAIL() << "a million items of C on one element";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::OverlappingOperands);
    EXPECT_NE(std::string(e.what()).find("C (batch item 0) and C (batch item 1)"), std::string::npos) << e.what();
  }
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 1.0);
}

// ---- objects the API refuses, each with its own status, nothing written ---------------------

class ObjectChecks : public ::testing::Test {
 protected:
  static constexpr size_t n = 16;
  void SetUp() override {
    Context& ctx = shared_context();
    a_ = upload(ctx, std::vector<float>(n * n, 1.0f));
    b_ = upload(ctx, std::vector<float>(n * n, 2.0f));
    c_ = upload(ctx, std::vector<float>(n * n, 7.0f));
  }
  // The status of clgemmSgemm on these buffers, with C checked untouched when it is c_.
  clgemmStatus sgemm(cl_mem a, cl_mem b, cl_mem c, float beta = 0.0f) {
    cl_command_queue q = shared_context().queue()();
    const clgemmStatus s = clgemmSgemm(clgemmLayoutRowMajor, clgemmTransposeNo, clgemmTransposeNo, n, n, n, 1.0f, a, 0,
                                       n, b, 0, n, beta, c, 0, n, &q, nullptr);
    if (s != clgemmSuccess) {
      message_ = clgemmLastErrorMessage();
      for (float x : download(shared_context(), c_, n * n)) EXPECT_EQ(x, 7.0f) << "a refused call wrote into C";
    }
    return s;
  }
  cl::Buffer a_, b_, c_;
  std::string message_;
};

TEST_F(ObjectChecks, BufferOfAnotherContext) {
  cl::Context other(shared_context().device());
  cl::Buffer foreign(other, CL_MEM_READ_WRITE, n * n * 4);
  EXPECT_EQ(sgemm(foreign(), b_(), c_()), clgemmBufferContextMismatch);
  EXPECT_NE(message_.find("a_buffer belongs to another OpenCL context"), std::string::npos) << message_;
  EXPECT_EQ(sgemm(a_(), b_(), foreign()), clgemmBufferContextMismatch);
}

TEST_F(ObjectChecks, ImageInPlaceOfABuffer) {
  if (!shared_context().device().getInfo<CL_DEVICE_IMAGE_SUPPORT>()) GTEST_SKIP() << "the device has no images";
  cl::Image2D image(shared_context().context(), CL_MEM_READ_WRITE, cl::ImageFormat(CL_R, CL_FLOAT), n, n);
  EXPECT_EQ(sgemm(image(), b_(), c_()), clgemmNotABuffer);
  EXPECT_NE(message_.find("a_buffer is a 2D image"), std::string::npos) << message_;
  EXPECT_EQ(sgemm(a_(), b_(), image()), clgemmNotABuffer);
}

TEST_F(ObjectChecks, FlagsThatForbidTheAccess) {
  Context& ctx = shared_context();
  cl::Buffer read_only(ctx.context(), CL_MEM_READ_ONLY, n * n * 4);
  cl::Buffer write_only(ctx.context(), CL_MEM_WRITE_ONLY, n * n * 4);
  EXPECT_EQ(sgemm(a_(), b_(), read_only()), clgemmBufferAccess);
  EXPECT_NE(message_.find("c_buffer was created CL_MEM_READ_ONLY"), std::string::npos) << message_;
  EXPECT_EQ(sgemm(write_only(), b_(), c_()), clgemmBufferAccess);
  EXPECT_EQ(sgemm(a_(), write_only(), c_()), clgemmBufferAccess);
  EXPECT_EQ(sgemm(a_(), b_(), write_only(), 1.0f), clgemmBufferAccess);  // beta != 0 reads C
  EXPECT_EQ(sgemm(a_(), b_(), write_only(), 0.0f), clgemmSuccess);       // beta = 0 only writes it
  shared_context().queue().finish();
}

TEST_F(ObjectChecks, OutputThatAliasesAnInput) {
  EXPECT_EQ(sgemm(c_(), b_(), c_()), clgemmOverlappingOperands);
  EXPECT_NE(message_.find("A and C share memory"), std::string::npos) << message_;
  EXPECT_EQ(sgemm(a_(), c_(), c_()), clgemmOverlappingOperands);
  EXPECT_EQ(sgemm(a_(), a_(), c_()), clgemmSuccess);  // inputs may share
  shared_context().queue().finish();
}

TEST_F(ObjectChecks, BatchItemsOfCThatOverlap) {
  cl_command_queue q = shared_context().queue()();
  // Strided: items n elements apart with ld = n share rows.
  EXPECT_EQ(clgemmSgemmStridedBatched(clgemmLayoutRowMajor, clgemmTransposeNo, clgemmTransposeNo, 4, 4, 4, 1.0f, a_(),
                                      0, 4, 16, b_(), 0, 4, 16, 0.0f, c_(), 0, 4, 2, 3, &q, nullptr),
            clgemmOverlappingOperands);
  // Listed: the same offset twice.
  const float alphas[] = {1, 1}, betas[] = {0, 0};
  const size_t a_off[] = {0, 16}, b_off[] = {0, 16}, c_off[] = {16, 16};
  EXPECT_EQ(clgemmSgemmBatched(clgemmLayoutRowMajor, clgemmTransposeNo, clgemmTransposeNo, 4, 4, 4, alphas, a_(), a_off,
                               4, b_(), b_off, 4, betas, c_(), c_off, 4, 2, &q, nullptr),
            clgemmOverlappingOperands);
  for (float x : download(shared_context(), c_, n * n)) ASSERT_EQ(x, 7.0f);
}

// The layout the exact test exists for: batch items side by side in one wide C, computed right.
TEST_F(ObjectChecks, InterleavedBatchItemsRunAndAreRight) {
  Context& ctx = shared_context();
  const size_t items = 3, m = 5, k = 6, w = 4;  // C is m × (items·w), item i in columns i·w ..
  std::vector<float> a(items * m * k), b(items * k * w), c(m * items * w, 7.0f);
  cpu::fill_random(a, fresh_seed());
  cpu::fill_random(b, fresh_seed());
  cl::Buffer da = upload(ctx, a), db = upload(ctx, b), dc = upload(ctx, c);
  cl_command_queue q = ctx.queue()();
  ASSERT_EQ(clgemmSgemmStridedBatched(clgemmLayoutRowMajor, clgemmTransposeNo, clgemmTransposeNo, m, w, k, 1.0f, da(), 0,
                                      k, m * k, db(), 0, w, k * w, 0.0f, dc(), 0, items * w, w, items, &q, nullptr),
            clgemmSuccess)
      << clgemmLastErrorMessage();
  const auto got = download(ctx, dc, c.size());
  for (size_t i = 0; i < items; ++i) {
    const auto want = reference_gemm(m, w, k, 1.0f, &a[i * m * k], &b[i * k * w], 0.0f, nullptr);
    std::vector<float> part;
    for (size_t r = 0; r < m; ++r)
      for (size_t j = 0; j < w; ++j) part.push_back(got[r * items * w + i * w + j]);
    EXPECT_TRUE(matches_reference(part, want, k, 0)) << "item " << i;
  }
}

// ---- batch counts and enums through the C API -----------------------------------------------

TEST_F(ObjectChecks, BatchCountPastTheLimit) {
  cl_command_queue q = shared_context().queue()();
  const float alphas[] = {1}, betas[] = {0};
  const size_t off[] = {0};
  const size_t huge = std::numeric_limits<size_t>::max();
  // Refused before the per-item arrays (of one entry here) are read.
  EXPECT_EQ(clgemmSgemmBatched(clgemmLayoutRowMajor, clgemmTransposeNo, clgemmTransposeNo, 4, 4, 4, alphas, a_(), off, 4,
                               b_(), off, 4, betas, c_(), off, 4, huge, &q, nullptr),
            clgemmInvalidBatchCount);
  EXPECT_NE(std::string(clgemmLastErrorMessage()).find("at most 2^31 - 1"), std::string::npos);
  EXPECT_EQ(clgemmSgemmStridedBatched(clgemmLayoutRowMajor, clgemmTransposeNo, clgemmTransposeNo, 4, 4, 4, 1.0f, a_(), 0,
                                      4, 16, b_(), 0, 4, 16, 0.0f, c_(), 0, 4, 16, size_t(1) << 31, &q, nullptr),
            clgemmInvalidBatchCount);
}

// C lets any int through an enum parameter; the C API judges it as an integer (reading it as the
// C++ enum type was undefined behaviour, which the sanitizer build reports).
TEST_F(ObjectChecks, EnumValuesOutsideTheirLists) {
  cl_command_queue q = shared_context().queue()();
  const int bad[] = {-1, 0, 100, 103, 0x7fffffff};
  for (int v : bad) {
    clgemmLayout layout;
    clgemmTranspose transpose;
    std::memcpy(&layout, &v, sizeof v);
    std::memcpy(&transpose, &v, sizeof v);
    EXPECT_EQ(clgemmSgemm(layout, clgemmTransposeNo, clgemmTransposeNo, n, n, n, 1.0f, a_(), 0, n, b_(), 0, n, 0.0f,
                          c_(), 0, n, &q, nullptr),
              clgemmInvalidLayout)
        << v;
    EXPECT_EQ(clgemmSgemm(clgemmLayoutRowMajor, transpose, clgemmTransposeNo, n, n, n, 1.0f, a_(), 0, n, b_(), 0, n,
                          0.0f, c_(), 0, n, &q, nullptr),
              clgemmInvalidTranspose)
        << v;
    clgemmMath math;
    std::memcpy(&math, &v, sizeof v);
    if (v > 2 || v < 0) {
      EXPECT_EQ(clgemmSetMath(math), clgemmInvalidArgument) << v;
    }
    clgemmStatus status;
    std::memcpy(&status, &v, sizeof v);
    if (v < -19 || v > 0) {
      EXPECT_STREQ(clgemmStatusString(status), "unknown status") << v;
    }
  }
  EXPECT_EQ(clgemmGetMath(), clgemmMathFp32);
}

}  // namespace
}  // namespace clgemm::test
