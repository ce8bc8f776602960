// The reader's filters (process, thread, time windows) against SQL counts on nsys's export, and files that
// lack the sampling tables.
#include <gtest/gtest.h>

#include <filesystem>

#include "core/db/sqlite_database.h"
#include "core/error.h"
#include "core/model/global_id.h"
#include "core/samples/sample_reader.h"
#include "core/samples/thread_states.h"
#include "samples_fixtures.h"

namespace gpuscope {
namespace {

int64_t sqlCount(const Database& db, const std::string& where) {
  auto row = db.prepare("SELECT count(*) FROM COMPOSITE_EVENTS WHERE globalTid IS NOT NULL AND " + where);
  EXPECT_TRUE(row.step());
  return row.int64(0);
}

class SampleFilters : public ::testing::Test {
 protected:
  Database db = Database::openReadOnly(testing::samplingFixture("loader2_samp"));
  // The thread with the most samples.
  int64_t busiestThread() {
    auto row = db.prepare("SELECT globalTid FROM COMPOSITE_EVENTS GROUP BY globalTid ORDER BY count(*) DESC LIMIT 1");
    EXPECT_TRUE(row.step());
    return row.int64(0);
  }
};

TEST_F(SampleFilters, ProcessAndThread) {
  int64_t thread = busiestThread();
  uint32_t pid = global_id::pid(thread);
  uint32_t tid = global_id::tid(thread);
  EXPECT_EQ(static_cast<int64_t>(readCpuSamples(db, {pid, {}, {}}).samples.size()),
            sqlCount(db, global_id::sqlPid("globalTid") + " = " + std::to_string(pid)));
  SampleRead one = readCpuSamples(db, {pid, tid, {}});
  EXPECT_EQ(static_cast<int64_t>(one.samples.size()), sqlCount(db, "globalTid = " + std::to_string(thread)));
  EXPECT_GT(one.samples.size(), 100u);
  for (int64_t globalTid : one.samples.globalTid) EXPECT_EQ(globalTid, thread);
}

TEST_F(SampleFilters, TimeWindowsAreHalfOpenAndUnited) {
  auto bounds = db.prepare("SELECT min(start), max(start) FROM COMPOSITE_EVENTS");
  ASSERT_TRUE(bounds.step());
  TimeNs first = bounds.int64(0), last = bounds.int64(1);
  TimeNs third = (last - first) / 3;
  TimeInterval early{first, first + third};
  TimeInterval late{last - third, last};
  SampleRead read = readCpuSamples(db, {{}, {}, {early, late}});
  std::string where = "((start >= " + std::to_string(early.start) + " AND start < " + std::to_string(early.end) +
                      ") OR (start >= " + std::to_string(late.start) + " AND start < " + std::to_string(late.end) +
                      "))";
  EXPECT_EQ(static_cast<int64_t>(read.samples.size()), sqlCount(db, where));
  EXPECT_LT(read.samples.size(), readCpuSamples(db).samples.size());
}

TEST_F(SampleFilters, SelectingInMemoryKeepsWhatReadingKeeps) {
  int64_t thread = busiestThread();
  auto bounds = db.prepare("SELECT min(start), max(start) FROM COMPOSITE_EVENTS");
  ASSERT_TRUE(bounds.step());
  TimeNs middle = (bounds.int64(0) + bounds.int64(1)) / 2;
  SampleFilter filter{global_id::pid(thread), {}, {{bounds.int64(0), middle}}};
  CpuSamples read = readCpuSamples(db, filter).samples;
  CpuSamples selected = selectSamples(readCpuSamples(db).samples, filter);
  ASSERT_GT(read.size(), 0u);
  EXPECT_EQ(selected.start, read.start);
  EXPECT_EQ(selected.globalTid, read.globalTid);
  EXPECT_EQ(selected.firstFrame, read.firstFrame);
  ASSERT_EQ(selected.frames.size(), read.frames.size());
  for (size_t f = 0; f < read.frames.size(); ++f) {
    EXPECT_EQ(selected.name(selected.frames[f].symbol), read.name(read.frames[f].symbol));
    EXPECT_EQ(selected.frames[f].flags, read.frames[f].flags);
  }
}

TEST(SampleTables, AFileWithoutThemSaysWhichAreMissing) {
  Database db = Database::openReadOnly(std::string(GPUSCOPE_FIXTURES) + "/nsys/loader2.sqlite");
  SampleRead read = readCpuSamples(db);
  EXPECT_EQ(read.samples.size(), 0u);
  EXPECT_EQ(read.missingTables, (std::vector<std::string>{"COMPOSITE_EVENTS", "SAMPLING_CALLCHAINS"}));
  EXPECT_TRUE(readThreadStates(db).missingTable);
}

TEST(SampleTables, ASampleTimeThatIsTextIsRefused) {
  std::string path = ::testing::TempDir() + "samples_text_start.sqlite";
  std::filesystem::remove(path);
  {
    Database db = Database::create(path);
    db.exec(
        "CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT);"
        "INSERT INTO StringIds VALUES (1, 'main'), (2, 'prog');"
        "CREATE TABLE COMPOSITE_EVENTS (id INTEGER PRIMARY KEY, start, cpu, threadState, globalTid, cpuCycles);"
        "INSERT INTO COMPOSITE_EVENTS VALUES (1, 100, 0, 1, 16777217, 0), (2, 'soon', 0, 1, 16777217, 0);"
        "CREATE TABLE SAMPLING_CALLCHAINS (id, symbol, module, kernelMode, thumbCode, unresolved, specialEntry,"
        " originalIP, unwindMethod, stackDepth);"
        "INSERT INTO SAMPLING_CALLCHAINS VALUES (1, 1, 2, 0, 0, 0, 0, 0, 1, 0), (2, 1, 2, 0, 0, 0, 0, 0, 1, 0);");
  }
  Database db = Database::openReadOnly(path);
  try {
    readCpuSamples(db);
    FAIL() << "a text start was read";
  } catch (const TraceError& error) {
    EXPECT_NE(std::string(error.what()).find("not an integer"), std::string::npos) << error.what();
  }
}

}  // namespace
}  // namespace gpuscope
