// sparse_test.cpp — the block-skip GEMM against the float64 reference at several tile densities and
// ragged sizes, with guard zones around C; the device-built tile map against the host's; the
// skipping run against the same kernel without skipping; and argument checking.
#include <clgemm/error.hpp>
#include <clgemm/sparse.hpp>

#include "test_support.hpp"

#include <cmath>
#include <limits>
#include <random>
#include <tuple>

namespace clgemm::test {
namespace {

struct SparseCase {
  GemmShape shape;
  double density;
  KernelParams params;  // overrides; empty = this device's defaults
  std::string name;
};

// gtest prints parameters with this instead of a byte dump.
void PrintTo(const SparseCase& c, std::ostream* os) { *os << c.name; }

std::string describe(const SparseCase& c, const BlockSparseGemm& g) {
  return std::to_string(c.shape.m) + "x" + std::to_string(c.shape.n) + "x" + std::to_string(c.shape.k) +
         " density " + std::to_string(c.density) + " with " + g.build_options();
}

// Runs one case on fresh inputs and checks everything a caller could notice.
void check_case(const SparseCase& c) {
  Context& ctx = shared_context();
  const GemmShape& s = c.shape;
  const uint64_t seed = fresh_seed();

  BlockSparseGemm g(ctx, s, c.params);
  std::vector<float> a = random_tile_sparse(s.m, s.k, g.tile_size(), c.density, seed);
  std::vector<float> b(s.k * s.n);
  cpu::fill_random(b, seed + 1);
  cl::Buffer da = upload(ctx, a), db = upload(ctx, b);
  GuardedBuffer c_skip(ctx, s.m * s.n), c_dense(ctx, s.m * s.n);

  std::vector<cl::Event> events = g.build_map(da);
  for (auto& e : g.multiply(da, db, c_skip.view(), SkipMode::SkipZeroTiles)) events.push_back(e);
  for (auto& e : g.multiply(da, db, c_dense.view(), SkipMode::Dense)) events.push_back(e);
  ctx.queue().finish();
  EXPECT_EQ(events.size(), 5u);
  const std::string what = describe(c, g) + " (seed " + std::to_string(seed) + ")";

  // The map built on the device is exactly the host's.
  const TileMap dev_map = g.tile_map(), host_map = tile_map_host(a.data(), s.m, s.k, g.tile_size());
  EXPECT_EQ(dev_map.rows, host_map.rows) << what;
  EXPECT_EQ(dev_map.cols, host_map.cols) << what;
  EXPECT_EQ(dev_map.nonzero, host_map.nonzero) << what;

  EXPECT_EQ(c_skip.guard_damage(), "") << what;
  EXPECT_EQ(c_dense.guard_damage(), "") << what << " (dense run)";
  const std::vector<float> skip = c_skip.read(), dense = c_dense.read();
  const std::vector<double> ref = cpu::gemm_reference_f64(s, a.data(), b.data());
  EXPECT_TRUE(matches_reference(skip, ref, s.k, seed)) << what;
  EXPECT_TRUE(matches_reference(dense, ref, s.k, seed)) << what << " (dense run)";

  // Skipping only leaves out products with a zero factor and keeps the order of the rest, so the
  // result equals the dense run's exactly (== also equates the +0 and -0 a skipped sum may differ by).
  size_t differ = 0, first = 0;
  for (size_t i = 0; i < skip.size(); ++i)
    if (!(skip[i] == dense[i]) && differ++ == 0) first = i;
  EXPECT_EQ(differ, 0u) << what << ": first difference at element " << first;

  if (c.density == 0.0) {
    for (size_t i = 0; i < skip.size(); ++i)
      if (skip[i] != 0.0f) {
        ADD_FAILURE() << what << ": element " << i << " is " << skip[i] << ", not 0";
        break;
      }
  }
  EXPECT_EQ(download(ctx, da, a.size()), a) << what << ": A was written";
  EXPECT_EQ(download(ctx, db, b.size()), b) << what << ": B was written";

  // Again into poisoned C, without rebuilding the map: no state is left behind.
  c_skip.poison();
  g.multiply(da, db, c_skip.view());
  ctx.queue().finish();
  EXPECT_EQ(c_skip.read(), skip) << what << ": second run differs";
}

class SparseCases : public ::testing::TestWithParam<SparseCase> {};

TEST_P(SparseCases, MatchesFloat64AndDenseRun) { check_case(GetParam()); }

// Tile-multiple sizes take the unguarded float4 kernel; the others the guarded one. TS = 16 puts
// several tiles (and partial ones) into the small ragged shapes.
const std::vector<SparseCase> kCases = {
    {{256, 256, 256}, 0.0, {}, "square256_d0"},
    {{256, 256, 256}, 0.1, {}, "square256_d10"},
    {{256, 256, 256}, 0.5, {}, "square256_d50"},
    {{256, 256, 256}, 1.0, {}, "square256_d100"},
    {{1, 1, 1}, 1.0, {}, "one_d100"},
    {{1, 1, 1}, 0.0, {}, "one_d0"},
    {{65, 63, 129}, 0.5, {}, "ragged65x63x129_d50"},
    {{200, 130, 300}, 0.1, {}, "ragged200x130x300_d10"},
    {{200, 130, 300}, 0.5, {{"TS", 16}, {"TSN", 32}}, "ragged200x130x300_d50_ts16"},
    {{65, 63, 129}, 0.0, {{"TS", 16}, {"TSN", 32}}, "ragged65x63x129_d0_ts16"},
    {{97, 5, 77}, 1.0, {{"TS", 16}, {"TSN", 32}}, "ragged97x5x77_d100_ts16"},
    {{128, 96, 160}, 0.5, {{"TS", 16}, {"TSN", 32}}, "multiple_d50_ts16"},
};

INSTANTIATE_TEST_SUITE_P(Sparse, SparseCases, ::testing::ValuesIn(kCases),
                         [](const auto& info) { return info.param.name; });

// The parameters the GPU runs by default must be correct too, even though CI has only a CPU:
// 256³ is the unguarded float4 path the H200 runs at 4096³; 200×130×300 the guarded one.
TEST(SparseGpuDefaults, CorrectOnThisDevice) {
  KernelParams gpu;
  for (const auto& p : sparse_params()) gpu[p.name] = p.gpu_default;
  for (const GemmShape& s : {GemmShape{256, 256, 256}, GemmShape{200, 130, 300}}) {
    try {
      check_case({s, 0.5, gpu, "gpu"});
    } catch (const Error& e) {
      if (e.status() != Status::OutOfResources) throw;
      GTEST_SKIP() << "GPU defaults do not fit this device: " << e.what();
    }
  }
}

// Map semantics: -0.0 is zero, NaN and denormals are not; ragged edge tiles look only inside A.
TEST(SparseMap, SignedZeroNaNAndEdges) {
  Context& ctx = shared_context();
  const size_t m = 37, k = 41, ts = 16;  // 3×3 tiles, the last row and column partial
  std::vector<float> a(m * k, 0.0f);
  a[0 * k + 0] = -0.0f;                                       // tile (0,0): only -0 → zero
  a[5 * k + 20] = std::numeric_limits<float>::quiet_NaN();    // tile (0,1)
  a[36 * k + 40] = std::numeric_limits<float>::denorm_min();  // tile (2,2), last element of A
  a[17 * k + 3] = -2.5f;                                      // tile (1,0)
  cl::Buffer da = upload(ctx, a);
  BlockSparseGemm g(ctx, {m, 8, k}, {{"TS", long(ts)}, {"TSN", 32}});
  g.build_map(da);
  const TileMap map = g.tile_map();
  const std::vector<uint8_t> expect = {0, 1, 0, 1, 0, 0, 0, 0, 1};
  EXPECT_EQ(map.nonzero, expect);
  EXPECT_EQ(map.nonzero, tile_map_host(a.data(), m, k, ts).nonzero);
  EXPECT_EQ(map.count(), 3u);
  EXPECT_DOUBLE_EQ(map.density(), 3.0 / 9.0);
}

// One non-zero per tile, at a corner, an edge or a random place, for k a multiple of 4 (float4
// reads) and not (scalar reads): the device map must see every single element of every tile.
TEST(SparseMap, SingleElementsAnywhere) {
  Context& ctx = shared_context();
  const size_t m = 45, ts = 16;  // 3 tile-rows, the last one 13 rows high
  std::mt19937_64 gen(fresh_seed());
  for (size_t k : {48, 44, 41, 3}) {
    BlockSparseGemm g(ctx, {m, 4, k}, {{"TS", long(ts)}, {"TSN", 32}});
    const size_t rows = (m + ts - 1) / ts, cols = (k + ts - 1) / ts;
    for (int round = 0; round < 6; ++round) {
      std::vector<float> a(m * k, 0.0f);
      for (size_t tr = 0; tr < rows; ++tr)
        for (size_t tc = 0; tc < cols; ++tc) {
          if (gen() % 4 == 0) continue;  // leave about a quarter of the tiles empty
          const size_t h = std::min(ts, m - tr * ts), w = std::min(ts, k - tc * ts);
          const int where = int(gen() % 5);  // 4 corners, or anywhere
          const size_t r = where == 4 ? gen() % h : (where & 1 ? h - 1 : 0);
          const size_t c = where == 4 ? gen() % w : (where & 2 ? w - 1 : 0);
          a[(tr * ts + r) * k + tc * ts + c] = gen() % 2 ? 1.0f : -1e-30f;
        }
      g.build_map(upload(ctx, a));
      EXPECT_EQ(g.tile_map().nonzero, tile_map_host(a.data(), m, k, ts).nonzero) << "k=" << k << " round " << round;
    }
  }
}

// The generator the tests and the CLI share gives exactly the requested share of tiles.
TEST(SparseMap, RandomTileSparseHitsDensity) {
  const size_t m = 200, k = 300, ts = 16;  // 13 × 19 = 247 tiles
  for (double d : {0.0, 0.1, 0.5, 1.0}) {
    const auto a = random_tile_sparse(m, k, ts, d, fresh_seed());
    EXPECT_EQ(tile_map_host(a.data(), m, k, ts).count(), size_t(std::llround(d * 247))) << "density " << d;
  }
  EXPECT_THROW(random_tile_sparse(4, 4, 2, 1.5, 1), Error);
  EXPECT_THROW(random_tile_sparse(4, 4, 2, -0.1, 1), Error);
}

TEST(SparseErrors, RejectsBadArguments) {
  Context& ctx = shared_context();
  const auto status_of = [](auto&& f) {
    try {
      f();
    } catch (const Error& e) {
      return e.status();
    }
    return Status::Success;
  };
  EXPECT_EQ(status_of([&] { BlockSparseGemm(ctx, {0, 4, 4}); }), Status::InvalidArgument);
  EXPECT_EQ(status_of([&] { BlockSparseGemm(ctx, {4, 4, 0}); }), Status::InvalidArgument);
  EXPECT_EQ(status_of([&] { BlockSparseGemm(ctx, {70000, 2, 70000}); }), Status::InvalidArgument);
  EXPECT_EQ(status_of([&] { BlockSparseGemm(ctx, {4, 4, 4}, {{"NO_SUCH", 1}}); }), Status::InvalidArgument);
  EXPECT_EQ(status_of([&] { BlockSparseGemm(ctx, {4, 4, 4}, {{"TS", 0}}); }), Status::InvalidArgument);
  EXPECT_EQ(status_of([&] { BlockSparseGemm(ctx, {4, 4, 4}, {{"TS", 36}, {"TK", 8}}); }), Status::InvalidArgument);
  EXPECT_EQ(status_of([&] { BlockSparseGemm(ctx, {4, 4, 4}, {{"WPTM", 6}}); }), Status::InvalidArgument);
  // Valid, but 4 MiB of local memory: more than any device has.
  const KernelParams huge = {{"TS", 1024}, {"TSN", 1024}, {"TK", 256}, {"WPTM", 32}, {"WPTN", 32}};
  EXPECT_EQ(status_of([&] { BlockSparseGemm(ctx, {4, 4, 4}, huge); }),
            Status::OutOfResources);

  BlockSparseGemm g(ctx, {8, 8, 8});
  cl::Buffer a = ctx.buffer(64 * sizeof(float)), b = ctx.buffer(64 * sizeof(float)), c = ctx.buffer(64 * sizeof(float));
  cl::Buffer small = ctx.buffer(63 * sizeof(float));
  EXPECT_EQ(status_of([&] { g.tile_map(); }), Status::InvalidArgument);  // no map yet
  EXPECT_EQ(status_of([&] { g.multiply(a, b, c); }), Status::InvalidArgument);
  EXPECT_NO_THROW(g.multiply(a, b, c, SkipMode::Dense));
  EXPECT_EQ(status_of([&] { g.build_map(small); }), Status::InvalidArgument);
  g.build_map(a);
  EXPECT_EQ(status_of([&] { g.multiply(a, b, small); }), Status::InvalidArgument);
  EXPECT_EQ(status_of([&] { g.multiply(a, small, c); }), Status::InvalidArgument);
  ctx.queue().finish();
}

}  // namespace
}  // namespace clgemm::test
