// disk_cache.hpp — compiled program binaries on disk, so a new process skips the OpenCL compiler.
//
// Where: $CLGEMM_CACHE_DIR, else $XDG_CACHE_HOME/clgemm, else ~/.cache/clgemm
// ($CLGEMM_CACHE_DIR=off disables it). An entry's name is a 128-bit hash of everything that
// determines the binary: a format version, platform, device, driver, device version, build
// options and source text.
//
// A binary loaded from here runs as clgemm's kernel, so the cache trusts only what its user could
// have written:
// - folders it creates are mode 0700; the cache folder must be a folder owned by the user and not
//   writable by group or others, else the cache is off for the process (programs are built from
//   source, nothing is stored) with one warning that names the folder, says why and what to do.
//   A symbolic link as the folder's last component is judged by its target; the folders above are
//   not checked (whoever can replace them could also replace the user's home);
// - entries are opened with O_NOFOLLOW and O_NONBLOCK and must be regular files owned by the user,
//   not writable by group or others;
// - an entry records the key it was stored under, its length and a checksum, and holds at most
//   kMaxBinary bytes; the length recorded is checked against the file's before anything is
//   allocated.
// An entry that fails a check (a link, FIFO or device, another owner, a loose mode, the wrong key,
// truncated, too large, damaged) is ignored and the program rebuilt and stored again, with one
// warning per folder and process. A refused entry is deleted when it is the user's own regular
// file, a link is unlinked itself; anything else stays (the new entry is renamed over its name).
//
// Entries are written to a temporary created exclusively (mode 0600, unpredictable name) in the
// same folder and renamed into place, so readers see either no entry or a whole one, whatever
// other processes do or however this one dies.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace clgemm::detail {

class DiskCache {
 public:
  // Reads the location from the environment; an unusable or untrusted location disables the cache.
  DiskCache();
  explicit DiskCache(std::string dir);  // for tests

  bool enabled() const { return !dir_.empty(); }
  const std::string& dir() const { return dir_; }

  // File name (without folder and extension) for a key made of these parts: 32 hex digits.
  static std::string key(const std::vector<std::string>& parts);

  // The stored binary, if a trusted, intact entry exists under `key`.
  std::optional<std::vector<unsigned char>> load(const std::string& key) const;
  // Stores atomically; failures (full disk, read-only folder) are ignored: the cache is an
  // optimisation, never a reason for a GEMM to fail.
  void store(const std::string& key, const std::vector<unsigned char>& binary) const;
  // Deletes an entry (used when the driver rejects a binary that passed the checks).
  void remove(const std::string& key) const;

  std::string path(const std::string& key) const { return dir_ + "/" + key + ".clbin"; }

  // An entry's layout: 8 bytes of magic, the 32 characters of its key, the binary's length and
  // its FNV-1a checksum (64 bits each, host order), then the binary.
  static constexpr size_t kKeyOffset = 8;
  static constexpr size_t kSizeOffset = 40;
  static constexpr size_t kHeaderSize = 56;
  // PoCL's binaries are about 250 KB and NVIDIA's PTX a few MB: 256 MiB is far above any real
  // entry and keeps a damaged or hostile one from taking much memory.
  static constexpr uint64_t kMaxBinary = uint64_t(256) << 20;

 private:
  std::string dir_;
};

uint64_t fnv1a64(const void* data, size_t size, uint64_t seed = 0xcbf29ce484222325ull);

}  // namespace clgemm::detail
