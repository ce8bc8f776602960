// writeSampleTables: what the recorder writes is what nsys exports hold, table for table and column for
// column, and reads back through gpuscope's own readers as it was written.
#include "core/samples/sample_rows.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "core/db/sqlite_database.h"
#include "core/error.h"
#include "core/model/global_id.h"
#include "core/samples/sample_reader.h"
#include "core/samples/thread_states.h"
#include "core/write/trace_writer.h"
#include "tests/core/samples/samples_fixtures.h"
#include "tests/core/testing/test_files.h"

namespace gpuscope {
namespace {

std::string writtenTrace(const std::string& name, const SampleRows& rows) {
  std::string path = testing::processTempPath("sample_rows", name);
  {
    TraceWriter writer(path);
    writer.intern("a text the trace already holds");
    writeSampleTables(writer, rows);
    writer.finish();
  }
  return path;
}

SampleRows twoSamplesAndASleep() {
  SampleRows rows;
  rows.stacks.push_back({{"hot_a", "/bin/app", 0x1010, false, false}, {"main", "/bin/app", 0x1100, false, false}});
  rows.stacks.push_back(
      {{"0x7f00", "[unknown]", 0x7f00, true, false}, {"py::busy:/src/train.py:17", "/src/train.py", 0, false, true}});
  rows.samples.push_back({1000, 40, 41, 0, 0});
  rows.samples.push_back({2000, 40, 41, 1, 1});
  rows.switches.push_back({500, 40, 41, 0, true, false});
  rows.switches.push_back({3000, 40, 41, 0, false, false});  // blocked
  rows.switches.push_back({5000, 40, 41, 1, true, false});
  rows.switches.push_back({6000, 40, 41, 1, false, true});  // preempted
  rows.switches.push_back({7000, 40, 41, 1, true, false});
  return rows;
}

TEST(SampleRows, TheTablesHaveNsysExportsColumnsInOrder) {
  std::string path = writtenTrace("columns.sqlite", twoSamplesAndASleep());
  Database ours = Database::openReadOnly(path);
  Database nsys = Database::openReadOnly(testing::samplingFixture("lb_samp"));
  for (const char* table : {"COMPOSITE_EVENTS", "SAMPLING_CALLCHAINS", "SCHED_EVENTS", "ENUM_SAMPLING_THREAD_STATE",
                            "ENUM_SCHEDULING_THREAD_BLOCK", "ENUM_STACK_UNWIND_METHOD"})
    EXPECT_EQ(ours.columnsOf(table), nsys.columnsOf(table)) << table;
  auto sameEnum = [&](const std::string& table) {
    std::string sql = "SELECT group_concat(id || ':' || name || ':' || label, ',') FROM " + table;
    auto a = ours.prepare(sql), b = nsys.prepare(sql);
    a.step();
    b.step();
    EXPECT_EQ(a.text(0), b.text(0)) << table;
  };
  sameEnum("ENUM_SAMPLING_THREAD_STATE");
  sameEnum("ENUM_SCHEDULING_THREAD_BLOCK");
  sameEnum("ENUM_STACK_UNWIND_METHOD");
  std::filesystem::remove(path);
}

TEST(SampleRows, SamplesReadBackWithTheirStacksThreadsAndFlags) {
  std::string path = writtenTrace("samples.sqlite", twoSamplesAndASleep());
  Database db = Database::openReadOnly(path);
  SampleRead read = readCpuSamples(db, {});
  const CpuSamples& samples = read.samples;
  EXPECT_TRUE(read.missingTables.empty());
  ASSERT_EQ(samples.size(), 2u);
  EXPECT_EQ(samples.start[0], 1000);
  EXPECT_EQ(samples.globalTid[1], global_id::make(0, 0, 40, 41));
  auto first = samples.stackOf(0);
  ASSERT_EQ(first.size(), 2u);
  EXPECT_EQ(samples.name(first[0].symbol), "hot_a");
  EXPECT_EQ(samples.name(first[1].symbol), "main");
  EXPECT_EQ(samples.name(first[1].module), "/bin/app");
  auto second = samples.stackOf(1);
  ASSERT_EQ(second.size(), 2u);
  EXPECT_EQ(second[0].flags & SampleFrame::kUnresolved, SampleFrame::kUnresolved);
  EXPECT_EQ(samples.name(second[1].symbol), "py::busy:/src/train.py:17");
  EXPECT_EQ(second[1].flags, 0);
  std::filesystem::remove(path);
}

TEST(SampleRows, SwitchesBecomeRunningBlockedAndPreemptedSpans) {
  std::string path = writtenTrace("states.sqlite", twoSamplesAndASleep());
  Database db = Database::openReadOnly(path);
  ThreadStateRead read = readThreadStates(db);
  ASSERT_EQ(read.threads.size(), 1u);
  const ThreadStates& thread = read.threads[0];
  EXPECT_EQ(thread.observed().start, 500);
  EXPECT_EQ(thread.observed().end, 7000);
  EXPECT_EQ(thread.timeIn(ThreadActivity::Running), 2500 + 1000);
  EXPECT_EQ(thread.timeIn(ThreadActivity::Sleeping), 2000);
  EXPECT_EQ(thread.timeIn(ThreadActivity::Preempted), 1000);
  EXPECT_EQ(thread.timeOffCpu(), 3000);
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace gpuscope
