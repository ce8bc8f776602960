// TempTraceFile: one owner of the trace files gpuscope makes for a while: a unique private folder in the
// temporary folder, the file named as asked, and everything in the folder gone with its owner.
#include "core/open/temp_trace_file.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <utility>

namespace gpuscope {
namespace {

namespace fs = std::filesystem;

// Writes PATH and what SQLite and the trace writer leave beside a trace.
void writeWithSideFiles(const std::string& path) {
  for (const char* suffix : {"", "-journal", "-wal", "-shm", ".gpu-lane"}) std::ofstream(path + suffix) << "x";
}

// Sets TMPDIR for one test and puts it back.
class TmpdirForTest {
 public:
  explicit TmpdirForTest(const std::string& value) {
    if (const char* old = std::getenv("TMPDIR")) old_ = old;
    setenv("TMPDIR", value.c_str(), 1);
  }
  ~TmpdirForTest() {
    if (old_)
      setenv("TMPDIR", old_->c_str(), 1);
    else
      unsetenv("TMPDIR");
  }

 private:
  std::optional<std::string> old_;
};

TEST(TempTraceFile, NamesTheFileInAFolderOfItsOwnAndRemovesBothWithSideFiles) {
  std::string folder, path;
  {
    TempTraceFile file("rank0+rank1.sqlite");
    folder = file.folder();
    path = file.path();
    EXPECT_EQ(fs::path(path).filename(), "rank0+rank1.sqlite");
    EXPECT_EQ(fs::path(path).parent_path(), fs::path(folder));
    EXPECT_EQ(fs::path(folder).filename().string().rfind("gpuscope-", 0), 0u) << folder;
    EXPECT_TRUE(fs::is_directory(folder));
    EXPECT_FALSE(fs::exists(path)) << "the file is the caller's to write";
    writeWithSideFiles(path);
  }
  EXPECT_FALSE(fs::exists(path));
  EXPECT_FALSE(fs::exists(path + "-journal"));
  EXPECT_FALSE(fs::exists(path + "-wal"));
  EXPECT_FALSE(fs::exists(path + ".gpu-lane"));
  EXPECT_FALSE(fs::exists(folder));
}

TEST(TempTraceFile, TwoOfOneNameNeverShareAFile) {
  TempTraceFile first("merged.sqlite");
  TempTraceFile second("merged.sqlite");
  EXPECT_NE(first.path(), second.path());
  EXPECT_NE(first.folder(), second.folder());
}

TEST(TempTraceFile, LivesInTheTemporaryFolderTheEnvironmentNames) {
  fs::path base = fs::path(::testing::TempDir()) / "temp_trace_file_tmpdir";
  fs::create_directories(base);
  {
    TmpdirForTest tmpdir(base.string());
    TempTraceFile file;
    EXPECT_EQ(fs::path(file.folder()).parent_path(), base);
    EXPECT_EQ(fs::path(file.path()).filename(), "trace.sqlite");
  }
  EXPECT_TRUE(fs::is_empty(base));
  fs::remove_all(base);
}

TEST(TempTraceFile, AMoveHandsTheFileOverAndAnAssignmentDropsTheOldOne) {
  TempTraceFile first("first.sqlite");
  writeWithSideFiles(first.path());
  std::string firstPath = first.path();
  TempTraceFile moved(std::move(first));
  EXPECT_EQ(moved.path(), firstPath);
  { TempTraceFile gone = std::move(first); }  // the moved-from owner removes nothing
  EXPECT_TRUE(fs::exists(firstPath));

  TempTraceFile second("second.sqlite");
  std::string secondPath = second.path();
  moved = std::move(second);
  EXPECT_FALSE(fs::exists(firstPath));
  EXPECT_FALSE(fs::exists(fs::path(firstPath).parent_path()));
  EXPECT_EQ(moved.path(), secondPath);
}

}  // namespace
}  // namespace gpuscope
