// forEachRow: every row in table order with its values and types, an exception from the callback
// stopping the scan and reaching the caller unchanged, and the row function gone afterwards.
#include "core/db/row_scan.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

#include "core/error.h"
#include "tests/core/testing/test_files.h"

namespace gpuscope {
namespace {

std::string rowScanTable() {
  std::string path = testing::processTempPath("row_scan", "values.sqlite");
  std::filesystem::remove(path);
  Database db = Database::create(path);
  db.exec("CREATE TABLE EVENTS (start INTEGER, name TEXT, weight REAL, payload BLOB)");
  db.exec("INSERT INTO EVENTS VALUES (30, 'a', 1.5, x'00'), (10, NULL, NULL, NULL), (20, 'text', 2.0, x'01')");
  return path;
}

struct SeenRow {
  int64_t rowid;
  Statement::IntegerRead start;
  std::string name;
  std::vector<std::string> types;
};

TEST(RowScan, HandsOverEveryRowInTableOrderWithItsValuesAndTypes) {
  Database db = Database::openReadOnly(rowScanTable(), Threading::SingleThread);
  std::vector<SeenRow> seen;
  forEachRow(db, "rowid, start, name, weight, payload", "EVENTS", [&](const RowValues& row) {
    ASSERT_EQ(row.size(), 5);
    SeenRow s{row.readInteger(0).value, row.readInteger(1), std::string(row.text(2)), {}};
    for (int c = 0; c < row.size(); ++c) s.types.emplace_back(row.typeName(c));
    seen.push_back(s);
  });
  ASSERT_EQ(seen.size(), 3u);
  EXPECT_EQ(seen[0].rowid, 1);
  EXPECT_EQ(seen[1].rowid, 2);
  EXPECT_EQ(seen[2].rowid, 3);
  EXPECT_EQ(seen[0].start.value, 30);
  EXPECT_TRUE(seen[0].start.integer);
  EXPECT_EQ(seen[1].name, "");
  EXPECT_EQ(seen[2].name, "text");
  EXPECT_EQ(seen[0].types, (std::vector<std::string>{"integer", "integer", "text", "real", "blob"}));
  EXPECT_EQ(seen[1].types, (std::vector<std::string>{"integer", "integer", "null", "null", "null"}));
}

TEST(RowScan, AnExceptionFromTheCallbackStopsTheScanAndReachesTheCaller) {
  Database db = Database::openReadOnly(rowScanTable(), Threading::SingleThread);
  int calls = 0;
  auto failOnSecond = [&](const RowValues&) {
    if (++calls == 2) throw std::out_of_range("row two");
  };
  EXPECT_THROW(forEachRow(db, "start", "EVENTS", failOnSecond), std::out_of_range);
  EXPECT_EQ(calls, 2);
  // The connection is usable afterwards, and the row function is no longer defined on it.
  EXPECT_TRUE(db.hasTable("EVENTS"));
  EXPECT_THROW(db.prepare("SELECT gpuscope_row(1)"), TraceError);
}

TEST(RowScan, AMissingTableIsATraceError) {
  Database db = Database::openReadOnly(rowScanTable(), Threading::SingleThread);
  EXPECT_THROW(forEachRow(db, "start", "NO_SUCH_TABLE", [](const RowValues&) {}), TraceError);
}

}  // namespace
}  // namespace gpuscope
