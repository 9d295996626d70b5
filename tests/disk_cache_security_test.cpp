// disk_cache_security_test.cpp — the program cache as a hostile user meets it: folders and entries
// of another owner or a loose mode, links, FIFOs, entries truncated, with a huge length field, or
// under another key, and a planted binary that must never run as clgemm's kernel.
#include <clgemm/warnings.hpp>

#include "runtime/disk_cache.hpp"
#include "runtime/program_cache.hpp"
#include "test_support.hpp"

#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>

namespace clgemm::test {
namespace {

namespace fs = std::filesystem;
using detail::DiskCache;

// A uid that is not ours, for files "owned by someone else" (the tests run as root in CI).
uid_t other_uid() { return geteuid() == 65534 ? 65533 : 65534; }

// Gives `path` to another user; false where this process may not (not root).
bool give_away(const std::string& path) { return lchown(path.c_str(), other_uid(), other_uid()) == 0; }

mode_t mode_of(const std::string& path) {
  struct stat st {};
  lstat(path.c_str(), &st);
  return st.st_mode & 07777;
}

// The warnings raised since the last call, joined; and how many there were.
std::pair<std::string, size_t> warnings() {
  std::string all;
  const auto w = take_warnings();
  for (const auto& m : w) all += m + "\n";
  return {all, w.size()};
}

// ---- the folder ----

TEST(DiskCacheSecurity, CreatesItsFoldersPrivate) {
  TempDir tmp("cache-security");
  const std::string dir = tmp / "a/b";
  DiskCache cache(dir);
  ASSERT_TRUE(cache.enabled());
  EXPECT_EQ(mode_of(tmp / "a"), 0700u);
  EXPECT_EQ(mode_of(dir), 0700u);
}

TEST(DiskCacheSecurity, GroupWritableFolderIsRefusedWithOneWarning) {
  TempDir tmp("cache-security");
  chmod(tmp.str().c_str(), 0770);
  take_warnings();
  const std::string k = DiskCache::key({"loose folder"});
  for (int i = 0; i < 3; ++i) {
    DiskCache cache(tmp.str());
    EXPECT_FALSE(cache.enabled()) << "a folder others may write to could hold their binaries";
    cache.store(k, pattern_bytes(100, 1));
    EXPECT_FALSE(cache.load(k).has_value());
  }
  EXPECT_EQ(tmp.names().size(), 0u) << "nothing stored in a refused folder";
  const auto [text, count] = warnings();
  EXPECT_EQ(count, 1u) << "one warning per folder and process:\n" << text;
  EXPECT_NE(text.find(tmp.str()), std::string::npos) << text;
  EXPECT_NE(text.find("chmod 700"), std::string::npos) << text;
}

TEST(DiskCacheSecurity, FolderOfAnotherUserIsRefused) {
  TempDir tmp("cache-security");
  const std::string dir = tmp / "theirs";
  fs::create_directory(dir);
  chmod(dir.c_str(), 0700);
  if (!give_away(dir)) GTEST_SKIP() << "cannot chown to uid " << other_uid() << " (not root)";
  take_warnings();
  EXPECT_FALSE(DiskCache(dir).enabled());
  const auto [text, count] = warnings();
  EXPECT_EQ(count, 1u) << text;
  EXPECT_NE(text.find("uid " + std::to_string(other_uid())), std::string::npos) << text;
}

TEST(DiskCacheSecurity, LinkedFolderIsJudgedByItsTarget) {
  TempDir tmp("cache-security");
  fs::create_directory(tmp / "good");
  chmod((tmp / "good").c_str(), 0700);
  fs::create_directory(tmp / "loose");
  chmod((tmp / "loose").c_str(), 0777);
  fs::create_directory_symlink(tmp / "good", tmp / "to-good");
  fs::create_directory_symlink(tmp / "loose", tmp / "to-loose");
  take_warnings();
  DiskCache good(tmp / "to-good");
  EXPECT_TRUE(good.enabled());
  EXPECT_FALSE(DiskCache(tmp / "to-loose").enabled());
  EXPECT_EQ(warnings().second, 1u);
  // Entries in a linked folder still work.
  const std::string k = DiskCache::key({"linked"});
  good.store(k, pattern_bytes(300, 2));
  EXPECT_EQ(good.load(k), pattern_bytes(300, 2));
}

// ---- entries ----

TEST(DiskCacheSecurity, EntriesArePrivateAndNoTemporaryStays) {
  TempDir tmp("cache-security");
  DiskCache cache(tmp.str());
  const std::string k = DiskCache::key({"private"});
  cache.store(k, pattern_bytes(1000, 3));
  EXPECT_EQ(mode_of(cache.path(k)), 0600u);
  EXPECT_EQ(tmp.names().size(), 1u) << "the entry alone";
}

TEST(DiskCacheSecurity, GroupWritableEntryIsIgnoredAndRemoved) {
  TempDir tmp("cache-security");
  DiskCache cache(tmp.str());
  const std::string k = DiskCache::key({"loose entry"});
  cache.store(k, pattern_bytes(1000, 4));
  chmod(cache.path(k).c_str(), 0664);
  take_warnings();
  EXPECT_FALSE(cache.load(k).has_value());
  EXPECT_FALSE(fs::exists(cache.path(k))) << "our own file, safe to delete";
  const auto [text, count] = warnings();
  EXPECT_EQ(count, 1u) << text;
  EXPECT_NE(text.find("writable by group or others"), std::string::npos) << text;
}

TEST(DiskCacheSecurity, EntryOfAnotherUserIsIgnoredAndLeftAlone) {
  TempDir tmp("cache-security");
  DiskCache cache(tmp.str());
  const std::string k = DiskCache::key({"foreign entry"});
  cache.store(k, pattern_bytes(1000, 5));
  if (!give_away(cache.path(k))) GTEST_SKIP() << "cannot chown to uid " << other_uid() << " (not root)";
  take_warnings();
  EXPECT_FALSE(cache.load(k).has_value());
  EXPECT_TRUE(fs::exists(cache.path(k))) << "not ours to delete";
  EXPECT_NE(warnings().first.find("uid " + std::to_string(other_uid())), std::string::npos);
  // A fresh store replaces the name, and then the entry is ours and used.
  cache.store(k, pattern_bytes(1000, 6));
  EXPECT_EQ(cache.load(k), pattern_bytes(1000, 6));
}

TEST(DiskCacheSecurity, LinkedEntryIsNotFollowed) {
  TempDir tmp("cache-security");
  fs::create_directory(tmp / "elsewhere");
  DiskCache cache(tmp / "cache"), other(tmp / "elsewhere");
  const std::string k = DiskCache::key({"linked entry"});
  other.store(k, pattern_bytes(1000, 7));  // a whole, valid entry under the right key, reached by a link
  fs::create_symlink(other.path(k), cache.path(k));
  take_warnings();
  EXPECT_FALSE(cache.load(k).has_value());
  EXPECT_FALSE(fs::is_symlink(fs::symlink_status(cache.path(k)))) << "the link itself is removed";
  EXPECT_EQ(other.load(k), pattern_bytes(1000, 7)) << "its target is untouched";
  EXPECT_NE(warnings().first.find("symbolic link"), std::string::npos);
}

TEST(DiskCacheSecurity, FifoEntryNeitherHangsNorStays) {
  TempDir tmp("cache-security");
  DiskCache cache(tmp.str());
  const std::string k = DiskCache::key({"fifo entry"});
  ASSERT_EQ(mkfifo(cache.path(k).c_str(), 0600), 0);
  ASSERT_BOUNDED(!cache.load(k).has_value());
  take_warnings();
  EXPECT_FALSE(cache.load(k).has_value());
  EXPECT_NE(warnings().first.find("FIFO"), std::string::npos);
  cache.store(k, pattern_bytes(500, 8));
  EXPECT_EQ(cache.load(k), pattern_bytes(500, 8)) << "a fresh entry replaces the FIFO";
}

TEST(DiskCacheSecurity, HugeLengthFieldAllocatesNothing) {
  TempDir tmp("cache-security");
  DiskCache cache(tmp.str());
  const std::string k = DiskCache::key({"huge"});
  const auto plant = [&] {
    cache.store(k, pattern_bytes(4096, 9));
    std::fstream f(cache.path(k), std::ios::in | std::ios::out | std::ios::binary);
    const uint64_t huge = 0xfffffff0ull;  // under 4 GiB, a length an older check let through
    f.seekp(DiskCache::kSizeOffset);
    f.write(reinterpret_cast<const char*>(&huge), sizeof huge);
  };
  // Within 256 MiB of headroom: trusting the length before comparing it with the file's would
  // allocate 4 GiB and kill the child.
  plant();
  ASSERT_BOUNDED(!cache.load(k).has_value());
  plant();  // the child removed the refused entry
  take_warnings();
  EXPECT_FALSE(cache.load(k).has_value());
  EXPECT_FALSE(fs::exists(cache.path(k)));
  EXPECT_NE(warnings().first.find("records 4294967280 bytes of binary but holds 4096"), std::string::npos);
}

TEST(DiskCacheSecurity, TruncatedAndOversizedEntriesAreRefused) {
  TempDir tmp("cache-security");
  DiskCache cache(tmp.str());
  const std::string k = DiskCache::key({"sizes"});
  for (const uint64_t size : {uint64_t(10), uint64_t(DiskCache::kHeaderSize + 100),
                              uint64_t(DiskCache::kHeaderSize + DiskCache::kMaxBinary + 1)}) {
    cache.store(k, pattern_bytes(4096, 10));
    fs::resize_file(cache.path(k), size);  // the largest is sparse: no disk space taken
    EXPECT_FALSE(cache.load(k).has_value()) << size << " bytes";
    EXPECT_FALSE(fs::exists(cache.path(k))) << size << " bytes";
  }
}

TEST(DiskCacheSecurity, EntryUnderAnotherKeyIsRefused) {
  TempDir tmp("cache-security");
  DiskCache cache(tmp.str());
  const std::string k1 = DiskCache::key({"first"}), k2 = DiskCache::key({"second"});
  cache.store(k1, pattern_bytes(1000, 11));
  cache.store(k2, pattern_bytes(2000, 12));
  const std::string swap = tmp / "swap";
  fs::rename(cache.path(k1), swap);
  fs::rename(cache.path(k2), cache.path(k1));
  fs::rename(swap, cache.path(k2));
  take_warnings();
  EXPECT_FALSE(cache.load(k1).has_value());
  EXPECT_FALSE(cache.load(k2).has_value());
  EXPECT_NE(warnings().first.find("records the key " + k2), std::string::npos);
}

// ---- a ProgramCache over a planted or swapped entry ----

const char* const kAnswer = "kernel void answer(global int* out) { out[0] = 1; }";
const char* const kPlanted = "kernel void answer(global int* out) { out[0] = 666; }";

int run(const cl::Program& program, const char* kernel) {
  Context& ctx = shared_context();
  cl::Buffer out = ctx.buffer(sizeof(cl_int));
  cl::Kernel k(program, kernel);
  k.setArg(0, out);
  ctx.queue().enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(1));
  cl_int value = 0;
  ctx.queue().enqueueReadBuffer(out, CL_TRUE, 0, sizeof value, &value);
  return value;
}

// A ProgramCache on the shared device whose disk cache is `dir`, as a new process would have.
ProgramCache program_cache(const std::string& dir) {
  ScopedEnv env("CLGEMM_CACHE_DIR", dir);
  return ProgramCache(shared_context().context(), shared_context().info());
}

std::vector<unsigned char> binary_of(const char* source) {
  cl::Program p(shared_context().context(), source);
  p.build({shared_context().device()});
  return p.getInfo<CL_PROGRAM_BINARIES>().front();
}

// The only entry's key in `dir`.
std::string only_key(const TempDir& dir) {
  std::vector<std::string> keys;
  for (const auto& e : fs::directory_iterator(dir.str())) keys.push_back(e.path().stem().string());
  EXPECT_EQ(keys.size(), 1u);
  return keys.empty() ? "" : keys.front();
}

// The attack of the issue: an entry with a recomputed checksum (written here by DiskCache::store
// itself, so that everything but its owner or mode is right) holding another program's binary.
TEST(ProgramCacheSecurity, PlantedBinaryRunsOnlyFromATrustedEntry) {
  const std::string opts = "-DPLANT_TEST=" + std::to_string(fresh_seed() % 1000000);
  const auto planted = binary_of(kPlanted);
  const auto answer = [&](const TempDir& dir) {
    return run(program_cache(dir.str()).get("answer", opts, [] { return kAnswer; }), "answer");
  };
  struct Case {
    const char* name;
    bool trusted;
    std::function<bool(const std::string&)> weaken;  // false: cannot be set up here
  };
  const Case cases[] = {
      // The user's own private entry is trusted: that it runs shows the plant is well-formed, so
      // the refusals below are the checks at work.
      {"ours, mode 0600", true, [](const std::string&) { return true; }},
      {"group-writable", false, [](const std::string& f) { return chmod(f.c_str(), 0620) == 0; }},
      {"writable by others", false, [](const std::string& f) { return chmod(f.c_str(), 0602) == 0; }},
      {"owned by another user", false, [](const std::string& f) { return give_away(f); }},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    TempDir dir("cache-security");
    ASSERT_EQ(answer(dir), 1) << "built from source and stored";
    const std::string key = only_key(dir);
    const DiskCache cache(dir.str());
    cache.store(key, planted);
    if (!c.weaken(cache.path(key))) {
      std::cout << "not tried (needs root): an entry " << c.name << "\n";
      continue;
    }
    take_warnings();
    const int got = answer(dir);
    EXPECT_EQ(got, c.trusted ? 666 : 1) << (c.trusted ? "the plant is malformed" : "the planted binary ran");
    EXPECT_EQ(warnings().second, c.trusted ? 0u : 1u);
  }
}

TEST(ProgramCacheSecurity, SwappedEntriesAreRebuilt) {
  const std::string opts = "-DSWAP_TEST=" + std::to_string(fresh_seed() % 1000000);
  const auto first = [] { return std::string("kernel void first(global int* out) { out[0] = 1; }"); };
  const auto second = [] { return std::string("kernel void second(global int* out) { out[0] = 2; }"); };
  TempDir dir("cache-security");
  program_cache(dir.str()).get("first", opts, first);
  const std::string k1 = only_key(dir);
  program_cache(dir.str()).get("second", opts, second);
  std::string k2;
  for (const auto& e : fs::directory_iterator(dir.str()))
    if (e.path().stem() != k1) k2 = e.path().stem().string();
  ASSERT_FALSE(k2.empty());
  // Each program's entry, intact, under the other's name: loaded as it is, the binary lacks the
  // kernel asked for (CL_INVALID_KERNEL_NAME on every call).
  const DiskCache cache(dir.str());
  fs::rename(cache.path(k1), dir / "swap");
  fs::rename(cache.path(k2), cache.path(k1));
  fs::rename(dir / "swap", cache.path(k2));
  take_warnings();
  ProgramCache fresh = program_cache(dir.str());
  EXPECT_EQ(run(fresh.get("first", opts, first), "first"), 1);
  EXPECT_EQ(run(fresh.get("second", opts, second), "second"), 2);
  EXPECT_NE(warnings().first.find("records the key"), std::string::npos);
  EXPECT_TRUE(cache.load(k1).has_value()) << "rebuilt and stored under its own key";
  EXPECT_TRUE(cache.load(k2).has_value());
}

}  // namespace
}  // namespace clgemm::test
