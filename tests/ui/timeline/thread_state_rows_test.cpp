// Thread-state rows: a thread with scheduling records gets a row under it that paints its states in their
// colours and a tick per CPU sample, and names the state and the nearest sample's frames in its tooltip;
// a trace without sampling tables gets none.
#include <gtest/gtest.h>

#include <QApplication>
#include <QImage>
#include <QScrollBar>
#include <filesystem>
#include <string>

#include "core/model/global_id.h"
#include "core/model/trace_loader.h"
#include "core/samples/sample_rows.h"
#include "core/write/trace_writer.h"
#include "tests/core/testing/test_files.h"
#include "tests/ui/timeline/timeline_test_trace.h"
#include "ui/session/trace_session.h"
#include "ui/timeline/thread_state_row_kind.h"
#include "ui/timeline/timeline_canvas.h"
#include "ui/timeline/timeline_layout.h"
#include "ui/timeline/timeline_palette.h"
#include "ui/timeline/timeline_row_kinds.h"
#include "ui/timeline/timeline_view.h"

namespace gpuscope::ui {
namespace {

using timeline_test::kAreaWidth;
constexpr uint32_t kStripPid = 40, kStripTid = 41;
constexpr uint32_t kStripIdleTid = 42;    // runs 100 ns of [500, 9000): waits, like a pool's idle worker
constexpr TimeNs kStripTraceStart = 100;  // the OS runtime call's start: the trace's first event

// Thread 40/41 calls poll over [100, 9000); it runs [500, 3000), sleeps [3000, 5000), runs [5000, 6000),
// waits for a CPU [6000, 7000) and runs [7000, 8000); sampled at 1000 (in hot_a) and 2000 (in Python).
std::shared_ptr<const Trace> sampledTrace() {
  std::string path = testing::processTempPath("thread_state_rows", "trace.sqlite");
  SampleRows rows;
  rows.stacks.push_back({{"hot_a", "/bin/app", 0x1010, false, false}, {"main", "/bin/app", 0x1100, false, false}});
  rows.stacks.push_back({{"py::busy:/x/train.py:17", "/x/train.py", 0, false, true},
                         {"py::<module>:/x/train.py:30", "/x/train.py", 0, false, true}});
  rows.samples.push_back({1000, kStripPid, kStripTid, 0, 0});
  rows.samples.push_back({2000, kStripPid, kStripTid, 0, 1});
  rows.switches.push_back({500, kStripPid, kStripTid, 0, true, false});
  rows.switches.push_back({3000, kStripPid, kStripTid, 0, false, false});
  rows.switches.push_back({5000, kStripPid, kStripTid, 1, true, false});
  rows.switches.push_back({6000, kStripPid, kStripTid, 1, false, true});
  rows.switches.push_back({7000, kStripPid, kStripTid, 1, true, false});
  rows.switches.push_back({8000, kStripPid, kStripTid, 1, false, false});
  rows.switches.push_back({500, kStripPid, kStripIdleTid, 2, true, false});
  rows.switches.push_back({600, kStripPid, kStripIdleTid, 2, false, false});
  rows.switches.push_back({9000, kStripPid, kStripIdleTid, 2, true, false});
  rows.switches.push_back({9000, kStripPid, kStripIdleTid, 2, false, false});
  {
    TraceWriter writer(path);
    writer.addProcess({global_id::make(0, 0, kStripPid, 0), kStripPid, "app"});
    writer.addThreadName({global_id::make(0, 0, kStripPid, kStripTid), "worker"});
    writer.addOsRuntime({kStripTraceStart, 9000, global_id::make(0, 0, kStripPid, kStripTid), "poll"});
    writer.addOsRuntime({kStripTraceStart, 9000, global_id::make(0, 0, kStripPid, kStripIdleTid), "pthread_cond_wait"});
    writeSampleTables(writer, rows);
    writer.finish();
  }
  std::shared_ptr<const Trace> trace = loadTrace(path);
  std::filesystem::remove(path);
  return trace;
}

int threadStateRow(const TimelineLayout& layout) {
  for (size_t i = 0; i < layout.rows().size(); ++i)
    if (layout.rows()[i].kind == RowKind::ThreadState) return static_cast<int>(i);
  return -1;
}

TEST(ThreadStateRows, AThreadWithSchedulingRecordsGetsAStateRowUnderIt) {
  auto trace = sampledTrace();
  TimelineRowKinds kinds;
  kinds.onTraceChanged(trace.get());
  TimelineLayout layout;
  layout.build(*trace, kinds);
  int row = threadStateRow(layout);
  ASSERT_GE(row, 0);
  const TimelineRow& states = layout.row(row);
  EXPECT_EQ(states.label, QStringLiteral("Thread state"));
  EXPECT_EQ(states.height, ThreadStateRowKind::kHeight);
  EXPECT_FALSE(states.isHeader());
  ASSERT_GE(states.parent, 0);
  const TimelineRow& thread = layout.row(states.parent);
  EXPECT_EQ(thread.kind, RowKind::Thread);
  EXPECT_EQ(thread.label, QStringLiteral("worker"));
  EXPECT_EQ(global_id::tid(states.globalTid), kStripTid);
  // A thread with only OS-runtime calls starts collapsed, unless it has states to show.
  EXPECT_FALSE(thread.collapsed);
  // ...and a thread that mostly waited stays collapsed, with its state row under it.
  int idle = -1;
  for (size_t i = 0; i < layout.rows().size(); ++i)
    if (layout.rows()[i].kind == RowKind::ThreadState && global_id::tid(layout.rows()[i].globalTid) == kStripIdleTid)
      idle = static_cast<int>(i);
  ASSERT_GE(idle, 0);
  EXPECT_TRUE(layout.row(layout.row(idle).parent).collapsed);
  EXPECT_GE(layout.placementOf(row).top, layout.placementOf(states.parent).bottom());
  // 40% of [500, 8000) observed in view is spent running... here: 4500 of 7500 ns.
  TimelineGeometry all{QRect(240, 30, kAreaWidth, 400), 0, 10000};
  EXPECT_EQ(kinds.of(states).detail(states, all), QStringLiteral("60% running"));
}

// Thread 40/41 makes one OS runtime call; 40/43 only computes (sampled, never named) and 40/44 is named
// but makes no traced call.
std::shared_ptr<const Trace> computeOnlyThreadsTrace() {
  std::string path = testing::processTempPath("thread_state_rows", "compute_only.sqlite");
  SampleRows rows;
  rows.stacks.push_back({{"crunch", "/bin/app", 0x1010, false, false}});
  for (uint32_t tid : {43u, 44u})
    for (TimeNs t = 1000; t < 8000; t += 1000) rows.samples.push_back({t, kStripPid, tid, 0, 0});
  rows.switches.push_back({500, kStripPid, 43, 1, true, false});
  rows.switches.push_back({8500, kStripPid, 43, 1, false, false});
  {
    TraceWriter writer(path);
    writer.addProcess({global_id::make(0, 0, kStripPid, 0), kStripPid, "app"});
    writer.addThreadName({global_id::make(0, 0, kStripPid, kStripTid), "caller"});
    writer.addThreadName({global_id::make(0, 0, kStripPid, 44), "named-worker"});
    writer.addOsRuntime({kStripTraceStart, 9000, global_id::make(0, 0, kStripPid, kStripTid), "poll"});
    writeSampleTables(writer, rows);
    writer.finish();
  }
  std::shared_ptr<const Trace> trace = loadTrace(path);
  std::filesystem::remove(path);
  return trace;
}

// A thread that only computes makes no traced call, yet its samples and states are what the user looks
// for: it gets a thread row with its state row, after the threads with events, as in Nsight Systems.
TEST(ThreadStateRows, AThreadKnownOnlyByItsSamplesGetsRowsToo) {
  auto trace = computeOnlyThreadsTrace();
  TimelineRowKinds kinds;
  kinds.onTraceChanged(trace.get());
  TimelineLayout layout;
  layout.build(*trace, kinds);
  std::vector<QString> threads;
  std::vector<int> statesUnder;
  for (size_t i = 0; i < layout.rows().size(); ++i) {
    const TimelineRow& row = layout.rows()[i];
    if (row.kind == RowKind::Thread) threads.push_back(row.label + " " + row.detail);
    if (row.kind == RowKind::ThreadState) statesUnder.push_back(row.parent);
  }
  // 41 only waited: it is folded with the idle threads, after those that worked.
  ASSERT_EQ(threads.size(), 3u);
  EXPECT_EQ(threads[0], QStringLiteral("Thread 43 tid 43"));
  EXPECT_EQ(threads[1], QStringLiteral("named-worker tid 44"));
  EXPECT_EQ(threads[2], QStringLiteral("caller tid 41"));
  ASSERT_EQ(statesUnder.size(), 2u) << "43 and 44 were sampled; 41 has neither samples nor states";
  EXPECT_EQ(layout.rows()[static_cast<size_t>(statesUnder[0])].label, QStringLiteral("Thread 43"));
  EXPECT_FALSE(layout.rows()[static_cast<size_t>(statesUnder[0])].collapsed) << "it kept a CPU busy";
}

TEST(ThreadStateRows, ATraceWithoutSamplingTablesHasNoStateRow) {
  auto trace = timeline_test::loadFixture("nsys/loader2.sqlite");
  TimelineRowKinds kinds;
  kinds.onTraceChanged(trace.get());
  TimelineLayout layout;
  layout.build(*trace, kinds);
  EXPECT_FALSE(layout.rows().empty());
  EXPECT_EQ(threadStateRow(layout), -1);
}

bool stripColourNear(QRgb pixel, const QColor& color) {
  return std::abs(qRed(pixel) - color.red()) <= 4 && std::abs(qGreen(pixel) - color.green()) <= 4 &&
         std::abs(qBlue(pixel) - color.blue()) <= 4;
}

TEST(ThreadStateRows, TheStripIsPaintedInEachStatesColourWithTicksAtTheSamples) {
  auto trace = sampledTrace();
  TraceSession session;
  session.setTrace(trace);
  TimelineView view(&session);
  view.resize(TimelineCanvas::kLabelWidth + kAreaWidth + view.verticalScrollBar()->sizeHint().width(), 400);
  view.show();
  QApplication::processEvents();
  TimelineCanvas* canvas = view.canvas();
  ASSERT_EQ(canvas->eventArea().width(), kAreaWidth);
  session.setViewRange(kStripTraceStart, kStripTraceStart + 10 * kAreaWidth);  // 10 ns per pixel
  QImage image = canvas->grab().toImage();
  int row = threadStateRow(canvas->layout());
  ASSERT_GE(row, 0);
  const QRect area = canvas->eventArea();
  const int top = area.top() + canvas->layout().placementOf(row).top;
  const int stripY = top + ThreadStateRowKind::kStripTop + ThreadStateRowKind::kStripHeight / 2;
  const int tickY = top + ThreadStateRowKind::kTickTop + ThreadStateRowKind::kTickHeight - 2;
  auto xAt = [&](TimeNs t) { return area.left() + static_cast<int>((t - kStripTraceStart) / 10); };
  EXPECT_TRUE(stripColourNear(image.pixel(xAt(1500), stripY), threadActivityColor(ThreadActivity::Running)));
  EXPECT_TRUE(stripColourNear(image.pixel(xAt(4000), stripY), threadActivityColor(ThreadActivity::Sleeping)));
  EXPECT_TRUE(stripColourNear(image.pixel(xAt(6500), stripY), threadActivityColor(ThreadActivity::Preempted)));
  EXPECT_FALSE(stripColourNear(image.pixel(xAt(300), stripY), threadActivityColor(ThreadActivity::Running)));
  EXPECT_TRUE(stripColourNear(image.pixel(xAt(1000), tickY), timeline_colors::kSampleTick));
  EXPECT_TRUE(stripColourNear(image.pixel(xAt(2000), tickY), timeline_colors::kSampleTick));
  EXPECT_FALSE(stripColourNear(image.pixel(xAt(1500), tickY), timeline_colors::kSampleTick));
}

TEST(ThreadStateRows, TheTooltipNamesTheStateAndTheNearestSamplesFrames) {
  auto trace = sampledTrace();
  TimelineRowKinds kinds;
  kinds.onTraceChanged(trace.get());
  TimelineLayout layout;
  layout.build(*trace, kinds);
  const TimelineRow& states = layout.row(threadStateRow(layout));
  const TimelineGeometry g{QRect(240, 30, kAreaWidth, 400), kStripTraceStart, kStripTraceStart + 10 * kAreaWidth};
  TimelineNameCache names;
  RowTooltipContext context{*trace, g, names, TimeBase::Trace};
  const TimelineRowKind& kind = kinds.of(states);
  auto at = [&](TimeNs t) { return kind.tooltip(states, {}, g.xForTime(t), context); };
  QString sleeping = at(4000);
  EXPECT_TRUE(sleeping.contains(QStringLiteral("<b>Sleeping</b> for 2.000 us"))) << sleeping.toStdString();
  EXPECT_FALSE(sleeping.contains(QStringLiteral("CPU sample")));
  QString python = at(2010);  // a pixel from the sample at 2000
  EXPECT_TRUE(python.contains(QStringLiteral("<b>Running</b>"))) << python.toStdString();
  EXPECT_TRUE(python.contains(QStringLiteral("busy (train.py:17)"))) << python.toStdString();
  EXPECT_TRUE(python.contains(QStringLiteral("&lt;module&gt; (train.py:30)"))) << python.toStdString();
  EXPECT_TRUE(at(1000).contains(QStringLiteral("hot_a")));
  // The legend names every state the strip paints.
  for (const char* state : {"Running", "Preempted", "Sleeping", "Blocked", "Off&nbsp;CPU"})
    EXPECT_TRUE(python.contains(QString::fromUtf8(state))) << state;
}

}  // namespace
}  // namespace gpuscope::ui
