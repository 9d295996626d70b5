// regular_file.cpp — regular files only, read within a size cap; replaced through exclusive
// temporaries.
#include "runtime/regular_file.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace clgemm::detail {

namespace {

std::string kind_of(mode_t mode) {
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISDIR(mode)) return "a folder";
  if (S_ISLNK(mode)) return "a symbolic link";
  return "not a plain file";
}

FileError not_regular(const std::string& path, mode_t mode) {
  return FileError(FileIssue::NotRegular, path + " is " + kind_of(mode) + ", not a regular file");
}

FileError from_errno(const std::string& path, const std::string& doing, int err) {
  if (err == ENOENT) return FileError(FileIssue::Missing, path + " does not exist");
  return FileError(FileIssue::Failed, "cannot " + doing + " " + path + ": " + std::strerror(err));
}

// Looks before opening, so that the usual case of a device or FIFO is refused without an open()
// (which acts on some devices, such as tapes). The fstat after opening is the check that counts:
// the name may change in between.
void check_before_open(const std::string& path, Links links) {
  struct stat st {};
  const int rc = links == Links::Refuse ? lstat(path.c_str(), &st) : stat(path.c_str(), &st);
  if (rc != 0) throw from_errno(path, "open", errno);
  if (S_ISLNK(st.st_mode)) throw FileError(FileIssue::Symlink, path + " is a symbolic link");
  if (!S_ISREG(st.st_mode)) throw not_regular(path, st.st_mode);
}

bool write_all(int fd, const void* data, size_t size) {
  const char* p = static_cast<const char*>(data);
  while (size > 0) {
    const ssize_t n = ::write(fd, p, size);
    if (n < 0 && errno == EINTR) continue;
    if (n == 0) errno = EIO;  // no progress and no error: report one rather than loop
    if (n <= 0) return false;
    p += n;
    size -= size_t(n);
  }
  return true;
}

// "dir/.name.tmp.XXXXXX" for "dir/name": hidden, in the same folder (rename() cannot cross file
// systems), with six random characters that mkostemp fills in.
std::string temp_template(const std::string& path) {
  const size_t slash = path.rfind('/');
  const std::string folder = slash == std::string::npos ? "" : path.substr(0, slash + 1);
  const std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  return folder + "." + name + ".tmp.XXXXXX";
}

}  // namespace

RegularFile::RegularFile(const std::string& path, Links links) : path_(path) {
  check_before_open(path, links);
  // O_NONBLOCK: a FIFO swapped in after the check still cannot block open() or read().
  const int flags = O_RDONLY | O_NONBLOCK | O_CLOEXEC | (links == Links::Refuse ? O_NOFOLLOW : 0);
  fd_ = ::open(path.c_str(), flags);
  if (fd_ < 0) {
    if (errno == ELOOP && links == Links::Refuse) throw FileError(FileIssue::Symlink, path + " is a symbolic link");
    throw from_errno(path, "open", errno);
  }
  if (fstat(fd_, &info_) != 0) {
    const int err = errno;
    ::close(fd_);
    throw from_errno(path, "inspect", err);
  }
  if (!S_ISREG(info_.st_mode)) {
    ::close(fd_);
    throw not_regular(path, info_.st_mode);
  }
}

RegularFile::~RegularFile() { ::close(fd_); }

void RegularFile::read_exact(void* out, size_t bytes) {
  char* p = static_cast<char*>(out);
  size_t done = 0;
  while (done < bytes) {
    const ssize_t n = ::read(fd_, p + done, bytes - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw from_errno(path_, "read", errno);
    if (n == 0)
      throw FileError(FileIssue::Failed, path_ + " ended after " + std::to_string(done) + " of the " +
                                             std::to_string(bytes) + " bytes expected");
    done += size_t(n);
  }
}

bool RegularFile::at_end() {
  char byte;
  for (;;) {
    const ssize_t n = ::read(fd_, &byte, 1);
    if (n < 0 && errno == EINTR) continue;
    return n == 0;
  }
}

std::string read_regular_file(const std::string& path, size_t max_bytes, Links links) {
  RegularFile file(path, links);
  if (file.size() > max_bytes)
    throw FileError(FileIssue::TooLarge, path + " holds " + std::to_string(file.size()) + " bytes, more than the " +
                                             std::to_string(max_bytes) + " accepted");
  std::string text(size_t(file.size()), '\0');
  file.read_exact(text.data(), text.size());
  if (!file.at_end()) throw FileError(FileIssue::Failed, path + " changed while it was read");
  return text;
}

void replace_file(const std::string& path, const std::vector<ByteRange>& pieces, mode_t mode, bool sync) {
  std::string tmp = temp_template(path);
  // mkostemp opens with O_CREAT | O_EXCL, mode 0600: it never opens an existing file or follows a
  // link, and its random name is not known in advance to anyone who would plant one.
  const int fd = mkostemp(tmp.data(), O_CLOEXEC);
  if (fd < 0)
    throw FileError(FileIssue::Failed,
                    "cannot create a temporary file to replace " + path + ": " + std::strerror(errno));
  bool ok = fchmod(fd, mode) == 0;
  for (const auto& piece : pieces) ok = ok && write_all(fd, piece.data, piece.size);
  if (ok && sync) ok = fsync(fd) == 0;
  const int err = ok ? 0 : errno;
  ok = ::close(fd) == 0 && ok;
  // rename() replaces the name atomically: a concurrent reader sees the old file or the new one.
  if (ok && std::rename(tmp.c_str(), path.c_str()) == 0) return;
  const int final_err = err ? err : errno;
  ::unlink(tmp.c_str());
  throw FileError(FileIssue::Failed, "cannot write " + path + ": " + std::strerror(final_err));
}

}  // namespace clgemm::detail
