// TraceWriter::addTo: rows added to a finished trace file of another tool (an nsys export) through the same
// schema-keyed writer, with the file's own strings reused, all at once or not at all.
#include <gtest/gtest.h>

#include <filesystem>

#include "core/db/sqlite_database.h"
#include "core/error.h"
#include "core/schema/trace_schema.h"
#include "core/write/trace_writer.h"
#include "tests/core/testing/test_files.h"

namespace gpuscope {
namespace {

// A copy of loader2.sqlite, an nsys export, for a test to add to.
std::string exportCopy(const std::string& name) {
  std::string path = testing::processTempPath("trace_writer_append", name);
  std::filesystem::copy_file(testing::fixturePath("nsys/loader2.sqlite"), path,
                             std::filesystem::copy_options::overwrite_existing);
  return path;
}

int64_t countOf(const std::string& path, const std::string& sql) {
  Database db = Database::openReadOnly(path);
  auto row = db.prepare(sql);
  return row.step() ? row.int64(0) : -1;
}

TEST(TraceWriterAppend, RowsJoinAnExportWithItsOwnStringsReused) {
  std::string path = exportCopy("added.sqlite");
  int64_t strings = countOf(path, "SELECT count(*) FROM StringIds");
  int64_t largest = countOf(path, "SELECT max(id) FROM StringIds");
  std::string known;
  {
    Database db = Database::openReadOnly(path);
    auto row = db.prepare("SELECT value FROM StringIds WHERE id = 5");
    ASSERT_TRUE(row.step());
    known = std::string(row.text(0));
  }
  std::unique_ptr<TraceWriter> writer = TraceWriter::addTo(path);
  int rows = writer->tableRows(table::kRanks, {"rank", "hwFirst", "hwLast", "correlationIdOffset", "timeShiftNs"});
  writer->addRow(rows, {int64_t{3}, int64_t{0}, int64_t{0}, int64_t{0}, int64_t{0}});
  int threads = writer->tableRows(table::kThreadNames, {"nameId", "globalTid"});
  writer->addRow(threads, {std::string_view(known), int64_t{77}});
  writer->addRow(threads, {std::string_view("a thread name no one used"), int64_t{78}});
  writer->finish();
  EXPECT_EQ(countOf(path, "SELECT rank FROM GPUSCOPE_RANKS"), 3);
  // The text the export had keeps its id; the new one takes the id after the largest.
  EXPECT_EQ(countOf(path, "SELECT nameId FROM ThreadNames WHERE globalTid = 77"), 5);
  EXPECT_EQ(countOf(path, "SELECT nameId FROM ThreadNames WHERE globalTid = 78"), largest + 1);
  EXPECT_EQ(countOf(path, "SELECT count(*) FROM StringIds"), strings + 1);
  // The export's own metadata is left as nsys wrote it.
  EXPECT_EQ(countOf(path, "SELECT count(*) FROM META_DATA_EXPORT WHERE value = 'gpuscope'"), 0);
  std::filesystem::remove(path);
}

TEST(TraceWriterAppend, AWriterThatDoesNotFinishAddsNothing) {
  std::string path = exportCopy("unfinished.sqlite");
  {
    std::unique_ptr<TraceWriter> writer = TraceWriter::addTo(path);
    int rows = writer->tableRows(table::kDevicePeaks, {"deviceId", "kind", "value"});
    writer->addRow(rows, {int64_t{0}, std::string_view("dram"), 4.8e12});
  }
  Database db = Database::openReadOnly(path);
  EXPECT_FALSE(db.hasTable(table::kDevicePeaks) && countOf(path, "SELECT count(*) FROM GPUSCOPE_DEVICE_PEAKS") > 0);
  std::filesystem::remove(path);
}

TEST(TraceWriterAppend, AFileThatIsNoTraceIsRefusedInOneSentence) {
  std::string path = testing::processTempPath("trace_writer_append", "not_a_trace.sqlite");
  {
    Database db = Database::create(path);
    db.exec("CREATE TABLE t (x)");
  }
  EXPECT_THROW(TraceWriter::addTo(path), TraceError);
  EXPECT_THROW(TraceWriter::addTo(path + ".missing"), TraceError);
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace gpuscope
