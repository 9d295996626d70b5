// disk_cache.cpp — program binaries on disk: trusted folder and entries, atomic and checksummed.
#include "runtime/disk_cache.hpp"

#include "runtime/regular_file.hpp"
#include "runtime/warnings.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <sys/stat.h>
#include <unistd.h>

namespace clgemm::detail {

namespace {

constexpr char kMagic[8] = {'C', 'L', 'G', 'E', 'M', 'M', 'B', '2'};
constexpr const char* kFormatVersion = "clgemm-binary-cache-2";
constexpr size_t kKeyLength = 32;

struct Header {
  char magic[8];
  char key[kKeyLength];
  uint64_t size;
  uint64_t checksum;
};
static_assert(sizeof(Header) == DiskCache::kHeaderSize && offsetof(Header, key) == DiskCache::kKeyOffset &&
                  offsetof(Header, size) == DiskCache::kSizeOffset,
              "the layout disk_cache.hpp describes");

std::string default_dir() {
  if (const char* d = std::getenv("CLGEMM_CACHE_DIR")) {
    if (std::string(d) == "off" || std::string(d) == "0") return "";
    if (*d) return d;
  }
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return std::string(x) + "/clgemm";
  if (const char* h = std::getenv("HOME"); h && *h) return std::string(h) + "/.cache/clgemm";
  return "";
}

// mkdir -p, mode 0700 for every folder it creates: the cache's contents are for its user alone.
// Folders that exist are left as they are (and the last one is checked by folder_problem).
void make_private_dirs(const std::string& dir) {
  for (size_t i = 1; i <= dir.size(); ++i)
    if (i == dir.size() || dir[i] == '/') mkdir(dir.substr(0, i).c_str(), 0700);  // EEXIST is fine
}

std::string octal_mode(mode_t mode) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "%04o", unsigned(mode & 07777));
  return buf;
}

std::string owner_problem(const struct stat& st) {
  return "is owned by uid " + std::to_string(st.st_uid) + ", not by you (uid " + std::to_string(geteuid()) + ")";
}

bool loose_mode(const struct stat& st) { return (st.st_mode & (S_IWGRP | S_IWOTH)) != 0; }

// Why `dir` may not hold binaries clgemm runs; empty when it may. stat() follows a link in the
// last component, so a linked folder is judged by its target.
std::string folder_problem(const std::string& dir) {
  struct stat st {};
  if (stat(dir.c_str(), &st) != 0) return "it cannot be inspected (" + std::string(std::strerror(errno)) + ")";
  if (!S_ISDIR(st.st_mode)) return "it is not a folder";
  if (st.st_uid != geteuid())
    return "it " + owner_problem(st) +
           ", who could plant compiled kernels there; set CLGEMM_CACHE_DIR to a folder of your own";
  if (loose_mode(st))
    return "it is writable by group or others (mode " + octal_mode(st.st_mode) +
           "), who could plant compiled kernels there; run `chmod 700 " + dir + "`";
  return "";
}

bool is_key(const std::string& key) {
  if (key.size() != kKeyLength) return false;
  for (char c : key)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  return true;
}

Header header_for(const std::string& key, const std::vector<unsigned char>& binary) {
  Header h{};
  std::memcpy(h.magic, kMagic, sizeof h.magic);
  std::memcpy(h.key, key.data(), kKeyLength);
  h.size = binary.size();
  h.checksum = fnv1a64(binary.data(), binary.size());
  return h;
}

// Why the open entry may not be used, naming it; empty when `binary` holds its intact content.
// Everything about the length is checked before the binary is allocated.
std::string check_entry(RegularFile& in, const std::string& key, std::vector<unsigned char>& binary) {
  const std::string& file = in.path();
  const struct stat& st = in.info();
  if (st.st_uid != geteuid()) return file + " " + owner_problem(st);
  if (loose_mode(st)) return file + " is writable by group or others (mode " + octal_mode(st.st_mode) + ")";
  if (in.size() < sizeof(Header)) return file + " is shorter than an entry's header (truncated)";
  const uint64_t length = in.size() - sizeof(Header);
  if (length > DiskCache::kMaxBinary)
    return file + " holds " + std::to_string(length) + " bytes, more than an entry may (" +
           std::to_string(DiskCache::kMaxBinary) + ")";
  Header h{};
  in.read_exact(&h, sizeof h);
  if (std::memcmp(h.magic, kMagic, sizeof kMagic) != 0) return file + " is not an entry of this clgemm's format";
  if (std::memcmp(h.key, key.data(), kKeyLength) != 0)
    return file + " records the key " + std::string(h.key, kKeyLength) + ", not the key it is named by";
  if (h.size != length)
    return file + " records " + std::to_string(h.size) + " bytes of binary but holds " + std::to_string(length) +
           " (truncated or damaged)";
  binary.resize(size_t(length));
  in.read_exact(binary.data(), binary.size());
  if (!in.at_end()) return file + " changed while it was read";
  if (fnv1a64(binary.data(), binary.size()) != h.checksum) return file + " fails its checksum (damaged)";
  return "";
}

// Deletes `file` if it is still the file `opened` describes (another process may have renamed a
// fresh entry over the name since).
void remove_if_same(const std::string& file, const struct stat& opened) {
  struct stat now {};
  if (lstat(file.c_str(), &now) == 0 && now.st_dev == opened.st_dev && now.st_ino == opened.st_ino)
    ::unlink(file.c_str());
}

// unlink() removes the link itself, never its target.
void remove_if_link(const std::string& file) {
  struct stat now {};
  if (lstat(file.c_str(), &now) == 0 && S_ISLNK(now.st_mode)) ::unlink(file.c_str());
}

// Once per folder, not once per program or per Context.
void report_entry(const std::string& dir, const std::string& problem) {
  warn_once("ignoring a program cache entry: " + problem +
                "; clgemm builds the program from source and stores it again (reported once per folder)",
            "program cache entry in " + dir);
}

}  // namespace

uint64_t fnv1a64(const void* data, size_t size, uint64_t h) {
  const unsigned char* p = static_cast<const unsigned char*>(data);
  for (size_t i = 0; i < size; ++i) {
    h ^= p[i];
    h *= 0x100000001b3ull;
  }
  return h;
}

DiskCache::DiskCache() : DiskCache(default_dir()) {}

DiskCache::DiskCache(std::string dir) : dir_(std::move(dir)) {
  if (dir_.empty()) return;
  make_private_dirs(dir_);
  struct stat st {};
  if (stat(dir_.c_str(), &st) != 0) {
    dir_.clear();  // cannot be created (read-only home, say): no cache, as with "off"
    return;
  }
  const std::string problem = folder_problem(dir_);
  if (problem.empty()) return;
  warn_once("not using the program cache folder " + dir_ + ": " + problem + ". Programs are built from source meanwhile.",
            "program cache folder " + dir_);
  dir_.clear();
}

std::string DiskCache::key(const std::vector<std::string>& parts) {
  // Two FNV-1a hashes with different seeds: 128 bits, so unrelated programs never share a name.
  uint64_t h1 = fnv1a64(kFormatVersion, std::strlen(kFormatVersion));
  uint64_t h2 = fnv1a64(kFormatVersion, std::strlen(kFormatVersion), 0x84222325cbf29ce4ull);
  for (const auto& p : parts) {
    const uint64_t len = p.size();  // length first, so ("ab","c") and ("a","bc") differ
    h1 = fnv1a64(&len, sizeof len, h1);
    h1 = fnv1a64(p.data(), p.size(), h1);
    h2 = fnv1a64(&len, sizeof len, h2);
    h2 = fnv1a64(p.data(), p.size(), h2);
  }
  char buf[kKeyLength + 1];
  std::snprintf(buf, sizeof buf, "%016llx%016llx", (unsigned long long)h1, (unsigned long long)h2);
  return buf;
}

std::optional<std::vector<unsigned char>> DiskCache::load(const std::string& key) const {
  if (!enabled() || !is_key(key)) return std::nullopt;
  const std::string file = path(key);
  std::unique_ptr<RegularFile> in;
  try {
    in = std::make_unique<RegularFile>(file, Links::Refuse);
  } catch (const FileError& e) {
    if (e.issue() == FileIssue::Missing) return std::nullopt;  // the usual miss
    if (e.issue() == FileIssue::Symlink) remove_if_link(file);
    report_entry(dir_, e.what());
    return std::nullopt;
  }
  std::vector<unsigned char> binary;
  std::string problem;
  try {
    problem = check_entry(*in, key, binary);
  } catch (const FileError& e) {
    problem = e.what();  // shrank or failed while read
  }
  if (problem.empty()) return binary;
  if (in->info().st_uid == geteuid()) remove_if_same(file, in->info());
  report_entry(dir_, problem);
  return std::nullopt;
}

void DiskCache::store(const std::string& key, const std::vector<unsigned char>& binary) const {
  if (!enabled() || !is_key(key) || binary.empty() || binary.size() > kMaxBinary) return;
  const Header h = header_for(key, binary);
  try {
    replace_file(path(key), {{&h, sizeof h}, {binary.data(), binary.size()}}, 0600, false);
  } catch (const FileError&) {
    // Full disk, read-only folder: the program still runs, it is just built again next time.
  }
}

void DiskCache::remove(const std::string& key) const {
  if (enabled() && is_key(key)) ::unlink(path(key).c_str());  // unlink never follows a link
}

}  // namespace clgemm::detail
