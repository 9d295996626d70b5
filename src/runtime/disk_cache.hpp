// disk_cache.hpp — compiled program binaries on disk, so a new process skips the OpenCL compiler.
//
// Where: $CLGEMM_CACHE_DIR, else $XDG_CACHE_HOME/clgemm, else ~/.cache/clgemm
// ($CLGEMM_CACHE_DIR=off disables it). An entry's name is a 128-bit hash of everything that
// determines the binary: a format version, platform, device, driver, device version, build
// options and source text. An entry is written to a temporary file in the same folder and renamed
// into place, so readers see either no entry or a whole one, whatever other processes do or
// however this one dies. Each entry carries its length and a checksum; an entry that is short,
// damaged or rejected by the driver is deleted and rebuilt.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace clgemm::detail {

class DiskCache {
 public:
  // Reads the location from the environment; an unusable location disables the cache.
  DiskCache();
  explicit DiskCache(std::string dir);  // for tests

  bool enabled() const { return !dir_.empty(); }
  const std::string& dir() const { return dir_; }

  // File name (without folder) for a key made of these parts.
  static std::string key(const std::vector<std::string>& parts);

  // The stored binary, if an intact entry exists. A damaged entry is removed.
  std::optional<std::vector<unsigned char>> load(const std::string& key) const;
  // Stores atomically; failures (full disk, read-only folder) are ignored: the cache is an
  // optimisation, never a reason for a GEMM to fail.
  void store(const std::string& key, const std::vector<unsigned char>& binary) const;
  // Deletes an entry (used when the driver rejects a binary that passed the checksum).
  void remove(const std::string& key) const;

  std::string path(const std::string& key) const { return dir_ + "/" + key + ".clbin"; }

 private:
  std::string dir_;
};

uint64_t fnv1a64(const void* data, size_t size, uint64_t seed = 0xcbf29ce484222325ull);

}  // namespace clgemm::detail
