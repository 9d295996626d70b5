// batch_launch_test.cpp — a batched call enqueues the same commands whatever its batch count (the
// items run along an NDRange dimension, packing included), counted with GemmOptions::events, and
// every item is right: batch counts 1, 2, 3 and 1000, strided and by arrays with per-item alpha,
// beta and offsets, on each path and on the beta-only scaling.
#include <clgemm/gemm.hpp>

#include "test_support.hpp"

#include <numeric>
#include <random>

namespace clgemm::test {
namespace {

struct Case {
  const char* name;
  GemmPath path;
  KernelParams params;
  size_t m, n, k;
  size_t commands;  // what one item takes: packs, then the GEMM
};

// Row-major, A m×k, B k×n, C m×n, each item `pad` elements after the one before: how an
// operand reaches its kernel depends on the alignment of its items, which the pad keeps.
struct BatchData {
  size_t m, n, k, count, pad;
  std::vector<float> a, b, c;
  size_t sa() const { return m * k + pad; }
  size_t sb() const { return k * n + pad; }
  size_t sc() const { return m * n + pad; }
};

BatchData make_data(size_t m, size_t n, size_t k, size_t count) {
  BatchData d{m, n, k, count, 8, {}, {}, {}};  // a pad of 8 keeps strides as aligned as the items
  d.a.resize(d.sa() * count);
  d.b.resize(d.sb() * count);
  d.c.resize(d.sc() * count);
  cpu::fill_random(d.a, fresh_seed());
  cpu::fill_random(d.b, fresh_seed());
  cpu::fill_random(d.c, fresh_seed());
  return d;
}

// Every item i of C (at c_at[i]) against the reference, the rest of C untouched.
::testing::AssertionResult check(const BatchData& d, const std::vector<float>& got, const std::vector<size_t>& a_at,
                                 const std::vector<size_t>& b_at, const std::vector<size_t>& c_at,
                                 const std::vector<float>& alphas, const std::vector<float>& betas) {
  std::vector<bool> written(got.size(), false);
  for (size_t i = 0; i < d.count; ++i) {
    const auto want = reference_gemm(d.m, d.n, d.k, alphas[i], &d.a[a_at[i]], &d.b[b_at[i]], betas[i], &d.c[c_at[i]]);
    std::vector<float> item(got.begin() + c_at[i], got.begin() + c_at[i] + d.m * d.n);
    auto r = matches_reference(item, want, d.k, 0);
    if (!r) return r << " (item " << i << " of " << d.count << ")";
    for (size_t e = 0; e < d.m * d.n; ++e) written[c_at[i] + e] = true;
  }
  for (size_t e = 0; e < got.size(); ++e)
    if (!written[e] && got[e] != d.c[e]) return ::testing::AssertionFailure() << "C[" << e << "] outside every item written";
  return ::testing::AssertionSuccess();
}

class BatchLaunch : public ::testing::TestWithParam<Case> {
 protected:
  // The commands a call of `count` items enqueues, checking its results.
  size_t strided(size_t count) {
    const Case& p = GetParam();
    Context& ctx = shared_context();
    BatchData d = make_data(p.m, p.n, p.k, count);
    cl::Buffer da = upload(ctx, d.a), db = upload(ctx, d.b), dc = upload(ctx, d.c);
    std::vector<cl::Event> events;
    GemmOptions o;
    o.force_path = p.path;
    o.force_params = p.params;
    o.events = &events;
    const float alpha = p.k == 0 ? 1.0f : 0.75f, beta = -0.5f;
    gemm_strided_batched(row_major_call(p.m, p.n, p.k, alpha, beta, da(), db(), dc()), d.sa(), d.sb(), d.sc(), count,
                         ctx.queue()(), nullptr, o);
    ctx.queue().finish();
    std::vector<size_t> a_at(count), b_at(count), c_at(count);
    for (size_t i = 0; i < count; ++i) a_at[i] = i * d.sa(), b_at[i] = i * d.sb(), c_at[i] = i * d.sc();
    EXPECT_TRUE(check(d, download(ctx, dc, d.c.size()), a_at, b_at, c_at, std::vector<float>(count, alpha),
                      std::vector<float>(count, beta)))
        << GetParam().name << ", strided, " << count << " items";
    return events.size();
  }

  // The same by arrays: per-item alpha and beta, the items in shuffled places.
  size_t listed(size_t count) {
    const Case& p = GetParam();
    Context& ctx = shared_context();
    BatchData d = make_data(p.m, p.n, p.k, count);
    cl::Buffer da = upload(ctx, d.a), db = upload(ctx, d.b), dc = upload(ctx, d.c);
    std::vector<size_t> order(count);
    std::iota(order.begin(), order.end(), size_t(0));
    std::shuffle(order.begin(), order.end(), std::mt19937(unsigned(fresh_seed())));
    std::vector<size_t> a_at(count), b_at(count), c_at(count);
    std::vector<float> alphas(count), betas(count);
    for (size_t i = 0; i < count; ++i) {
      a_at[i] = order[i] * d.sa(), b_at[i] = order[(i + 1) % count] * d.sb(), c_at[i] = order[i] * d.sc();
      alphas[i] = 0.25f * float(i % 7) - 0.5f, betas[i] = i % 3 == 0 ? 0.0f : 1.5f;
    }
    std::vector<cl::Event> events;
    GemmOptions o;
    o.force_path = p.path;
    o.force_params = p.params;
    o.events = &events;
    gemm_batched(row_major_call(p.m, p.n, p.k, 1.0f, 0.0f, da(), db(), dc()), alphas, betas, a_at, b_at, c_at,
                 ctx.queue()(), nullptr, o);
    ctx.queue().finish();
    // An item with alpha 0 or k = 0 still gives beta·C: the reference says the same.
    EXPECT_TRUE(check(d, download(ctx, dc, d.c.size()), a_at, b_at, c_at, alphas, betas))
        << GetParam().name << ", by arrays, " << count << " items";
    return events.size();
  }
};

TEST_P(BatchLaunch, OneLaunchPerCommandWhateverTheCount) {
  const size_t one = strided(1);
  ASSERT_EQ(one, GetParam().commands) << GetParam().name;
  for (size_t count : {2, 3, 1000}) EXPECT_EQ(strided(count), one) << GetParam().name << ", " << count << " items";
  const size_t one_listed = listed(1);
  for (size_t count : {2, 3, 1000}) EXPECT_EQ(listed(count), one_listed) << GetParam().name << ", " << count << " items";
}

// Packed with PACKA = 1 packs a row-major A; an N that is not a multiple of the vector width
// packs B too. The tall kernel takes C of up to 16 columns. k = 0 is the beta-only scaling.
INSTANTIATE_TEST_SUITE_P(
    Paths, BatchLaunch,
    ::testing::Values(Case{"direct", GemmPath::Direct, {}, 13, 11, 9, 1},
                      Case{"packed_pack_a", GemmPath::Packed, {{"PACKA", 1}}, 17, 16, 12, 2},
                      Case{"packed_pack_both", GemmPath::Packed, {{"PACKA", 1}}, 9, 13, 7, 3},
                      Case{"packed_in_place", GemmPath::Packed, {{"PACKA", 0}}, 10, 16, 9, 1},
                      Case{"tall", GemmPath::Tall, {}, 21, 5, 16, 1}, Case{"tiny", GemmPath::Tiny, {}, 5, 6, 7, 1},
                      Case{"scale", GemmPath::Auto, {}, 6, 7, 0, 1}),
    [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace clgemm::test
