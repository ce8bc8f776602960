// describeSample: a CPU sample's details on nsys's own export (loader2_samp) equal what an independent SQL
// query over COMPOSITE_EVENTS, SAMPLING_CALLCHAINS and StringIds says about the same sample, frame by frame;
// a Python frame shows as its function, file and line; a sample that does not exist is described as such.
#include "core/details/sample_details.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/db/sqlite_database.h"
#include "core/details/detail_text.h"
#include "core/model/global_id.h"
#include "core/model/trace.h"
#include "core/model/trace_loader.h"
#include "core/samples/frame_names.h"
#include "core/samples/host_activity.h"
#include "core/samples/sample_rows.h"
#include "core/write/trace_writer.h"
#include "tests/core/samples/samples_fixtures.h"
#include "tests/core/testing/test_files.h"

namespace gpuscope {
namespace {

// One frame of a sample as SAMPLING_CALLCHAINS and StringIds spell it.
struct SqlSampleFrame {
  std::string symbol;
  std::string module;
  bool unresolved = false;
  bool special = false;
  bool kernel = false;
};

struct SqlSample {
  TimeNs start = 0;
  int64_t globalTid = 0;
  int64_t threadState = 0;
  std::optional<int64_t> cpu;
  std::vector<SqlSampleFrame> frames;  // by stackDepth, leaf first
};

SqlSample sqlSampleOf(const Database& db, int64_t compositeId) {
  SqlSample sample;
  auto event = db.prepare("SELECT start, globalTid, threadState, cpu FROM COMPOSITE_EVENTS WHERE id = ?1");
  event.bind(1, compositeId);
  EXPECT_TRUE(event.step()) << "no COMPOSITE_EVENTS row " << compositeId;
  sample.start = event.int64(0);
  sample.globalTid = event.int64(1);
  sample.threadState = event.int64(2);
  if (!event.isNull(3)) sample.cpu = event.int64(3);
  auto frames = db.prepare(
      "SELECT s.value, m.value, coalesce(c.unresolved, 0), coalesce(c.specialEntry, 0), coalesce(c.kernelMode, 0)"
      " FROM SAMPLING_CALLCHAINS c JOIN StringIds s ON s.id = c.symbol JOIN StringIds m ON m.id = c.module"
      " WHERE c.id = ?1 ORDER BY c.stackDepth");
  frames.bind(1, compositeId);
  while (frames.step())
    sample.frames.push_back({std::string(frames.text(0)), std::string(frames.text(1)), frames.int64(2) != 0,
                             frames.int64(3) != 0, frames.int64(4) != 0});
  return sample;
}

// The backtrace line the details pane should show for FRAME, spelled out here rather than taken from
// backtraceLine: the function's label, the module's file name, and the markers.
std::string expectedSampleFrameLine(const SqlSampleFrame& frame) {
  std::string line = frameLabel(frame.symbol);
  std::string module = std::filesystem::path(frame.module).filename().string();
  if (!isPythonFrame(frame.symbol) && !module.empty() && module != frame.symbol) line += " — " + module;
  if (frame.unresolved) line += " [unresolved]";
  if (frame.special) line += " [special entry]";
  if (frame.kernel) line += " [kernel]";
  return line;
}

// The index in HostActivity::samples() of the sample taken at START on GLOBAL_TID; fails unless exactly one.
std::optional<uint32_t> sampleIndexAt(const CpuSamples& samples, TimeNs start, int64_t globalTid) {
  std::optional<uint32_t> found;
  for (size_t i = 0; i < samples.size(); ++i) {
    if (samples.start[i] != start || samples.globalTid[i] != globalTid) continue;
    EXPECT_FALSE(found.has_value()) << "two samples at " << start;
    found = static_cast<uint32_t>(i);
  }
  return found;
}

class SampleDetailsOnLoader2 : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    path_ = new std::string(testing::samplingFixture("loader2_samp"));
    trace_ = loadTrace(*path_).release();
  }
  static void TearDownTestSuite() {
    delete trace_;
    delete path_;
    trace_ = nullptr;
    path_ = nullptr;
  }
  static std::string* path_;
  static Trace* trace_;
};

std::string* SampleDetailsOnLoader2::path_ = nullptr;
Trace* SampleDetailsOnLoader2::trace_ = nullptr;

TEST_F(SampleDetailsOnLoader2, EachBacktraceFieldIsTheFrameTheCallchainTableHolds) {
  ASSERT_NE(trace_, nullptr);
  Database db = Database::openReadOnly(*path_);
  // Sample 3 has unresolved frames and nsys's "[Broken backtraces]" entry; 5000 is in CPython; the last is
  // the deepest stack of the file.
  auto deepest = db.prepare("SELECT id FROM SAMPLING_CALLCHAINS GROUP BY id ORDER BY max(stackDepth) DESC, id LIMIT 1");
  ASSERT_TRUE(deepest.step());
  const CpuSamples& samples = hostActivity(*trace_).samples();
  ASSERT_GT(samples.size(), 0u);
  bool sawUnresolved = false;
  for (int64_t id : {int64_t{3}, int64_t{5000}, deepest.int64(0)}) {
    SCOPED_TRACE("COMPOSITE_EVENTS.id " + std::to_string(id));
    SqlSample expected = sqlSampleOf(db, id);
    ASSERT_FALSE(expected.frames.empty());
    auto index = sampleIndexAt(samples, expected.start, expected.globalTid);
    ASSERT_TRUE(index.has_value());
    EventDetails details = describeSample(*trace_, expected.globalTid, *index, TimeBase::Session);
    EXPECT_EQ(details.kind, "CPU sample");
    ASSERT_EQ(details.sections.size(), 2u);
    const DetailSection& backtrace = details.sections[1];
    EXPECT_EQ(backtrace.title, "Backtrace");
    ASSERT_EQ(backtrace.fields.size(), expected.frames.size());
    for (size_t depth = 0; depth < expected.frames.size(); ++depth) {
      EXPECT_EQ(backtrace.fields[depth].label, "#" + std::to_string(depth));
      EXPECT_EQ(backtrace.fields[depth].value, expectedSampleFrameLine(expected.frames[depth]));
      sawUnresolved = sawUnresolved || expected.frames[depth].unresolved;
    }
    // The title is the leaf's function; the section names when, where and in which state.
    EXPECT_EQ(details.title.rfind(frameLabel(expected.frames[0].symbol)),
              details.title.size() - frameLabel(expected.frames[0].symbol).size())
        << details.title;
    const DetailSection& sample = details.sections[0];
    EXPECT_EQ(sample.title, "CPU sample");
    ASSERT_NE(details.field("Time", "CPU sample"), nullptr);
    EXPECT_EQ(details.field("Time", "CPU sample")->value, detail_text::time(expected.start));
    ASSERT_NE(details.field("Thread", "CPU sample"), nullptr);
    EXPECT_NE(
        details.field("Thread", "CPU sample")->value.find("tid " + std::to_string(global_id::tid(expected.globalTid))),
        std::string::npos);
    ASSERT_NE(details.field("Process", "CPU sample"), nullptr);
    EXPECT_NE(
        details.field("Process", "CPU sample")->value.find("pid " + std::to_string(global_id::pid(expected.globalTid))),
        std::string::npos);
    auto state = db.prepare("SELECT label FROM ENUM_SAMPLING_THREAD_STATE WHERE id = ?1");
    state.bind(1, expected.threadState);
    ASSERT_TRUE(state.step());
    ASSERT_NE(details.field("Thread state"), nullptr);
    EXPECT_EQ(details.field("Thread state")->value, state.text(0));
    ASSERT_TRUE(expected.cpu.has_value());
    ASSERT_NE(details.field("CPU"), nullptr);
    EXPECT_EQ(details.field("CPU")->value, std::to_string(*expected.cpu));
  }
  EXPECT_TRUE(sawUnresolved);
}

TEST_F(SampleDetailsOnLoader2, TimesCountFromTheTraceStartInThatBase) {
  ASSERT_NE(trace_, nullptr);
  const CpuSamples& samples = hostActivity(*trace_).samples();
  ASSERT_GT(samples.size(), 10u);
  EventDetails details = describeSample(*trace_, samples.globalTid[10], 10, TimeBase::Trace);
  ASSERT_NE(trace_->timeOrigin(TimeBase::Trace), 0);
  ASSERT_NE(details.field("Time"), nullptr);
  EXPECT_EQ(details.field("Time")->value, detail_text::time(samples.start[10] - trace_->timeOrigin(TimeBase::Trace)));
  EXPECT_NE(details.field("Counted from"), nullptr);
}

TEST_F(SampleDetailsOnLoader2, ASampleThatDoesNotExistIsNoSuchSample) {
  ASSERT_NE(trace_, nullptr);
  const CpuSamples& samples = hostActivity(*trace_).samples();
  ASSERT_GT(samples.size(), 0u);
  const int64_t thread = samples.globalTid[0];
  for (EventDetails details :
       {describeSample(*trace_, thread, static_cast<uint32_t>(samples.size())),
        describeSample(*trace_, thread, 0xFFFFFFFFu), describeSample(*trace_, global_id::make(0, 0, 4242, 4243), 0)}) {
    EXPECT_EQ(details.title, "No such sample");
    EXPECT_TRUE(details.sections.empty());
  }
  EXPECT_FALSE(isValidSample(*trace_, thread, static_cast<uint32_t>(samples.size())));
  EXPECT_TRUE(isValidSample(*trace_, thread, 0));
}

TEST(SampleDetails, APythonFrameShowsItsFunctionFileAndLine) {
  constexpr uint32_t kSampledPid = 60, kSampledTid = 61;
  std::string path = testing::processTempPath("sample_details", "python.sqlite");
  SampleRows rows;
  rows.stacks.push_back({{"0x1234", "/usr/lib/libz.so.1", 0x1234, true, false},
                         {"py::busy:/x/train.py:17", "/x/train.py", 0, false, true},
                         {"py::<module>:/x/train.py:30", "/x/train.py", 0, false, true}});
  rows.samples.push_back({1000, kSampledPid, kSampledTid, 3, 0});
  {
    TraceWriter writer(path);
    writer.addProcess({global_id::make(0, 0, kSampledPid, 0), kSampledPid, "app"});
    writer.addThreadName({global_id::make(0, 0, kSampledPid, kSampledTid), "worker"});
    writer.addOsRuntime({100, 8000, global_id::make(0, 0, kSampledPid, kSampledTid), "poll"});
    writeSampleTables(writer, rows);
    writer.finish();
  }
  auto trace = loadTrace(path);
  std::filesystem::remove(path);
  EventDetails details = describeSample(*trace, global_id::make(0, 0, kSampledPid, kSampledTid), 0);
  ASSERT_NE(details.field("#2", "Backtrace"), nullptr);
  EXPECT_EQ(details.field("#0", "Backtrace")->value, "0x1234 — libz.so.1 [unresolved]");
  EXPECT_EQ(details.field("#1", "Backtrace")->value, "busy (train.py:17)");
  EXPECT_EQ(details.field("#2", "Backtrace")->value, "<module> (train.py:30)");
  EXPECT_EQ(details.title, "busy (train.py:17) → 0x1234");
  EXPECT_EQ(details.field("Thread")->value, "worker (tid 61)");
  EXPECT_EQ(details.field("Process")->value, "app (pid 60)");
  EXPECT_EQ(details.field("CPU")->value, "3");
}

}  // namespace
}  // namespace gpuscope
