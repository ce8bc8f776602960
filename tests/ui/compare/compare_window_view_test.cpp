// The compare view shows the difference: it opens on the aligned window of a real pair of runs (the DataLoader
// in the main process, recorded by gpuscope, against two worker processes, recorded by nsys), with the GPU rows
// in view, a summary and a kernel diff of that window only, and the details of whatever is clicked in either
// pane. CompareWindow loads both runs in the background, with progress and Cancel.
#include <gtest/gtest.h>

#include <QApplication>
#include <QLabel>
#include <QMenuBar>
#include <QSignalSpy>
#include <QTest>
#include <QToolButton>
#include <QTreeView>

#include "core/details/kernel_list.h"
#include "core/model/trace_loader.h"
#include "core/query/utilization.h"
#include "tests/ui/shell/shell_fixtures.h"
#include "tests/ui/test_timeouts.h"
#include "ui/compare/compare_view.h"
#include "ui/compare/compare_window.h"
#include "ui/compare/run_diff_model.h"
#include "ui/details/details_panel.h"
#include "ui/loading/background_trace_loader.h"
#include "ui/loading/load_progress_widget.h"
#include "ui/timeline/timeline_canvas.h"
#include "ui/timeline/timeline_view.h"

namespace gpuscope::ui {
namespace {

using test::fixturePath;
using test::kTimeoutMs;

struct Pair {
  std::shared_ptr<const Trace> a = loadTrace(fixturePath("gpuscope/loader0.sqlite").toStdString());
  std::shared_ptr<const Trace> b = loadTrace(fixturePath("nsys/loader2.sqlite").toStdString());
};
const Pair& pair() {
  static const Pair loaded;
  return loaded;
}

const SummaryMetric& metric(const CompareView& view, const std::string& name) {
  for (const SummaryMetric& m : view.diff().summary)
    if (m.name == name) return m;
  ADD_FAILURE() << "no summary metric " << name;
  return view.diff().summary.front();
}

uint32_t kernelTrack(const Trace& trace) {
  for (uint32_t t = 0; t < trace.tracks().size(); ++t)
    if (trace.track(t).kind == TrackKind::GpuKernels && trace.track(t).eventCount() > 0) return t;
  return TimelineRow::kNoTrack;
}

// Kernels of TRACE that start in WINDOW, and their summed durations.
std::pair<int64_t, TimeNs> kernelsIn(const Trace& trace, const TimeInterval& window) {
  int64_t count = 0;
  TimeNs total = 0;
  for (const EventRef& ref : kernelInstances(trace)) {
    if (!window.contains(trace.start(ref))) continue;
    ++count;
    total += trace.end(ref) - trace.start(ref);
  }
  return {count, total};
}

TEST(CompareViewWindow, SummaryAndDiffCoverTheAlignedEpochOnly) {
  CompareView view(pair().a, pair().b);
  // Both runs train two epochs in NVTX ranges; the last one is past the warm-up.
  EXPECT_EQ(view.window().label, "NVTX 'epoch 1'");
  EXPECT_EQ(view.window().a.length(), 524'043'146);
  EXPECT_EQ(view.window().b.length(), 322'162'438);
  auto* label = view.findChild<QLabel*>(QStringLiteral("summaryWindow"));
  ASSERT_NE(label, nullptr);
  EXPECT_EQ(label->text(), QStringLiteral("Aligned window: NVTX 'epoch 1', A 524.043 ms, B 322.162 ms"));
  EXPECT_EQ(view.windowText(), label->text());

  // The figures are those of the epoch: its span, the kernels that start in it, the GPU busy in it.
  EXPECT_EQ(metric(view, "Wall span").a, 524'043'146.0);
  EXPECT_EQ(metric(view, "Wall span").b, 322'162'438.0);
  for (bool isA : {true, false}) {
    const Trace& trace = isA ? *pair().a : *pair().b;
    const TimeInterval& window = isA ? view.window().a : view.window().b;
    auto [count, total] = kernelsIn(trace, window);
    EXPECT_GT(count, 0);
    EXPECT_LT(static_cast<size_t>(count), trace.counts().kernels);
    EXPECT_EQ(isA ? metric(view, "Kernels").a : metric(view, "Kernels").b, static_cast<double>(count));
    TimeNs busy = DeviceUtilization::forDevice(trace, trace.devices().front().id).busyTime(window.start, window.end);
    double share = 100.0 * static_cast<double>(busy) / static_cast<double>(window.length());
    const SummaryMetric& busyShare = metric(view, "GPU busy share");
    EXPECT_NEAR(isA ? busyShare.a : busyShare.b, share, 1e-9);
    EXPECT_GT(share, 0.1) << "the summary's one decimal shows the epoch's GPU busy as more than 0.0 %";
    // The kernel diff table adds up to the same kernels.
    int64_t tableCount = 0;
    TimeNs tableTotal = 0;
    for (const DiffRow& row : view.diff().rows) {
      tableCount += isA ? row.a.count : row.b.count;
      tableTotal += isA ? row.a.total : row.b.total;
    }
    EXPECT_EQ(tableCount, count);
    EXPECT_EQ(tableTotal, total);
  }
  // Over the whole runs the GPU is idle more of the time: the window is what shows the difference.
  const double epochShareA = metric(view, "GPU busy share").a;
  ASSERT_TRUE(view.setAlignment({}, {}, 0));
  EXPECT_LT(metric(view, "GPU busy share").a, epochShareA);
  EXPECT_TRUE(view.windowText().startsWith(QStringLiteral("Summary of the whole runs")))
      << view.windowText().toStdString();
}

TEST(CompareViewWindow, OpensOnTheAlignedRangeWithTheGpuRowsInView) {
  CompareView view(pair().a, pair().b);
  view.resize(1600, 1000);
  view.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
  const TimeInterval shown = view.window().viewOfA();
  EXPECT_EQ(view.sessionA()->viewStart(), view.window().a.start);
  EXPECT_EQ(view.sessionA()->viewStart(), shown.start);
  EXPECT_EQ(view.sessionA()->viewEnd(), shown.end);
  // A's epoch is the longer one: it fills the view; B's starts at the same place.
  EXPECT_EQ(view.sessionA()->viewEnd(), view.window().a.end);
  EXPECT_EQ(view.sessionB()->viewStart(), view.window().b.start);
  for (TimelineView* timeline : {view.timelineA(), view.timelineB()}) {
    const TimelineCanvas& canvas = *timeline->canvas();
    const Trace& trace = *(timeline == view.timelineA() ? pair().a : pair().b);
    uint32_t kernels = kernelTrack(trace);
    ASSERT_NE(kernels, TimelineRow::kNoTrack);
    EXPECT_FALSE(canvas.laneRect(kernels, 0).isEmpty()) << "the kernel row is below the fold";
    for (const TimelineRow& row : canvas.layout().rows()) {
      if (row.kind != RowKind::Process) continue;
      EXPECT_TRUE(row.collapsed) << row.label.toStdString();
    }
  }
}

TEST(CompareViewWindow, AClickInEitherPaneSelectsAndShowsDetails) {
  CompareView view(pair().a, pair().b);
  view.resize(1600, 1000);
  view.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
  EXPECT_EQ(view.shownDetails()->details().title, "");
  for (bool inA : {false, true}) {
    const Trace& trace = inA ? *pair().a : *pair().b;
    TraceSession* session = inA ? view.sessionA() : view.sessionB();
    TimelineCanvas* canvas = (inA ? view.timelineA() : view.timelineB())->canvas();
    // The first kernel of the aligned window, zoomed to so that it is a bar of its own.
    const TimeInterval& window = inA ? view.window().a : view.window().b;
    uint32_t track = kernelTrack(trace);
    const Lane& lane = trace.track(track).lanes[0];
    uint32_t index = 0;
    while (index < lane.size() && lane.start[index] < window.start) ++index;
    ASSERT_LT(index, lane.size());
    TimeNs duration = lane.end(index) - lane.start[index];
    session->setViewRange(lane.start[index] - duration, lane.end(index) + duration);
    QApplication::processEvents();
    QRect rect = canvas->laneRect(track, 0);
    ASSERT_FALSE(rect.isEmpty());
    QPoint at(static_cast<int>(canvas->xForTime(lane.start[index] + duration / 2)), rect.center().y());
    QTest::mouseClick(canvas, Qt::LeftButton, Qt::NoModifier, at);
    ASSERT_TRUE(session->selection().has_value());
    EXPECT_EQ(*session->selection(), (EventRef{track, 0, index}));
    EXPECT_EQ(view.shownDetails(), inA ? view.detailsA() : view.detailsB());
    EXPECT_EQ(view.shownDetails()->details().title, trace.string(lane.name[index]));
    EXPECT_EQ(view.shownDetails()->details().kind, "Kernel");
  }
}

TEST(CompareWindow, LoadsBothRunsInTheBackgroundWithProgress) {
  CompareWindow window;
  window.show();
  QSignalSpy progressA(window.loaderA(), &BackgroundTraceLoader::progressChanged);
  QSignalSpy loaded(&window, &CompareWindow::loaded);
  window.load(fixturePath("gpuscope/loader0.sqlite"), fixturePath("nsys/loader2.sqlite"));
  // load() returns at once: the traces are read on worker threads, the progress strips are up.
  EXPECT_TRUE(window.isLoading());
  EXPECT_EQ(window.view(), nullptr);
  EXPECT_FALSE(window.progressA()->isHidden());
  EXPECT_FALSE(window.progressB()->isHidden());
  ASSERT_TRUE(loaded.wait(kTimeoutMs));
  EXPECT_FALSE(window.isLoading());
  ASSERT_NE(window.view(), nullptr);
  EXPECT_GE(progressA.count(), 2);  // 0 at the start, 1 at the end, and any steps between
  EXPECT_EQ(window.view()->window().label, "NVTX 'epoch 1'");
  EXPECT_TRUE(window.progressA()->isHidden());
}

// Issue 40, point 7: the compare window has a menu bar (File, Help) and F1 opens the keyboard shortcuts.
TEST(CompareWindow, HasFileAndHelpMenusAndF1) {
  CompareWindow window;
  window.show();
  auto* bar = window.findChild<QMenuBar*>();
  ASSERT_TRUE(bar);
  QStringList menus;
  for (QAction* action : bar->actions()) menus << action->text().remove('&');
  EXPECT_EQ(menus, (QStringList{QStringLiteral("File"), QStringLiteral("Help")}));
  auto* keys = window.findChild<QAction*>(QStringLiteral("compareShortcuts"));
  ASSERT_TRUE(keys);
  EXPECT_EQ(keys->shortcut(), QKeySequence(Qt::Key_F1));
  auto* close = window.findChild<QAction*>(QStringLiteral("closeCompare"));
  ASSERT_TRUE(close);
  close->trigger();
  EXPECT_FALSE(window.isVisible());
}

TEST(CompareWindow, CancelStopsBothLoads) {
  CompareWindow window;
  QSignalSpy cancelled(&window, &CompareWindow::cancelled);
  QSignalSpy loaded(&window, &CompareWindow::loaded);
  window.load(fixturePath("gpuscope/loader0.sqlite"), fixturePath("nsys/loader2.sqlite"));
  // The Cancel button of one run's strip stops the whole comparison.
  window.progressB()->cancelButton()->click();
  EXPECT_EQ(cancelled.count(), 1);
  EXPECT_FALSE(window.isLoading());
  window.loaderA()->waitForWorkers();
  window.loaderB()->waitForWorkers();
  QApplication::processEvents();
  EXPECT_EQ(loaded.count(), 0);
  EXPECT_EQ(window.view(), nullptr);
  EXPECT_EQ(cancelled.count(), 1);
}

TEST(CompareWindow, AFileThatIsNotATraceFailsWithOneSentence) {
  CompareWindow window;
  QSignalSpy failed(&window, &CompareWindow::failed);
  window.load(fixturePath("gpuscope/loader0.sqlite"), fixturePath("nsys/loader2_stats_nvtx_sum.csv"));
  ASSERT_TRUE(failed.wait(kTimeoutMs));
  ASSERT_EQ(failed.count(), 1);
  const QString message = failed.front().front().toString();
  EXPECT_FALSE(message.isEmpty());
  EXPECT_FALSE(message.contains(QLatin1Char('\n')));
  EXPECT_FALSE(window.isLoading());
  EXPECT_EQ(window.view(), nullptr);
}

}  // namespace
}  // namespace gpuscope::ui
