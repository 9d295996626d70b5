// file_input_test.cpp — files the library reads and writes besides the program cache: the reader
// of regular files and the atomic replacement under them, the tuning database and the kernel
// folder, faced with FIFOs, devices, links, oversized files and a link planted at a temporary name.
#include <clgemm/error.hpp>

#include "runtime/kernel_sources.hpp"
#include "runtime/regular_file.hpp"
#include "database/database.hpp"
#include "test_support.hpp"

#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>

namespace clgemm::test {
namespace {

namespace fs = std::filesystem;
using detail::FileIssue;
using detail::Links;

void write_text(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// The issue `read` raised, if any.
std::optional<FileIssue> issue_of(const std::function<void()>& read) {
  try {
    read();
  } catch (const detail::FileError& e) {
    return e.issue();
  }
  return std::nullopt;
}

detail::TuningDatabase one_entry_database() {
  detail::TuningEntry e;
  e.device = "file input test", e.vendor = "v", e.device_type = "CPU";
  e.shape_class = "small", e.kernel = "xgemm", e.params = {{"MWG", 16}};
  e.shape = {64, 64, 64}, e.gflops = 1, e.date = "2026-01-01";
  detail::TuningDatabase db;
  db.entries.push_back(e);
  return db;
}

// ---- the reader and the replacement ----

TEST(FileInput, ReadsRegularFilesAndLinksOnlyWhereAllowed) {
  TempDir tmp("file-input");
  write_text(tmp / "file", "some text");
  fs::create_symlink(tmp / "file", tmp / "link");
  EXPECT_EQ(detail::read_regular_file(tmp / "file", 100, Links::Refuse), "some text");
  EXPECT_EQ(detail::read_regular_file(tmp / "link", 100, Links::Follow), "some text");
  EXPECT_EQ(issue_of([&] { detail::read_regular_file(tmp / "link", 100, Links::Refuse); }), FileIssue::Symlink);
  EXPECT_EQ(issue_of([&] { detail::read_regular_file(tmp / "absent", 100, Links::Follow); }), FileIssue::Missing);
  EXPECT_EQ(issue_of([&] { detail::read_regular_file(tmp / "file", 9, Links::Follow); }), std::nullopt);
  EXPECT_EQ(issue_of([&] { detail::read_regular_file(tmp / "file", 8, Links::Follow); }), FileIssue::TooLarge);
}

TEST(FileInput, FifosDevicesAndFoldersAreRefusedAtOnce) {
  TempDir tmp("file-input");
  ASSERT_EQ(mkfifo((tmp / "fifo").c_str(), 0600), 0);
  fs::create_symlink("/dev/zero", tmp / "zero");
  for (const std::string& path : {tmp / "fifo", tmp / "zero", std::string("/dev/null"), tmp.str()}) {
    SCOPED_TRACE(path);
    const auto read = [path] { detail::read_regular_file(path, 1 << 20, Links::Follow); };
    ASSERT_BOUNDED(issue_of(read) == FileIssue::NotRegular);
    EXPECT_EQ(issue_of(read), FileIssue::NotRegular);
  }
  try {
    detail::read_regular_file(tmp / "fifo", 100, Links::Follow);
  } catch (const detail::FileError& e) {
    EXPECT_NE(std::string(e.what()).find("is a FIFO, not a regular file"), std::string::npos) << e.what();
  }
}

TEST(FileInput, ReplaceWritesANewFileAndNeverThroughALink) {
  TempDir tmp("file-input");
  write_text(tmp / "victim", "victim");
  fs::create_symlink(tmp / "victim", tmp / "target");
  const std::string text = "new content";
  detail::replace_file(tmp / "target", {{text.data(), text.size()}}, 0640, false);
  EXPECT_FALSE(fs::is_symlink(tmp / "target")) << "the link is replaced, not written through";
  EXPECT_EQ(read_text(tmp / "target"), text);
  EXPECT_EQ(read_text(tmp / "victim"), "victim");
  struct stat st {};
  stat((tmp / "target").c_str(), &st);
  EXPECT_EQ(st.st_mode & 07777, 0640u);
  EXPECT_EQ(tmp.names().size(), 2u) << "no temporary left";
}

TEST(FileInput, FailedReplaceLeavesNoTemporary) {
  TempDir tmp("file-input");
  fs::create_directory(tmp / "folder");
  const std::string text = "x";
  EXPECT_EQ(issue_of([&] { detail::replace_file(tmp / "folder", {{text.data(), 1}}, 0600, false); }),
            FileIssue::Failed);
  EXPECT_EQ(tmp.names(), std::vector<std::string>{"folder"});
  EXPECT_EQ(issue_of([&] { detail::replace_file(tmp / "absent/file", {{text.data(), 1}}, 0600, false); }),
            FileIssue::Failed);
}

// ---- the tuning database ----

TEST(TuningDatabaseFiles, FifoOrDeviceIsIgnoredWithAWarning) {
  TempDir tmp("file-input");
  ASSERT_EQ(mkfifo((tmp / "fifo.json").c_str(), 0600), 0);
  fs::create_symlink("/dev/zero", tmp / "zero.json");
  for (const std::string& path : {tmp / "fifo.json", tmp / "zero.json"}) {
    SCOPED_TRACE(path);
    ASSERT_BOUNDED(detail::load_database(path, nullptr).entries.empty());
    std::string warning;
    EXPECT_TRUE(detail::load_database(path, &warning).entries.empty());
    EXPECT_NE(warning.find("ignoring the tuning database " + path), std::string::npos) << warning;
    EXPECT_NE(warning.find("not a regular file"), std::string::npos) << warning;
  }
}

TEST(TuningDatabaseFiles, OversizedFileIsIgnoredUnread) {
  TempDir tmp("file-input");
  const std::string path = tmp / "tuning.json";
  write_text(path, "{}");
  fs::resize_file(path, (uint64_t(64) << 20) + 1);  // sparse: no disk space taken
  std::string warning;
  EXPECT_TRUE(detail::load_database(path, &warning).entries.empty());
  EXPECT_NE(warning.find("more than"), std::string::npos) << warning;
}

TEST(TuningDatabaseFiles, ALinkToARegularFileIsRead) {
  TempDir tmp("file-input");
  detail::save_database(one_entry_database(), tmp / "real.json");
  fs::create_symlink(tmp / "real.json", tmp / "tuning.json");
  std::string warning;
  EXPECT_EQ(detail::load_database(tmp / "tuning.json", &warning).entries.size(), 1u);
  EXPECT_EQ(warning, "");
}

// `clgemm tune` once wrote to "<path>.tmp.<pid>", a name anyone could predict and plant a link at.
TEST(TuningDatabaseFiles, SaveNeverWritesThroughAPlantedLink) {
  TempDir tmp("file-input");
  const std::string path = tmp / "tuning.json";
  write_text(tmp / "victim", "victim");
  for (const std::string& name : {path + ".tmp." + std::to_string(getpid()), tmp / ".tuning.json.tmp"})
    fs::create_symlink(tmp / "victim", name);
  detail::save_database(one_entry_database(), path);
  EXPECT_EQ(read_text(tmp / "victim"), "victim");
  EXPECT_EQ(detail::load_database(path, nullptr).entries.size(), 1u);
  EXPECT_EQ(tmp.names().size(), 4u) << "victim, two links, the database: no temporary left";
}

TEST(TuningDatabaseFiles, FailedSaveNamesThePathAndLeavesNoTemporary) {
  TempDir tmp("file-input");
  fs::create_directory(tmp / "tuning.json");  // a folder where the file should go
  try {
    detail::save_database(one_entry_database(), tmp / "tuning.json");
    ADD_FAILURE() << "saved over a folder";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::InvalidArgument);
    EXPECT_NE(std::string(e.what()).find(tmp / "tuning.json"), std::string::npos) << e.what();
  }
  EXPECT_EQ(tmp.names(), std::vector<std::string>{"tuning.json"});
}

// ---- the kernel folder ----

TEST(KernelSourceFiles, FifoOrDeviceInTheKernelFolderIsAnError) {
  TempDir tmp("file-input");
  fs::create_directory(tmp / "util");
  ScopedEnv env("CLGEMM_KERNEL_DIR", tmp.str());
  const std::string fifo = "util/fifo.cl", zero = "util/zero.cl";
  ASSERT_EQ(mkfifo((tmp / fifo).c_str(), 0600), 0);
  fs::create_symlink("/dev/zero", tmp / zero);
  for (const std::string& name : {fifo, zero}) {
    SCOPED_TRACE(name);
    const auto status_of = [name] {
      try {
        detail::kernel_source(name);
      } catch (const Error& e) {
        return e.status();
      }
      return Status::Success;
    };
    ASSERT_BOUNDED(status_of() == Status::InvalidArgument);
    try {
      detail::kernel_source(name);
      ADD_FAILURE() << "read a kernel from " << name;
    } catch (const Error& e) {
      EXPECT_EQ(e.status(), Status::InvalidArgument);
      EXPECT_NE(std::string(e.what()).find(name), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("not a regular file"), std::string::npos) << e.what();
    }
  }
}

TEST(KernelSourceFiles, ALinkToARegularFileIsRead) {
  TempDir tmp("file-input");
  fs::create_directory(tmp / "util");
  write_text(tmp / "work.cl", "kernel void k() {}\n");
  fs::create_symlink(tmp / "work.cl", tmp / "util/linked.cl");
  ScopedEnv env("CLGEMM_KERNEL_DIR", tmp.str());
  EXPECT_EQ(detail::kernel_source("util/linked.cl"), "kernel void k() {}\n");
}

}  // namespace
}  // namespace clgemm::test
