// disk_cache.cpp — atomic, checksummed program binaries on disk.
#include "runtime/disk_cache.hpp"

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <sys/stat.h>
#include <unistd.h>

namespace clgemm::detail {

namespace {

constexpr char kMagic[8] = {'C', 'L', 'G', 'E', 'M', 'M', 'B', '1'};
constexpr const char* kFormatVersion = "clgemm-binary-cache-1";

// mkdir -p; true if the folder exists afterwards.
bool make_dirs(const std::string& dir) {
  std::string partial;
  for (size_t i = 0; i <= dir.size(); ++i) {
    if (i == dir.size() || dir[i] == '/') {
      if (!partial.empty()) mkdir(partial.c_str(), 0755);  // EEXIST is fine
    }
    if (i < dir.size()) partial += dir[i];
  }
  struct stat st;
  return stat(dir.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

std::string default_dir() {
  if (const char* d = std::getenv("CLGEMM_CACHE_DIR")) {
    if (std::string(d) == "off" || std::string(d) == "0") return "";
    if (*d) return d;
  }
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return std::string(x) + "/clgemm";
  if (const char* h = std::getenv("HOME"); h && *h) return std::string(h) + "/.cache/clgemm";
  return "";
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
  if (!dir_.empty() && !make_dirs(dir_)) dir_.clear();
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
  char buf[33];
  std::snprintf(buf, sizeof buf, "%016llx%016llx", (unsigned long long)h1, (unsigned long long)h2);
  return buf;
}

std::optional<std::vector<unsigned char>> DiskCache::load(const std::string& key) const {
  if (!enabled()) return std::nullopt;
  std::ifstream in(path(key), std::ios::binary);
  if (!in) return std::nullopt;
  char magic[8];
  uint64_t size = 0, sum = 0;
  in.read(magic, 8);
  in.read(reinterpret_cast<char*>(&size), sizeof size);
  in.read(reinterpret_cast<char*>(&sum), sizeof sum);
  bool ok = bool(in) && std::memcmp(magic, kMagic, 8) == 0 && size > 0 && size < (uint64_t(1) << 32);
  std::vector<unsigned char> data;
  if (ok) {
    data.resize(size);
    in.read(reinterpret_cast<char*>(data.data()), std::streamsize(size));
    ok = in.gcount() == std::streamsize(size) && in.peek() == std::char_traits<char>::eof() &&
         fnv1a64(data.data(), data.size()) == sum;
  }
  if (!ok) {
    remove(key);  // truncated, garbage, or from another format: rebuild it
    return std::nullopt;
  }
  return data;
}

void DiskCache::store(const std::string& key, const std::vector<unsigned char>& binary) const {
  if (!enabled() || binary.empty()) return;
  static std::atomic<unsigned> counter{0};
  std::random_device rd;
  const std::string tmp = dir_ + "/." + key + "." + std::to_string(getpid()) + "." +
                          std::to_string(counter++) + "." + std::to_string(rd()) + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) return;
    const uint64_t size = binary.size(), sum = fnv1a64(binary.data(), binary.size());
    out.write(kMagic, 8);
    out.write(reinterpret_cast<const char*>(&size), sizeof size);
    out.write(reinterpret_cast<const char*>(&sum), sizeof sum);
    out.write(reinterpret_cast<const char*>(binary.data()), std::streamsize(binary.size()));
    out.flush();
    if (!out) {
      std::remove(tmp.c_str());
      return;
    }
  }
  // rename() replaces atomically: a concurrent reader sees the old entry or the new one, whole.
  if (std::rename(tmp.c_str(), path(key).c_str()) != 0) std::remove(tmp.c_str());
}

void DiskCache::remove(const std::string& key) const {
  if (enabled()) std::remove(path(key).c_str());
}

}  // namespace clgemm::detail
