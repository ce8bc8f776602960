// HostActivity: a thread's scheduling states and sample times, read once from a trace that has them,
// in columns that answer per pixel column how long the thread spent in each state and how many samples
// fell there; a trace without the tables has none.
#include "core/samples/host_activity.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "core/db/sqlite_database.h"
#include "core/model/global_id.h"
#include "core/model/trace.h"
#include "core/model/trace_loader.h"
#include "core/samples/sample_rows.h"
#include "core/write/trace_writer.h"
#include "tests/core/testing/test_files.h"

namespace gpuscope {
namespace {

constexpr uint32_t kPid = 40, kTid = 41;

// Thread 40/41: runs [500, 3000), sleeps [3000, 5000), runs [5000, 6000), waits for a CPU [6000, 7000),
// runs from 7000 on; sampled at 1000 and 2000 (in that order in the file's rows: 2000 first).
SampleRows runSleepRunPreempted() {
  SampleRows rows;
  rows.stacks.push_back({{"hot_a", "/bin/app", 0x1010, false, false}, {"main", "/bin/app", 0x1100, false, false}});
  rows.stacks.push_back({{"py::busy:/x/train.py:17", "/x/train.py", 0, false, true}});
  rows.samples.push_back({2000, kPid, kTid, 0, 1});
  rows.samples.push_back({1000, kPid, kTid, 0, 0});
  rows.switches.push_back({500, kPid, kTid, 0, true, false});
  rows.switches.push_back({3000, kPid, kTid, 0, false, false});  // blocked: sleeping
  rows.switches.push_back({5000, kPid, kTid, 1, true, false});
  rows.switches.push_back({6000, kPid, kTid, 1, false, true});  // preempted
  rows.switches.push_back({7000, kPid, kTid, 1, true, false});
  rows.switches.push_back({7500, kPid, kTid, 1, false, true});
  return rows;
}

std::string writtenTrace(const std::string& name, const SampleRows* rows) {
  std::string path = testing::processTempPath("host_activity", name);
  {
    TraceWriter writer(path);
    writer.addProcess({global_id::make(0, 0, kPid, 0), kPid, "app"});
    writer.addOsRuntime({100, 8000, global_id::make(0, 0, kPid, kTid), "poll"});
    if (rows) writeSampleTables(writer, *rows);
    writer.finish();
  }
  return path;
}

TEST(HostActivity, ReadsEachThreadsStatesAndSampleTimesInTimeOrder) {
  SampleRows rows = runSleepRunPreempted();
  std::string path = writtenTrace("states.sqlite", &rows);
  HostActivity host = HostActivity::read(Database::openReadOnly(path));
  ASSERT_EQ(host.threads().size(), 1u);
  const ThreadActivityColumns* thread = host.thread(global_id::make(0, 0, kPid, kTid));
  ASSERT_NE(thread, nullptr);
  ASSERT_EQ(thread->spanCount(), 5u);
  EXPECT_EQ(thread->spanStart, (std::vector<TimeNs>{500, 3000, 5000, 6000, 7000}));
  EXPECT_EQ(thread->spanEnd, (std::vector<TimeNs>{3000, 5000, 6000, 7000, 7500}));
  EXPECT_EQ(thread->activity,
            (std::vector<ThreadActivity>{ThreadActivity::Running, ThreadActivity::Sleeping, ThreadActivity::Running,
                                         ThreadActivity::Preempted, ThreadActivity::Running}));
  EXPECT_EQ(thread->sampleTime, (std::vector<TimeNs>{1000, 2000}));
  // Each sample's index leads to its stack: the one at 1000 was taken in hot_a.
  const CpuSamples& samples = host.samples();
  ASSERT_EQ(samples.size(), 2u);
  EXPECT_EQ(samples.start[thread->sampleIndex[0]], 1000);
  EXPECT_EQ(samples.name(samples.stackOf(thread->sampleIndex[0])[0].symbol), "hot_a");
  EXPECT_EQ(samples.name(samples.stackOf(thread->sampleIndex[1])[0].symbol), "py::busy:/x/train.py:17");

  EXPECT_EQ(thread->spanAt(4000), std::optional<size_t>(1));
  EXPECT_EQ(thread->spanAt(400), std::nullopt);
  EXPECT_EQ(thread->spanAt(7500), std::nullopt);
  EXPECT_EQ(thread->timeIn(ThreadActivity::Running, 0, 10000), 2500 + 1000 + 500);
  EXPECT_EQ(thread->timeIn(ThreadActivity::Sleeping, 2500, 3500), 500);
  EXPECT_EQ(thread->timeIn(ThreadActivity::Preempted, 6500, 6600), 100);
  std::filesystem::remove(path);
}

TEST(HostActivity, PixelColumnsGetTheirTimeInEachStateAndTheirSampleCounts) {
  SampleRows rows = runSleepRunPreempted();
  std::string path = writtenTrace("columns.sqlite", &rows);
  HostActivity host = HostActivity::read(Database::openReadOnly(path));
  const ThreadActivityColumns* thread = host.thread(global_id::make(0, 0, kPid, kTid));
  ASSERT_NE(thread, nullptr);
  // Columns of 1000 ns from 0.
  std::vector<ActivityTimes> times;
  thread->timePerColumn(0, 1000.0, 9, times);
  ASSERT_EQ(times.size(), 9u);
  auto in = [&](size_t column, ThreadActivity a) { return times[column][static_cast<size_t>(a)]; };
  EXPECT_EQ(in(0, ThreadActivity::Running), 500);
  EXPECT_EQ(in(1, ThreadActivity::Running), 1000);
  EXPECT_EQ(in(3, ThreadActivity::Sleeping), 1000);
  EXPECT_EQ(in(3, ThreadActivity::Running), 0);
  EXPECT_EQ(in(5, ThreadActivity::Running), 1000);
  EXPECT_EQ(in(6, ThreadActivity::Preempted), 1000);
  EXPECT_EQ(in(7, ThreadActivity::Running), 500);
  for (size_t a = 0; a < kThreadActivityCount; ++a) EXPECT_EQ(times[8][a], 0);
  // Half-pixel columns split a span where it ends.
  thread->timePerColumn(2500, 500.0, 2, times);
  EXPECT_EQ(times[0][static_cast<size_t>(ThreadActivity::Running)], 500);
  EXPECT_EQ(times[1][static_cast<size_t>(ThreadActivity::Sleeping)], 500);

  std::vector<uint32_t> counts;
  thread->samplesPerColumn(0, 1000.0, 4, counts);
  EXPECT_EQ(counts, (std::vector<uint32_t>{0, 1, 1, 0}));
  thread->samplesPerColumn(0, 4000.0, 2, counts);
  EXPECT_EQ(counts, (std::vector<uint32_t>{2, 0}));
  EXPECT_EQ(thread->nearestSample(1300, 400), std::optional<size_t>(0));
  EXPECT_EQ(thread->nearestSample(1800, 400), std::optional<size_t>(1));
  EXPECT_EQ(thread->nearestSample(1500, 400), std::nullopt);
  std::filesystem::remove(path);
}

TEST(HostActivity, TheTraceReadsItOnceAndFindsTheThreadWhateverItsVmField) {
  SampleRows rows = runSleepRunPreempted();
  std::string path = writtenTrace("trace.sqlite", &rows);
  auto trace = loadTrace(path);
  const HostActivity& host = hostActivity(*trace);
  EXPECT_EQ(&host, &hostActivity(*trace));
  // gpuscope's recorder gives the API tables' globalTid a vm field that the sampling tables lack.
  const ThreadActivityColumns* thread = host.thread(global_id::make(0, 1, kPid, kTid));
  ASSERT_NE(thread, nullptr);
  EXPECT_EQ(thread->spanCount(), 5u);
  EXPECT_EQ(host.thread(global_id::make(0, 0, kPid, kTid + 1)), nullptr);
  std::filesystem::remove(path);
}

TEST(HostActivity, ATraceWithoutSamplingTablesHasNone) {
  std::string path = writtenTrace("none.sqlite", nullptr);
  auto trace = loadTrace(path);
  EXPECT_TRUE(hostActivity(*trace).empty());
  EXPECT_EQ(hostActivity(*trace).thread(global_id::make(0, 0, kPid, kTid)), nullptr);
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace gpuscope
