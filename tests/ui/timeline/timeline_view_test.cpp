// TimelineView on offscreen widgets: pixels where the times say, zoom, folding, selection, flow
// arrows, the ruler, keys and find.
#include "ui/timeline/timeline_view.h"

#include <gtest/gtest.h>

#include <QApplication>
#include <QHelpEvent>
#include <QImage>
#include <QScrollBar>
#include <QTest>
#include <QToolTip>
#include <QWheelEvent>
#include <cmath>
#include <cstdlib>

#include "core/model/trace_loader.h"
#include "core/model/trace_summary.h"
#include "core/query/draw_list.h"
#include "tests/ui/timeline/timeline_test_trace.h"
#include "ui/session/trace_session.h"
#include "ui/timeline/timeline_canvas.h"
#include "ui/timeline/timeline_find_bar.h"
#include "ui/timeline/timeline_name_cache.h"
#include "ui/timeline/timeline_palette.h"

namespace gpuscope::ui {
namespace {

using timeline_test::HandMade;

using timeline_test::kAreaWidth;

bool sameColor(QRgb pixel, const QColor& color, int tolerance = 2) {
  return std::abs(qRed(pixel) - color.red()) <= tolerance && std::abs(qGreen(pixel) - color.green()) <= tolerance &&
         std::abs(qBlue(pixel) - color.blue()) <= tolerance;
}

std::string describe(QRgb pixel) { return QColor(pixel).name().toStdString(); }

class TimelineViewTest : public ::testing::Test {
 protected:
  void open(std::shared_ptr<const Trace> trace) {
    trace_ = trace;
    session_.setTrace(trace);
    view_ = std::make_unique<TimelineView>(&session_);
    // The canvas gets the width left by the scroll bar: size the view so that the event area is
    // exactly kAreaWidth pixels.
    int bar = view_->verticalScrollBar()->sizeHint().width();
    view_->resize(TimelineCanvas::kLabelWidth + kAreaWidth + bar, 700);
    view_->show();
    QApplication::setActiveWindow(view_.get());
    canvas_ = view_->canvas();
    canvas_->setFocus();
    QApplication::processEvents();
    canvas_ = view_->canvas();
    ASSERT_EQ(canvas_->eventArea().width(), kAreaWidth);
  }
  void openHandMade() {
    open(timeline_test::loadHandMadeTrace());
    apiTrack_ = timeline_test::findTrack(*trace_, TrackKind::CudaApi, "cudaLaunchKernel_v7000");
    kernelTrack_ = timeline_test::findTrack(*trace_, TrackKind::GpuKernels, "kernelA");
    tinyTrack_ = timeline_test::findTrack(*trace_, TrackKind::GpuKernels, "tiny");
    nvtxTrack_ = timeline_test::findTrack(*trace_, TrackKind::Nvtx, "step");
    ASSERT_GE(apiTrack_, 0);
    ASSERT_GE(kernelTrack_, 0);
    ASSERT_GE(tinyTrack_, 0);
    ASSERT_GE(nvtxTrack_, 0);
  }
  QImage frame() { return canvas_->grab().toImage(); }
  int x(TimeNs t) const { return static_cast<int>(std::floor(canvas_->xForTime(t))); }
  int laneY(int track, uint32_t lane = 0) const {
    QRect rect = canvas_->laneRect(static_cast<uint32_t>(track), lane);
    EXPECT_FALSE(rect.isEmpty()) << "track " << track << " lane " << lane << " is not on screen";
    return rect.center().y();
  }
  // A pixel row inside the bars of a lane that no name text reaches (bars start 1 px below the lane top).
  int barY(int track, uint32_t lane = 0) const {
    QRect rect = canvas_->laneRect(static_cast<uint32_t>(track), lane);
    EXPECT_FALSE(rect.isEmpty()) << "track " << track << " lane " << lane << " is not on screen";
    return rect.top() + 2;
  }
  EventRef kernelA() const { return EventRef{static_cast<uint32_t>(kernelTrack_), 0, 0}; }
  EventRef launchOfA() const { return EventRef{static_cast<uint32_t>(apiTrack_), 0, 0}; }

  TraceSession session_;
  std::shared_ptr<const Trace> trace_;
  std::unique_ptr<TimelineView> view_;
  TimelineCanvas* canvas_ = nullptr;
  int apiTrack_ = -1;
  int kernelTrack_ = -1;
  int tinyTrack_ = -1;
  int nvtxTrack_ = -1;
};

TEST_F(TimelineViewTest, KernelBarsSitAtThePixelsTheirTimesMapTo) {
  openHandMade();
  session_.setViewRange(0, 10000);  // 10 ns per pixel
  ASSERT_DOUBLE_EQ(canvas_->nsPerPixel(), 10.0);
  QImage image = frame();
  int y = barY(kernelTrack_);
  QColor colorA = eventColor(TrackKind::GpuKernels, nameColorKey(QStringLiteral("kernelA")), 0);
  QColor colorB = eventColor(TrackKind::GpuKernels, nameColorKey(QStringLiteral("kernelB")), 0);
  int left = TimelineCanvas::kLabelWidth;
  // kernelA covers [2500, 6000): pixels 250..599 of the area; kernelB [6500, 8000): 650..799.
  EXPECT_EQ(x(HandMade::kKernelAStart), left + 250);
  for (int px : {252, 300, 450, 598}) {
    EXPECT_TRUE(sameColor(image.pixel(left + px, y), colorA))
        << "pixel " << px << " is " << describe(image.pixel(left + px, y));
  }
  for (int px : {248, 601, 620, 648}) {
    EXPECT_FALSE(sameColor(image.pixel(left + px, y), colorA)) << "pixel " << px << " should be empty";
    EXPECT_FALSE(sameColor(image.pixel(left + px, y), colorB)) << "pixel " << px << " should be empty";
  }
  for (int px : {652, 700, 798}) {
    EXPECT_TRUE(sameColor(image.pixel(left + px, y), colorB))
        << "pixel " << px << " is " << describe(image.pixel(left + px, y));
  }

  // Panned by 2000 ns, the bars move 200 px to the left.
  session_.setViewRange(2000, 12000);
  image = frame();
  EXPECT_TRUE(sameColor(image.pixel(left + 52, y), colorA));
  EXPECT_TRUE(sameColor(image.pixel(left + 398, y), colorA));
  EXPECT_FALSE(sameColor(image.pixel(left + 420, y), colorA));
  EXPECT_TRUE(sameColor(image.pixel(left + 452, y), colorB));
}

TEST_F(TimelineViewTest, NvtxRangesUseTheTraceColourAndNest) {
  openHandMade();
  session_.setViewRange(0, 10000);
  QImage image = frame();
  // "step" [500, 9500) in lane 0 is red; "forward" [900, 4000) lies under it in lane 1.
  QRgb step = image.pixel(x(7000), barY(nvtxTrack_, 0));
  EXPECT_TRUE(sameColor(step, QColor(0xff, 0x00, 0x00))) << describe(step);
  QColor forward = eventColor(TrackKind::Nvtx, nameColorKey(QStringLiteral("forward")), 0);
  QRgb nested = image.pixel(x(2000), barY(nvtxTrack_, 1));
  EXPECT_TRUE(sameColor(nested, forward)) << describe(nested);
  EXPECT_FALSE(sameColor(image.pixel(x(6000), barY(nvtxTrack_, 1)), forward));
}

TEST_F(TimelineViewTest, WheelZoomKeepsTheTimeUnderTheCursor) {
  openHandMade();
  session_.setViewRange(0, 10000);
  const int cursorX = TimelineCanvas::kLabelWidth + 300;
  const TimeNs before = canvas_->timeAtX(cursorX);
  ASSERT_EQ(before, 3000);
  const QPointF at(cursorX, 200);
  for (int notch = 0; notch < 8; ++notch) {
    QWheelEvent wheel(at, canvas_->mapToGlobal(at), QPoint(), QPoint(0, 120), Qt::NoButton, Qt::NoModifier,
                      Qt::NoScrollPhase, false);
    QApplication::sendEvent(canvas_, &wheel);
    EXPECT_LE(std::abs(canvas_->timeAtX(cursorX) - before), std::max<TimeNs>(1, std::llround(canvas_->nsPerPixel())))
        << "after zooming in " << notch + 1 << " notches";
  }
  TimeNs span = session_.viewEnd() - session_.viewStart();
  EXPECT_NEAR(static_cast<double>(span), 10000 * std::pow(0.8, 8), 8.0);
  for (int notch = 0; notch < 5; ++notch) {
    QWheelEvent wheel(at, canvas_->mapToGlobal(at), QPoint(), QPoint(0, -120), Qt::NoButton, Qt::NoModifier,
                      Qt::NoScrollPhase, false);
    QApplication::sendEvent(canvas_, &wheel);
    EXPECT_LE(std::abs(canvas_->timeAtX(cursorX) - before), std::max<TimeNs>(1, std::llround(canvas_->nsPerPixel())));
  }
  EXPECT_GT(session_.viewEnd() - session_.viewStart(), span);
}

TEST_F(TimelineViewTest, SubPixelEventsFoldIntoCountedBlocks) {
  openHandMade();
  // The whole trace, about 12.5 ns per pixel: the 1000 tiny kernels (2 ns each, 3 ns apart) fold.
  session_.fitAll();
  QImage image = frame();
  EXPECT_GT(canvas_->lastFrame().folds, 0u);
  std::vector<DrawItem> items;
  const Lane& tiny = trace_->track(static_cast<uint32_t>(tinyTrack_)).lanes[0];
  buildDrawList(tiny, DrawView{session_.viewStart(), session_.viewEnd(), canvas_->nsPerPixel(), 3.0}, items);
  ASSERT_EQ(items.size(), 1u);
  EXPECT_EQ(items[0].count, static_cast<uint32_t>(HandMade::kTinyCount));
  // The block is painted by its density across its span (the kernels are busy 2 ns in 3, so the fold
  // colour fills the lower two thirds of the bar and a faint wash the rest), with its count written on it:
  // the text pixels differ from the fill somewhere in the middle of the block.
  int y = laneY(tinyTrack_);
  int x0 = x(HandMade::kTinyStart);
  int x1 = x(HandMade::kTinyStart + 3 * HandMade::kTinyCount);
  QColor fold = foldColor(TrackKind::GpuKernels);
  EXPECT_TRUE(sameColor(image.pixel(x0 + 2, y + 7), fold)) << describe(image.pixel(x0 + 2, y + 7));
  EXPECT_TRUE(sameColor(image.pixel(x1 - 3, y + 7), fold)) << describe(image.pixel(x1 - 3, y + 7));
  EXPECT_FALSE(sameColor(image.pixel(x0 + 2, y - 7), fold, 40)) << describe(image.pixel(x0 + 2, y - 7));
  int textPixels = 0;
  for (int px = x0 + 2; px < x1 - 2; ++px) {
    if (!sameColor(image.pixel(px, y), fold, 40)) ++textPixels;
  }
  EXPECT_GT(textPixels, 5) << "the count is not written on the block";

  // Zoomed in to 0.1 ns per pixel, the same events are separate bars.
  session_.setViewRange(HandMade::kTinyStart, HandMade::kTinyStart + 100);
  image = frame();
  QColor tinyColor = eventColor(TrackKind::GpuKernels, nameColorKey(QStringLiteral("tiny")), 0);
  EXPECT_TRUE(sameColor(image.pixel(x(HandMade::kTinyStart + 1), barY(tinyTrack_)), tinyColor));
  EXPECT_FALSE(
      sameColor(image.pixel(x(HandMade::kTinyStart) + 25, barY(tinyTrack_)), tinyColor));  // the 1 ns gap at 2.5 ns
}

TEST_F(TimelineViewTest, ClickingAKernelSelectsItInTheSession) {
  openHandMade();
  session_.setViewRange(0, 10000);
  frame();
  QTest::mouseClick(canvas_, Qt::LeftButton, Qt::NoModifier, QPoint(x(4000), laneY(kernelTrack_)));
  ASSERT_TRUE(session_.selection().has_value());
  EXPECT_EQ(*session_.selection(), kernelA());
  QTest::mouseClick(canvas_, Qt::LeftButton, Qt::NoModifier, QPoint(x(7000), laneY(kernelTrack_)));
  ASSERT_TRUE(session_.selection().has_value());
  EXPECT_EQ(*session_.selection(), (EventRef{static_cast<uint32_t>(kernelTrack_), 0, 1}));
  // Empty space clears the selection.
  QTest::mouseClick(canvas_, Qt::LeftButton, Qt::NoModifier, QPoint(x(6250), laneY(kernelTrack_)));
  EXPECT_FALSE(session_.selection().has_value());
}

TEST_F(TimelineViewTest, SelectedKernelGetsAnArrowFromItsApiCall) {
  openHandMade();
  session_.setViewRange(0, 10000);
  session_.select(kernelA());
  QImage image = frame();
  ASSERT_EQ(canvas_->flowArrows().size(), 1u);
  QLineF arrow = canvas_->flowArrows().front();
  EXPECT_NEAR(arrow.p1().x(), canvas_->xForTime(HandMade::kApi1Start), 0.5);
  EXPECT_NEAR(arrow.p2().x(), canvas_->xForTime(HandMade::kKernelAStart), 0.5);
  EXPECT_NEAR(arrow.p1().y(), canvas_->laneRect(static_cast<uint32_t>(apiTrack_), 0).bottom(), 1.5);
  EXPECT_NEAR(arrow.p2().y(), canvas_->laneRect(static_cast<uint32_t>(kernelTrack_), 0).top(), 1.5);
  // The arrow's head is drawn just above the kernel, and its shaft leaves the API call.
  QColor arrowColor = timeline_colors::kFlowArrow;
  auto arrowNear = [&](QPointF at) {
    for (int dx = -1; dx <= 1; ++dx) {
      for (int dy = -1; dy <= 1; ++dy) {
        if (sameColor(image.pixel(static_cast<int>(at.x()) + dx, static_cast<int>(at.y()) + dy), arrowColor, 30))
          return true;
      }
    }
    return false;
  };
  EXPECT_TRUE(arrowNear(arrow.p2() - QPointF(0, 4)));
  EXPECT_TRUE(arrowNear(arrow.p1() + QPointF(0, 6)));
  // Without a selection there is no arrow and those pixels are not arrow-coloured.
  session_.select(std::nullopt);
  image = frame();
  EXPECT_TRUE(canvas_->flowArrows().empty());
  EXPECT_FALSE(arrowNear(arrow.p2() - QPointF(0, 4)));

  // Selecting the API call draws the same arrow, to the work it launched.
  session_.select(launchOfA());
  frame();
  ASSERT_EQ(canvas_->flowArrows().size(), 1u);
  EXPECT_NEAR(canvas_->flowArrows().front().p2().x(), canvas_->xForTime(HandMade::kKernelAStart), 0.5);
}

TEST_F(TimelineViewTest, KernelSelectedElsewhereBringsItsLaunchingCallIntoViewToo) {
  openHandMade();
  session_.setViewRange(0, 10000);
  const TimelineLayout& layout = canvas_->layout();
  TimelineLayout::Placement call = layout.placementOf(layout.rowOfTrack(static_cast<uint32_t>(apiTrack_)));
  TimelineLayout::Placement work = layout.placementOf(layout.rowOfTrack(static_cast<uint32_t>(kernelTrack_)));
  ASSERT_LT(call.top, work.top);
  // A view just tall enough for both rows, scrolled to the bottom: the call's row is off screen.
  view_->resize(view_->width(),
                TimelineCanvas::kRulerHeight + work.bottom() - call.top + 2 * TrackRowKind::kLaneHeight);
  QApplication::processEvents();
  view_->verticalScrollBar()->setValue(view_->verticalScrollBar()->maximum());
  QApplication::processEvents();
  ASSERT_TRUE(canvas_->laneRect(static_cast<uint32_t>(apiTrack_), 0).isEmpty()) << "the test needs the call hidden";
  session_.select(kernelA());
  EXPECT_FALSE(canvas_->laneRect(static_cast<uint32_t>(kernelTrack_), 0).isEmpty());
  EXPECT_FALSE(canvas_->laneRect(static_cast<uint32_t>(apiTrack_), 0).isEmpty());
}

TEST_F(TimelineViewTest, JumpKeyGoesBetweenApiCallAndItsWork) {
  openHandMade();
  session_.setViewRange(0, 10000);
  session_.select(launchOfA());
  QTest::keyClick(canvas_, Qt::Key_J);
  ASSERT_TRUE(session_.selection().has_value());
  EXPECT_EQ(*session_.selection(), kernelA());
  QTest::keyClick(canvas_, Qt::Key_J);
  EXPECT_EQ(*session_.selection(), launchOfA());
}

TEST_F(TimelineViewTest, RulerUnitsFollowTheZoom) {
  openHandMade();
  session_.setViewRange(0, 500);
  EXPECT_EQ(canvas_->rulerScale().unit, TimeUnit::Ns);
  session_.setViewRange(0, 50000);
  EXPECT_EQ(canvas_->rulerScale().unit, TimeUnit::Us);
  session_.setViewRange(0, 50000000);
  EXPECT_EQ(canvas_->rulerScale().unit, TimeUnit::Ms);
  session_.setViewRange(0, 50000000000);
  EXPECT_EQ(canvas_->rulerScale().unit, TimeUnit::S);
  // Ticks are far enough apart for their labels.
  session_.setViewRange(0, 1000);
  RulerScale scale = canvas_->rulerScale();
  EXPECT_GE(static_cast<double>(scale.step) / canvas_->nsPerPixel(), 90.0);
  // Ticks count from the trace start (500 ns), not from zero: at 2 ns per pixel the step is
  // 200 ns, so there are marks at 500, 700 and 900 and none at 600 or 800.
  session_.setViewRange(0, 2000);
  ASSERT_EQ(canvas_->rulerScale().step, 200);
  QImage image = frame();
  auto tickAt = [&](TimeNs t) {
    int dark = 0;
    for (int dy = 0; dy < 6; ++dy) dark += qGray(image.pixel(x(t), TimelineCanvas::kRulerHeight - 3 - dy)) < 100;
    return dark >= 5;
  };
  EXPECT_TRUE(tickAt(500));
  EXPECT_TRUE(tickAt(700));
  EXPECT_TRUE(tickAt(900));
  EXPECT_FALSE(tickAt(600));
  EXPECT_FALSE(tickAt(800));
}

TEST_F(TimelineViewTest, DragOnTheRulerPicksARange) {
  openHandMade();
  session_.setViewRange(0, 10000);
  QPoint from(x(2000), TimelineCanvas::kRulerHeight / 2);
  QPoint to(x(5000), TimelineCanvas::kRulerHeight / 2);
  QTest::mousePress(canvas_, Qt::LeftButton, Qt::NoModifier, from);
  QMouseEvent move(QEvent::MouseMove, QPointF(to), canvas_->mapToGlobal(QPointF(to)), Qt::NoButton, Qt::LeftButton,
                   Qt::NoModifier);
  QApplication::sendEvent(canvas_, &move);
  QTest::mouseRelease(canvas_, Qt::LeftButton, Qt::NoModifier, to);
  EXPECT_EQ(session_.rangeStart(), 2000);
  EXPECT_EQ(session_.rangeEnd(), 5000);
  // F fits the range (with 5% margins), Escape clears it.
  QTest::keyClick(canvas_, Qt::Key_F);
  EXPECT_NEAR(static_cast<double>(session_.viewStart()), 1850, 1);
  EXPECT_NEAR(static_cast<double>(session_.viewEnd()), 5150, 1);
  QTest::keyClick(canvas_, Qt::Key_Escape);
  EXPECT_EQ(session_.rangeStart(), session_.rangeEnd());
}

TEST_F(TimelineViewTest, KeysZoomPanAndFit) {
  openHandMade();
  session_.setViewRange(0, 10000);
  QTest::keyClick(canvas_, Qt::Key_W);
  EXPECT_NEAR(static_cast<double>(session_.viewEnd() - session_.viewStart()), 8000, 1);
  QTest::keyClick(canvas_, Qt::Key_S);
  EXPECT_NEAR(static_cast<double>(session_.viewEnd() - session_.viewStart()), 10000, 1);
  TimeNs start = session_.viewStart();
  QTest::keyClick(canvas_, Qt::Key_D);
  EXPECT_NEAR(static_cast<double>(session_.viewStart() - start), 1500, 1);
  QTest::keyClick(canvas_, Qt::Key_A);
  EXPECT_NEAR(static_cast<double>(session_.viewStart() - start), 0, 1);
  session_.select(kernelA());
  QTest::keyClick(canvas_, Qt::Key_F);  // fits the selection
  EXPECT_LE(session_.viewStart(), HandMade::kKernelAStart);
  EXPECT_GE(session_.viewEnd(), HandMade::kKernelAEnd);
  EXPECT_LT(session_.viewEnd() - session_.viewStart(), 4000);
  QTest::keyClick(canvas_, Qt::Key_Escape);
  EXPECT_FALSE(session_.selection().has_value());
  QTest::keyClick(canvas_, Qt::Key_F);  // nothing selected: the whole trace
  EXPECT_EQ(session_.viewStart(), trace_->startTime());
  EXPECT_EQ(session_.viewEnd(), trace_->endTime());
}

TEST_F(TimelineViewTest, ZoomingOutAndPanningStopAtTheTraceEnds) {
  openHandMade();
  const Trace& trace = *session_.trace();
  session_.fitAll();
  for (int i = 0; i < 12; ++i) QTest::keyClick(canvas_, Qt::Key_S);
  for (int i = 0; i < 12; ++i) QTest::keyClick(canvas_, Qt::Key_A);
  double span = static_cast<double>(session_.viewEnd() - session_.viewStart());
  double traceSpan = static_cast<double>(trace.endTime() - trace.startTime());
  EXPECT_LE(span, traceSpan * 1.12);
  EXPECT_GE(static_cast<double>(session_.viewStart()), static_cast<double>(trace.startTime()) - span * 0.051);
  for (int i = 0; i < 12; ++i) QTest::keyClick(canvas_, Qt::Key_D);
  EXPECT_LE(static_cast<double>(session_.viewEnd()), static_cast<double>(trace.endTime()) + span * 0.051);
}

TEST_F(TimelineViewTest, ANameHasOneColourInEveryTrace) {
  // loader0 (a gpuscope recording) and loader2 (nsys) share kernel names under different string ids.
  auto a = loadTrace(std::string(GPUSCOPE_FIXTURES) + "/gpuscope/loader0.sqlite");
  auto b = loadTrace(std::string(GPUSCOPE_FIXTURES) + "/nsys/loader2.sqlite");
  TimelineNameCache namesA;
  TimelineNameCache namesB;
  namesA.reset(a.get());
  namesB.reset(b.get());
  size_t compared = 0;
  size_t differentIds = 0;
  for (StringId idA = 0; idA < a->stringCount(); ++idA) {
    const std::string& name = a->string(idA);
    if (name.empty() || name.find("kernel") == std::string::npos) continue;
    for (StringId idB = 0; idB < b->stringCount(); ++idB) {
      if (b->string(idB) != name) continue;
      ++compared;
      differentIds += idA != idB;
      EXPECT_EQ(eventColor(TrackKind::GpuKernels, namesA.colorKey(idA), 0),
                eventColor(TrackKind::GpuKernels, namesB.colorKey(idB), 0))
          << name;
    }
  }
  EXPECT_GT(differentIds, 0u);
  EXPECT_GT(compared, 0u);
}

TEST_F(TimelineViewTest, DragPansTheView) {
  openHandMade();
  session_.setViewRange(0, 10000);
  QPoint from(x(5000), laneY(kernelTrack_) + 200);
  QPoint to = from + QPoint(-100, 0);
  QTest::mousePress(canvas_, Qt::LeftButton, Qt::NoModifier, from);
  QMouseEvent move(QEvent::MouseMove, QPointF(to), canvas_->mapToGlobal(QPointF(to)), Qt::NoButton, Qt::LeftButton,
                   Qt::NoModifier);
  QApplication::sendEvent(canvas_, &move);
  QTest::mouseRelease(canvas_, Qt::LeftButton, Qt::NoModifier, to);
  EXPECT_EQ(session_.viewStart(), 1000);  // 100 px at 10 ns per pixel
  EXPECT_EQ(session_.viewEnd(), 11000);
  EXPECT_FALSE(session_.selection().has_value());  // a drag is not a click
}

TEST_F(TimelineViewTest, HeadersCollapseAndLabelsStayWhileScrolling) {
  openHandMade();
  session_.setViewRange(0, 10000);
  const TimelineLayout& layout = canvas_->layout();
  int kernelRow = layout.rowOfTrack(static_cast<uint32_t>(kernelTrack_));
  int streamRow = layout.row(kernelRow).parent;
  ASSERT_GE(streamRow, 0);
  ASSERT_TRUE(layout.row(streamRow).isHeader());
  EXPECT_FALSE(canvas_->laneRect(static_cast<uint32_t>(kernelTrack_), 0).isEmpty());
  // Click the stream's label: its rows fold away, and the collapsed header shows their work.
  int headerY = TimelineCanvas::kRulerHeight + layout.placementOf(streamRow).top + 5;
  QTest::mouseClick(canvas_, Qt::LeftButton, Qt::NoModifier, QPoint(40, headerY));
  EXPECT_TRUE(layout.row(streamRow).collapsed);
  EXPECT_TRUE(canvas_->laneRect(static_cast<uint32_t>(kernelTrack_), 0).isEmpty());
  QImage image = frame();
  QColor colorA = eventColor(TrackKind::GpuKernels, nameColorKey(QStringLiteral("kernelA")), 0);
  EXPECT_TRUE(sameColor(image.pixel(x(4000), headerY + 6), colorA)) << describe(image.pixel(x(4000), headerY + 6));
  QTest::mouseClick(canvas_, Qt::LeftButton, Qt::NoModifier, QPoint(40, headerY));
  EXPECT_FALSE(layout.row(streamRow).collapsed);

  // A short view scrolls; the label column is painted at every scroll position.
  view_->resize(view_->width(), 160);
  QApplication::processEvents();
  QScrollBar* bar = view_->verticalScrollBar();
  ASSERT_GT(bar->maximum(), 0);
  bar->setValue(bar->maximum());
  image = frame();
  int textPixels = 0;
  for (int py = TimelineCanvas::kRulerHeight; py < image.height(); ++py) {
    for (int px = 0; px < TimelineCanvas::kLabelWidth - 2; ++px) textPixels += qGray(image.pixel(px, py)) < 110;
  }
  EXPECT_GT(textPixels, 40) << "no labels in the label column after scrolling";
  QColor column = timeline_colors::kLabelColumn;
  EXPECT_TRUE(sameColor(image.pixel(TimelineCanvas::kLabelWidth - 4, image.height() - 3), column) ||
              sameColor(image.pixel(TimelineCanvas::kLabelWidth - 4, image.height() - 3), column.darker(104)) ||
              sameColor(image.pixel(TimelineCanvas::kLabelWidth - 4, image.height() - 3),
                        timeline_colors::kHeaderRow.darker(104)));
}

TEST_F(TimelineViewTest, FindBarSelectsAndFocusesMatchesInTimeOrder) {
  openHandMade();
  session_.setViewRange(0, 20000);
  QTest::keyClick(canvas_, Qt::Key_F, Qt::ControlModifier);
  TimelineFindBar* bar = view_->findBar();
  EXPECT_TRUE(bar->isVisible());
  bar->setPattern(QStringLiteral("^kernel[AB]$"), true);
  EXPECT_EQ(bar->result().size(), 2u);
  bar->findNext();
  ASSERT_TRUE(session_.selection().has_value());
  EXPECT_EQ(*session_.selection(), kernelA());
  // Focused: the match fills a good part of the view, and is inside it.
  EXPECT_LE(session_.viewStart(), HandMade::kKernelAStart);
  EXPECT_GE(session_.viewEnd(), HandMade::kKernelAEnd);
  EXPECT_EQ(bar->statusText(), QStringLiteral("1 of 2"));
  bar->findNext();
  EXPECT_EQ(*session_.selection(), (EventRef{static_cast<uint32_t>(kernelTrack_), 0, 1}));
  bar->findNext();  // wraps
  EXPECT_EQ(*session_.selection(), kernelA());
  bar->findPrevious();
  EXPECT_EQ(*session_.selection(), (EventRef{static_cast<uint32_t>(kernelTrack_), 0, 1}));
  bar->setPattern(QStringLiteral("memcpy"), false);  // substring, any case: the API call and the copy
  EXPECT_EQ(bar->result().size(), 2u);
  bar->setPattern(QStringLiteral("kernel("), true);
  EXPECT_TRUE(bar->result().empty());
  EXPECT_EQ(bar->statusText(), QStringLiteral("Not a valid regular expression"));
}

TEST_F(TimelineViewTest, UtilizationRowShowsWhenTheDeviceIsBusy) {
  openHandMade();
  session_.setViewRange(0, 10000);
  QImage image = frame();
  const TimelineLayout& layout = canvas_->layout();
  int row = layout.rowOfUtilization(0);
  ASSERT_GE(row, 0);
  int bottom = TimelineCanvas::kRulerHeight + layout.placementOf(row).bottom() - 4;
  // Busy from 2500 to 6000 (kernelA) and 6500 to 8000 (kernelB), idle 6000-6500.
  EXPECT_TRUE(sameColor(image.pixel(x(4000), bottom), timeline_colors::kUtilization));
  EXPECT_FALSE(sameColor(image.pixel(x(6250), bottom), timeline_colors::kUtilization));
  EXPECT_FALSE(sameColor(image.pixel(x(1500), bottom), timeline_colors::kUtilization));
}

TEST_F(TimelineViewTest, HoverTooltipNamesTheEventAndItsDuration) {
  openHandMade();
  session_.setViewRange(0, 10000);
  frame();
  QPoint at(x(4000), laneY(kernelTrack_));
  QHelpEvent help(QEvent::ToolTip, at, canvas_->mapToGlobal(at));
  QApplication::sendEvent(canvas_, &help);
  QString text = QToolTip::text();
  EXPECT_TRUE(text.contains(QStringLiteral("kernelA"))) << text.toStdString();
  EXPECT_TRUE(text.contains(QString::fromStdString(formatDuration(HandMade::kKernelAEnd - HandMade::kKernelAStart))))
      << text.toStdString();
  // Over a folded block, the tooltip says how many events it holds.
  session_.fitAll();
  frame();
  QPoint overFold(x(HandMade::kTinyStart + 1500), laneY(tinyTrack_));
  QHelpEvent foldHelp(QEvent::ToolTip, overFold, canvas_->mapToGlobal(overFold));
  QApplication::sendEvent(canvas_, &foldHelp);
  EXPECT_TRUE(QToolTip::text().contains(QStringLiteral("1000 events"))) << QToolTip::text().toStdString();
  QToolTip::hideText();
}

TEST_F(TimelineViewTest, ClickingAFoldedBlockZoomsIntoIt) {
  openHandMade();
  session_.fitAll();
  frame();
  QTest::mouseClick(canvas_, Qt::LeftButton, Qt::NoModifier, QPoint(x(HandMade::kTinyStart + 1500), laneY(tinyTrack_)));
  EXPECT_FALSE(session_.selection().has_value());
  EXPECT_LE(session_.viewStart(), HandMade::kTinyStart);
  EXPECT_GE(session_.viewEnd(), HandMade::kTinyStart + 3 * HandMade::kTinyCount - 1);
  EXPECT_LT(session_.viewEnd() - session_.viewStart(), 4000);
}

TEST_F(TimelineViewTest, ThreadsWithOnlyOsRuntimeCallsStartCollapsed) {
  open(timeline_test::loadFixture("nsys/loader2.sqlite"));
  const TimelineLayout& layout = canvas_->layout();
  int collapsed = 0;
  for (const TimelineRow& row : layout.rows()) {
    if (row.kind != RowKind::Thread) continue;
    bool onlyOsRuntime = true;
    for (uint32_t t : row.tracks) onlyOsRuntime = onlyOsRuntime && trace_->track(t).kind == TrackKind::OsRuntime;
    EXPECT_EQ(row.collapsed, onlyOsRuntime) << row.label.toStdString();
    collapsed += row.collapsed;
  }
  EXPECT_GT(collapsed, 10);
}

TEST_F(TimelineViewTest, TransposeFixtureKernelsAtTheirTimes) {
  open(timeline_test::loadFixture("nsys/transpose.sqlite"));
  int track = timeline_test::findTrack(*trace_, TrackKind::GpuKernels, "transposeNaive");
  ASSERT_GE(track, 0);
  const Lane& lane = trace_->track(static_cast<uint32_t>(track)).lanes[0];
  // Show the first kernel and its neighbours: about 4.5 ms.
  TimeNs start = lane.start[0] - 1000000;
  session_.setViewRange(start, start + 4500000);
  QImage image = frame();
  int y = barY(track);
  for (size_t i = 0; i < lane.size(); ++i) {
    if (lane.end(i) > session_.viewEnd()) break;
    double x0 = canvas_->xForTime(lane.start[i]);
    double x1 = canvas_->xForTime(lane.end(i));
    if (x1 - x0 < 6) continue;
    QString name = QString::fromStdString(trace_->string(lane.name[i]));
    QColor color = eventColor(TrackKind::GpuKernels, nameColorKey(name), 0);
    int mid = static_cast<int>((x0 + x1) / 2);
    EXPECT_TRUE(sameColor(image.pixel(mid, y), color)) << "kernel " << i << " " << trace_->string(lane.name[i])
                                                       << " at x " << mid << " is " << describe(image.pixel(mid, y));
  }
  EXPECT_GT(canvas_->lastFrame().labels, 3u);  // names are written inside the wide bars
  // The whole trace fits, and the frame visits a handful of items, not every event.
  session_.fitAll();
  frame();
  EXPECT_GT(canvas_->lastFrame().rows, 5);
  EXPECT_LT(canvas_->lastFrame().items, 400u);
}

TEST_F(TimelineViewTest, Loader2FixtureHasAProcessWithThreadsAndADevice) {
  open(timeline_test::loadFixture("nsys/loader2.sqlite"));
  const TimelineLayout& layout = canvas_->layout();
  int processes = 0;
  int threads = 0;
  int devices = 0;
  for (const TimelineRow& row : layout.rows()) {
    processes += row.kind == RowKind::Process;
    threads += row.kind == RowKind::Thread;
    devices += row.kind == RowKind::Device;
  }
  EXPECT_EQ(processes, static_cast<int>(trace_->processes().size()));
  EXPECT_GT(threads, 5);
  EXPECT_EQ(devices, 1);
  EXPECT_GE(layout.rowOfUtilization(0), 0);
  // Every track has a row.
  for (uint32_t t = 0; t < trace_->tracks().size(); ++t) EXPECT_GE(layout.rowOfTrack(t), 0) << "track " << t;
}

}  // namespace
}  // namespace gpuscope::ui
