// Reader parity on nsys's own exports: the flat view's self and total samples per (function, module) and
// each thread's running share equal what an independent SQL query over the same tables gives.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <utility>

#include "core/db/sqlite_database.h"
#include "core/samples/call_tree.h"
#include "core/samples/sample_reader.h"
#include "core/samples/thread_states.h"
#include "samples_fixtures.h"

namespace gpuscope {
namespace {

using FunctionKey = std::pair<std::string, std::string>;  // symbol text, module text
using Counts = std::map<FunctionKey, int64_t>;

// Per (symbol, module) of the samples that have a thread: leaf frames (stackDepth 0) for self, distinct
// samples for total.
Counts sqlCounts(const Database& db, bool self) {
  std::string counted = self ? "count(*)" : "count(DISTINCT c.id)";
  auto row = db.prepare("SELECT s.value, m.value, " + counted +
                        " FROM SAMPLING_CALLCHAINS c JOIN COMPOSITE_EVENTS e ON e.id = c.id"
                        " JOIN StringIds s ON s.id = c.symbol JOIN StringIds m ON m.id = c.module"
                        " WHERE e.globalTid IS NOT NULL" +
                        std::string(self ? " AND c.stackDepth = 0" : "") + " GROUP BY s.value, m.value");
  Counts counts;
  while (row.step()) counts[{std::string(row.text(0)), std::string(row.text(1))}] = row.int64(2);
  return counts;
}

Counts readerCounts(const CpuSamples& samples, bool self) {
  Counts counts;
  for (const FlatEntry& entry : flatView(samples)) {
    int64_t value = self ? entry.self : entry.total;
    if (value > 0) counts[{std::string(samples.name(entry.symbol)), std::string(samples.name(entry.module))}] = value;
  }
  return counts;
}

// Per thread: time from each switch in to the next record (switch outs first at one instant), and the time
// from its first record to its last.
std::map<int64_t, std::pair<int64_t, int64_t>> sqlRunningTimes(const Database& db) {
  auto row = db.prepare(
      "WITH ordered AS (SELECT globalTid, start, isSchedIn, LEAD(start) OVER (PARTITION BY globalTid ORDER BY "
      "start, isSchedIn) AS next FROM SCHED_EVENTS WHERE globalTid IS NOT NULL) "
      "SELECT globalTid, total(CASE WHEN isSchedIn != 0 AND next IS NOT NULL THEN next - start ELSE 0 END), "
      "max(start) - min(start) FROM ordered GROUP BY globalTid");
  std::map<int64_t, std::pair<int64_t, int64_t>> times;
  while (row.step()) times[row.int64(0)] = {static_cast<int64_t>(row.real(1)), row.int64(2)};
  return times;
}

class SampleReaderParity : public ::testing::TestWithParam<const char*> {
 protected:
  Database db = Database::openReadOnly(testing::samplingFixture(GetParam()));
};

TEST_P(SampleReaderParity, FlatSelfAndTotalEqualSql) {
  SampleRead read = readCpuSamples(db);
  EXPECT_TRUE(read.missingTables.empty());
  auto sampleCount = db.prepare("SELECT count(*) FROM COMPOSITE_EVENTS WHERE globalTid IS NOT NULL");
  ASSERT_TRUE(sampleCount.step());
  EXPECT_EQ(static_cast<int64_t>(read.samples.size()), sampleCount.int64(0));
  Counts sqlSelf = sqlCounts(db, true);
  Counts sqlTotal = sqlCounts(db, false);
  EXPECT_GT(sqlSelf.size(), 10u);
  EXPECT_EQ(readerCounts(read.samples, true), sqlSelf);
  EXPECT_EQ(readerCounts(read.samples, false), sqlTotal);
}

TEST_P(SampleReaderParity, RunningSharePerThreadEqualsSql) {
  ThreadStateRead states = readThreadStates(db);
  ASSERT_FALSE(states.missingTable);
  auto expected = sqlRunningTimes(db);
  ASSERT_EQ(states.threads.size(), expected.size());
  for (const ThreadStates& thread : states.threads) {
    auto [running, observed] = expected.at(thread.globalTid);
    EXPECT_EQ(thread.timeIn(ThreadActivity::Running), running) << thread.globalTid;
    EXPECT_EQ(thread.observed().length(), observed) << thread.globalTid;
  }
}

TEST_P(SampleReaderParity, BottomUpFirstLevelIsTheFlatSelf) {
  SampleRead read = readCpuSamples(db);
  CallTree bottomUp = callTree(read.samples, TreeDirection::BottomUp);
  Counts firstLevel;
  for (int32_t child : bottomUp.root().children) {
    const CallTreeNode& node = bottomUp.nodes[static_cast<size_t>(child)];
    firstLevel[{std::string(read.samples.name(node.symbol)), std::string(read.samples.name(node.module))}] = node.total;
  }
  EXPECT_EQ(firstLevel, readerCounts(read.samples, true));
  EXPECT_EQ(bottomUp.root().total, static_cast<int64_t>(read.samples.size()));
}

INSTANTIATE_TEST_SUITE_P(NsysExports, SampleReaderParity, ::testing::Values("loader2_samp", "lb_samp"));

}  // namespace
}  // namespace gpuscope
