// program_cache_test.cpp — the on-disk program cache: round trip, damaged entries, concurrent
// writers, and a Context that recovers from a corrupt entry.
#include <clgemm/context.hpp>

#include "runtime/disk_cache.hpp"
#include "test_support.hpp"

#include <cstdlib>
#include <dirent.h>
#include <filesystem>
#include <fstream>
#include <thread>

namespace clgemm::test {
namespace {

namespace fs = std::filesystem;

TEST(DiskCache, RoundTripAndDistinctKeys) {
  TempDir dir("cache-test");
  detail::DiskCache cache(dir.str());
  ASSERT_TRUE(cache.enabled());
  const std::string k1 = detail::DiskCache::key({"dev", "opts", "src"});
  const std::string k2 = detail::DiskCache::key({"dev", "opt", "ssrc"});
  EXPECT_NE(k1, k2);
  EXPECT_EQ(k1.size(), 32u);
  EXPECT_FALSE(cache.load(k1).has_value());
  cache.store(k1, pattern_bytes(5000, 1));
  auto got = cache.load(k1);
  ASSERT_TRUE(got.has_value());
  EXPECT_EQ(*got, pattern_bytes(5000, 1));
}

TEST(DiskCache, TruncatedEntryIsRemoved) {
  TempDir dir("cache-test");
  detail::DiskCache cache(dir.str());
  const std::string k = detail::DiskCache::key({"x"});
  cache.store(k, pattern_bytes(4096, 2));
  fs::resize_file(cache.path(k), 1000);
  EXPECT_FALSE(cache.load(k).has_value());
  EXPECT_FALSE(fs::exists(cache.path(k)));
}

TEST(DiskCache, GarbageEntryIsRemoved) {
  TempDir dir("cache-test");
  detail::DiskCache cache(dir.str());
  const std::string k = detail::DiskCache::key({"y"});
  {
    std::ofstream out(cache.path(k), std::ios::binary);
    out << "this is not a clgemm cache entry, just some text of a reasonable length";
  }
  EXPECT_FALSE(cache.load(k).has_value());
  EXPECT_FALSE(fs::exists(cache.path(k)));
  // A right header with a flipped payload byte fails the checksum.
  cache.store(k, pattern_bytes(2000, 3));
  {
    std::fstream f(cache.path(k), std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(detail::DiskCache::kHeaderSize + 100);
    f.put('\x55');
  }
  EXPECT_FALSE(cache.load(k).has_value());
}

TEST(DiskCache, ConcurrentWritersLeaveOneWholeEntry) {
  TempDir dir("cache-test");
  const std::string k = detail::DiskCache::key({"shared"});
  std::vector<std::thread> threads;
  std::atomic<int> bad_reads{0};
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&, t] {
      detail::DiskCache cache(dir.str());  // as separate processes would, each its own object
      for (int i = 0; i < 40; ++i) {
        cache.store(k, pattern_bytes(20000 + 1000 * t, unsigned(t)));
        auto got = cache.load(k);
        // A reader sees no entry (removed by another's check) or a whole one from some writer.
        if (got && got->size() >= 20000 && *got != pattern_bytes(got->size(), unsigned((got->size() - 20000) / 1000))) ++bad_reads;
      }
    });
  for (auto& th : threads) th.join();
  EXPECT_EQ(bad_reads.load(), 0);
  for (const auto& f : dir.names()) EXPECT_EQ(f.find(".tmp"), std::string::npos) << "temporary file left: " << f;
}

TEST(ProgramCache, ContextRebuildsAfterCorruptEntry) {
  TempDir dir("cache-test");
  const char* old = std::getenv("CLGEMM_CACHE_DIR");
  const std::string saved = old ? old : "";
  setenv("CLGEMM_CACHE_DIR", dir.str().c_str(), 1);
  const DeviceInfo dev = shared_context().info();
  const std::vector<std::string> src = {"common/vectors.cl", "util/prepare_operand.cl"};
  const std::string opts = "-DTILE=32 -DTILE_ROWS=8 -DTRANSPOSE=1 -DCACHE_TEST=" + std::to_string(fresh_seed() % 100000);
  {
    Context ctx(dev);
    EXPECT_EQ(ctx.program_cache_dir(), dir.str());
    ctx.kernel(src, opts, "prepare_operand");
  }
  auto files = dir.names();
  ASSERT_EQ(files.size(), 1u) << "one program, one entry";
  const std::string entry = dir.str() + "/" + files[0];
  const auto good_size = fs::file_size(entry);
  for (int damage = 0; damage < 2; ++damage) {
    if (damage == 0) fs::resize_file(entry, good_size / 3);  // truncated
    else {
      std::ofstream out(entry, std::ios::binary | std::ios::trunc);  // garbage
      out << std::string(good_size, 'g');
    }
    Context ctx(dev);
    EXPECT_NO_THROW(ctx.kernel(src, opts, "prepare_operand"));
    ASSERT_TRUE(fs::exists(entry));
    EXPECT_EQ(fs::file_size(entry), good_size) << "the entry was rebuilt whole";
  }
  if (old) setenv("CLGEMM_CACHE_DIR", saved.c_str(), 1);
  else unsetenv("CLGEMM_CACHE_DIR");
}

}  // namespace
}  // namespace clgemm::test
