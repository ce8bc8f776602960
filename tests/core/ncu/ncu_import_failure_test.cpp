// import-ncu that fails after it began writing its copy leaves no half-written output behind, and an
// OUT that existed before is left as it was.
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "core/error.h"
#include "core/ncu/ncu_import.h"
#include "tests/core/testing/test_files.h"

namespace gpuscope {
namespace {

namespace fs = std::filesystem;
using testing::processTempPath;

TEST(NcuImportFailure, LeavesNoHalfWrittenOutput) {
  const std::string fixtures = GPUSCOPE_FIXTURES;
  const std::string trace = processTempPath("gpuscope_ncu_fail", "trace.sqlite");
  const std::string out = processTempPath("gpuscope_ncu_fail", "out.sqlite");
  fs::copy_file(fixtures + "/nsys/transpose.sqlite", trace, fs::copy_options::overwrite_existing);
  fs::permissions(trace, fs::perms::owner_read | fs::perms::owner_write, fs::perm_options::add);
  // A metrics table another program wrote: the import refuses it only once the copy is made.
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(trace.c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db, "CREATE TABLE GPUSCOPE_KERNEL_METRICS (x)", nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(db);

  EXPECT_THROW(importNcuMetrics({trace, fixtures + "/nsys/transpose_ncu_metrics.csv", out, false}), TraceError);
  EXPECT_FALSE(fs::exists(out));
  EXPECT_FALSE(fs::exists(out + ".partial"));

  std::ofstream(out) << "keep me";
  EXPECT_THROW(importNcuMetrics({trace, fixtures + "/nsys/transpose_ncu_metrics.csv", out, false}), TraceError);
  std::ifstream kept(out);
  std::string text((std::istreambuf_iterator<char>(kept)), {});
  EXPECT_EQ(text, "keep me");
  fs::remove(trace);
  fs::remove(out);
}

}  // namespace
}  // namespace gpuscope
