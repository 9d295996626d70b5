// regular_file.hpp — reading and replacing files that may be hostile or broken: a FIFO (whose
// open() waits for a writer forever), a device (endless bytes), a symbolic link planted at a name
// the library writes, a file far larger than any real one.
//
// Reading opens with O_NONBLOCK, so a FIFO cannot block, then requires a regular file (fstat) of at
// most a size the caller gives. Writing goes to a temporary in the target's folder, created
// exclusively (O_EXCL) under an unpredictable name, then renamed over the target, so a link planted
// at any name is never followed and readers see the old file or the whole new one.
#pragma once

#include <sys/stat.h>
#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace clgemm::detail {

enum class FileIssue {
  Missing,     // no such file: often a normal case (no cache entry, no database yet)
  Symlink,     // a symbolic link where the caller refuses them
  NotRegular,  // a FIFO, device, socket or folder
  TooLarge,    // more bytes than the caller's cap
  Failed,      // any other failure to open, read or write (permissions, I/O, a file that changed)
};

class FileError : public std::runtime_error {
 public:
  FileError(FileIssue issue, const std::string& message) : std::runtime_error(message), issue_(issue) {}
  FileIssue issue() const { return issue_; }

 private:
  FileIssue issue_;
};

// Whether the last component of a path may be a symbolic link (folders above it always may).
enum class Links { Follow, Refuse };

// A regular file open for reading. The constructor throws FileError (the message names the path).
class RegularFile {
 public:
  RegularFile(const std::string& path, Links links);
  ~RegularFile();
  RegularFile(const RegularFile&) = delete;
  RegularFile& operator=(const RegularFile&) = delete;

  const std::string& path() const { return path_; }
  // What fstat said after opening: owner, mode, size of the file actually open.
  const struct stat& info() const { return info_; }
  uint64_t size() const { return uint64_t(info_.st_size); }

  // Reads exactly `bytes` bytes at the current position; throws FileError(Failed) on a short read.
  void read_exact(void* out, size_t bytes);
  // True when no byte follows the current position (the file did not grow after fstat).
  bool at_end();

 private:
  std::string path_;
  int fd_ = -1;
  struct stat info_ {};
};

// The whole content of the regular file at `path`; FileError(TooLarge) beyond `max_bytes`.
std::string read_regular_file(const std::string& path, size_t max_bytes, Links links);

// One piece of what replace_file writes.
struct ByteRange {
  const void* data;
  size_t size;
};

// Makes `path` a new file of mode `mode` holding `pieces` in order, through an exclusive temporary
// renamed into place. `sync` flushes the data to disk before the rename, so that a crash leaves the
// old file rather than an empty new one. Throws FileError(Failed) naming the path; no temporary
// is left behind.
void replace_file(const std::string& path, const std::vector<ByteRange>& pieces, mode_t mode, bool sync);

}  // namespace clgemm::detail
