// Selecting a CPU sample: a click on (or a few pixels beside) a sample tick of a thread-state row selects
// that sample, the details panel shows its backtrace, and the tick is drawn taller in the selection colour;
// a click on empty space, Escape or selecting an event clears it, and a click on the state strip picks none.
#include <gtest/gtest.h>

#include <QApplication>
#include <QImage>
#include <QScrollBar>
#include <QTest>
#include <QTreeWidget>
#include <filesystem>
#include <memory>
#include <string>

#include "core/model/global_id.h"
#include "core/model/trace_loader.h"
#include "core/samples/host_activity.h"
#include "core/samples/sample_rows.h"
#include "core/write/trace_writer.h"
#include "tests/core/testing/test_files.h"
#include "tests/ui/timeline/timeline_test_trace.h"
#include "ui/details/details_panel.h"
#include "ui/session/trace_session.h"
#include "ui/timeline/thread_state_row_kind.h"
#include "ui/timeline/timeline_canvas.h"
#include "ui/timeline/timeline_palette.h"
#include "ui/timeline/timeline_view.h"

namespace gpuscope::ui {
namespace {

constexpr uint32_t kPickPid = 70, kPickTid = 71;
constexpr TimeNs kPickTraceStart = 100;
constexpr TimeNs kPickNativeSample = 1000, kPickPythonSample = 2000;

// Thread 70/71 calls poll over [100, 9000) and runs [500, 8000); sampled at 1000 in hot_a (called by main,
// both in /bin/app) and at 2000 in Python (busy, called from train.py's module code).
std::shared_ptr<const Trace> samplePickTrace() {
  std::string path = testing::processTempPath("sample_selection", "trace.sqlite");
  SampleRows rows;
  rows.stacks.push_back({{"hot_a", "/bin/app", 0x1010, false, false}, {"main", "/bin/app", 0x1100, false, false}});
  rows.stacks.push_back({{"py::busy:/x/train.py:17", "/x/train.py", 0, false, true},
                         {"py::<module>:/x/train.py:30", "/x/train.py", 0, false, true}});
  rows.samples.push_back({kPickNativeSample, kPickPid, kPickTid, 2, 0});
  rows.samples.push_back({kPickPythonSample, kPickPid, kPickTid, 2, 1});
  rows.switches.push_back({500, kPickPid, kPickTid, 2, true, false});
  rows.switches.push_back({8000, kPickPid, kPickTid, 2, false, false});
  {
    TraceWriter writer(path);
    writer.addProcess({global_id::make(0, 0, kPickPid, 0), kPickPid, "app"});
    writer.addThreadName({global_id::make(0, 0, kPickPid, kPickTid), "worker"});
    writer.addOsRuntime({kPickTraceStart, 9000, global_id::make(0, 0, kPickPid, kPickTid), "poll"});
    writeSampleTables(writer, rows);
    writer.finish();
  }
  std::shared_ptr<const Trace> trace = loadTrace(path);
  std::filesystem::remove(path);
  return trace;
}

bool samplePickColourIs(QRgb pixel, const QColor& color) {
  return std::abs(qRed(pixel) - color.red()) <= 4 && std::abs(qGreen(pixel) - color.green()) <= 4 &&
         std::abs(qBlue(pixel) - color.blue()) <= 4;
}

class SampleSelection : public ::testing::Test {
 protected:
  void SetUp() override {
    trace_ = samplePickTrace();
    session_.setTrace(trace_);
    view_ = std::make_unique<TimelineView>(&session_);
    view_->resize(
        TimelineCanvas::kLabelWidth + timeline_test::kAreaWidth + view_->verticalScrollBar()->sizeHint().width(), 400);
    view_->show();
    details_.resize(500, 600);
    details_.show();
    QApplication::processEvents();
    canvas_ = view_->canvas();
    ASSERT_EQ(canvas_->eventArea().width(), timeline_test::kAreaWidth);
    session_.setViewRange(kPickTraceStart, kPickTraceStart + 10 * timeline_test::kAreaWidth);  // 10 ns a pixel
    const auto& rows = canvas_->layout().rows();
    for (size_t i = 0; i < rows.size(); ++i)
      if (rows[i].kind == RowKind::ThreadState) stateRow_ = static_cast<int>(i);
    ASSERT_GE(stateRow_, 0);
    ASSERT_EQ(canvas_->layout().placementOf(stateRow_).row, stateRow_);  // shown, not folded away
    rowTop_ = canvas_->eventArea().top() + canvas_->layout().placementOf(stateRow_).top;
  }

  int xAt(TimeNs t) const { return canvas_->eventArea().left() + static_cast<int>((t - kPickTraceStart) / 10); }
  int tickY() const { return rowTop_ + ThreadStateRowKind::kTickTop + ThreadStateRowKind::kTickHeight / 2; }
  int stripY() const { return rowTop_ + ThreadStateRowKind::kStripTop + ThreadStateRowKind::kStripHeight / 2; }
  void click(int x, int y) { QTest::mouseClick(canvas_, Qt::LeftButton, Qt::NoModifier, QPoint(x, y)); }
  QImage grab() const { return canvas_->grab().toImage(); }
  TimeNs selectedSampleTime() const { return hostActivity(*trace_).samples().start[session_.selectedSample()->index]; }

  std::shared_ptr<const Trace> trace_;
  TraceSession session_;
  std::unique_ptr<TimelineView> view_;
  DetailsPanel details_{&session_};
  TimelineCanvas* canvas_ = nullptr;
  int stateRow_ = -1;
  int rowTop_ = 0;
};

TEST_F(SampleSelection, ClickingATickShowsTheSamplesBacktraceInTheDetails) {
  click(xAt(kPickNativeSample) + 2, tickY());  // two pixels beside the tick still reaches it
  ASSERT_TRUE(session_.selectedSample().has_value());
  EXPECT_FALSE(session_.selection().has_value());
  EXPECT_EQ(selectedSampleTime(), kPickNativeSample);
  EXPECT_EQ(details_.details().kind, "CPU sample");
  EXPECT_EQ(details_.details().title, "hot_a");
  EXPECT_EQ(details_.shownValue(QStringLiteral("#0"), QStringLiteral("Backtrace")), QStringLiteral("hot_a — app"));
  EXPECT_EQ(details_.shownValue(QStringLiteral("#1"), QStringLiteral("Backtrace")), QStringLiteral("main — app"));
  EXPECT_EQ(details_.shownValue(QStringLiteral("Thread")), QStringLiteral("worker (tid 71)"));
  EXPECT_EQ(details_.shownValue(QStringLiteral("CPU")), QStringLiteral("2"));
  EXPECT_FALSE(details_.tree()->isHidden());

  click(xAt(kPickPythonSample), tickY());
  ASSERT_TRUE(session_.selectedSample().has_value());
  EXPECT_EQ(selectedSampleTime(), kPickPythonSample);
  EXPECT_EQ(details_.shownValue(QStringLiteral("#0"), QStringLiteral("Backtrace")),
            QStringLiteral("busy (train.py:17)"));
  EXPECT_EQ(details_.shownValue(QStringLiteral("#1"), QStringLiteral("Backtrace")),
            QStringLiteral("<module> (train.py:30)"));
}

TEST_F(SampleSelection, TheSelectedTickIsDrawnTallerInTheSelectionColour) {
  QImage before = grab();
  EXPECT_TRUE(samplePickColourIs(before.pixel(xAt(kPickNativeSample), tickY()), timeline_colors::kSampleTick));
  EXPECT_FALSE(samplePickColourIs(before.pixel(xAt(kPickNativeSample), stripY()), timeline_colors::kSelection));
  click(xAt(kPickNativeSample), tickY());
  ASSERT_TRUE(session_.selectedSample().has_value());
  QImage after = grab();
  const int x = xAt(kPickNativeSample);
  // Over the tick, across the state strip above it, and a pixel to each side.
  for (int dx : {-1, 0, 1}) {
    EXPECT_TRUE(samplePickColourIs(after.pixel(x + dx, tickY()), timeline_colors::kSelection)) << dx;
    EXPECT_TRUE(samplePickColourIs(after.pixel(x + dx, stripY()), timeline_colors::kSelection)) << dx;
  }
  EXPECT_FALSE(samplePickColourIs(after.pixel(x + 3, stripY()), timeline_colors::kSelection));
  // The other sample's tick stays as it was.
  EXPECT_TRUE(samplePickColourIs(after.pixel(xAt(kPickPythonSample), tickY()), timeline_colors::kSampleTick));
}

TEST_F(SampleSelection, EmptySpaceEscapeOrAnEventClearIt) {
  click(xAt(kPickNativeSample), tickY());
  ASSERT_TRUE(session_.selectedSample().has_value());
  click(xAt(5000), tickY());  // no sample within reach
  EXPECT_FALSE(session_.selectedSample().has_value());
  EXPECT_TRUE(details_.details().title.empty());
  EXPECT_TRUE(details_.tree()->isHidden());
  EXPECT_FALSE(samplePickColourIs(grab().pixel(xAt(kPickNativeSample), stripY()), timeline_colors::kSelection));

  click(xAt(kPickNativeSample), tickY());
  ASSERT_TRUE(session_.selectedSample().has_value());
  QTest::keyClick(canvas_, Qt::Key_Escape);
  EXPECT_FALSE(session_.selectedSample().has_value());
  EXPECT_TRUE(details_.details().title.empty());

  click(xAt(kPickNativeSample), tickY());
  ASSERT_TRUE(session_.selectedSample().has_value());
  uint32_t osrt = TimelineRow::kNoTrack;
  for (uint32_t t = 0; t < trace_->tracks().size(); ++t)
    if (trace_->track(t).kind == TrackKind::OsRuntime) osrt = t;
  ASSERT_NE(osrt, TimelineRow::kNoTrack);
  canvas_->selectEvent(EventRef{osrt, 0, 0});
  EXPECT_FALSE(session_.selectedSample().has_value());
  EXPECT_EQ(details_.details().title, "poll");
}

TEST_F(SampleSelection, AClickOnTheStateStripPicksNoSample) {
  click(xAt(kPickNativeSample), stripY());
  EXPECT_FALSE(session_.selectedSample().has_value());
  EXPECT_TRUE(details_.details().title.empty());
}

}  // namespace
}  // namespace gpuscope::ui
