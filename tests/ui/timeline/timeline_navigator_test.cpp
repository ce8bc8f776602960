// TimelineNavigator without a widget: the view range that zoom, pan, the keys, fit, reveal and the mouse
// gestures leave in the session, worked out by hand on the hand-made trace ([500, 12999] ns).
#include "ui/timeline/timeline_navigator.h"

#include <gtest/gtest.h>

#include "tests/ui/timeline/timeline_test_trace.h"
#include "ui/session/trace_session.h"

namespace gpuscope::ui {
namespace {

using timeline_test::HandMade;
using Drag = TimelineNavigator::Drag;
using Reveal = TimelineNavigator::Reveal;

using timeline_test::kAreaWidth;
using timeline_test::kLeft;
using timeline_test::kRuler;
constexpr TimeNs kTraceStart = 500;
constexpr TimeNs kTraceEnd = 12999;

class TimelineNavigatorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    trace_ = timeline_test::loadHandMadeTrace();
    ASSERT_EQ(trace_->startTime(), kTraceStart);
    ASSERT_EQ(trace_->endTime(), kTraceEnd);
    session_.setTrace(trace_);
  }
  // The geometry of the view the session shows now, as the canvas would make it.
  TimelineGeometry geometry() const {
    return TimelineGeometry{QRect(kLeft, kRuler, kAreaWidth, 400), session_.viewStart(), session_.viewEnd()};
  }
  void view(TimeNs start, TimeNs end) { session_.setViewRange(start, end); }
  void expectView(TimeNs start, TimeNs end) const {
    EXPECT_EQ(session_.viewStart(), start);
    EXPECT_EQ(session_.viewEnd(), end);
  }
  EventRef kernelA() const {
    int track = timeline_test::findTrack(*trace_, TrackKind::GpuKernels, "kernelA");
    EXPECT_GE(track, 0);
    return EventRef{static_cast<uint32_t>(track), 0, 0};
  }
  EventRef firstTinyKernel() const {
    int track = timeline_test::findTrack(*trace_, TrackKind::GpuKernels, "tiny");
    EXPECT_GE(track, 0);
    return EventRef{static_cast<uint32_t>(track), 0, 0};
  }

  std::shared_ptr<const Trace> trace_;
  TraceSession session_;
  TimelineNavigator navigator_{&session_};
};

TEST_F(TimelineNavigatorTest, ZoomKeepsTheTimeUnderThePointerInPlace) {
  view(1000, 11000);
  // 250 px in is 3500 ns; at half the span (5 ns per pixel) 3500 ns is still 250 px in.
  navigator_.zoomAround(geometry(), kLeft + 250, 0.5);
  expectView(2250, 7250);
  navigator_.zoomAround(geometry(), kLeft + 250, 2.0);
  expectView(1000, 11000);
}

TEST_F(TimelineNavigatorTest, ZoomStopsAtTenNanosecondsAndAtTheWholeTraceWithMargins) {
  view(1000, 11000);
  navigator_.zoomAround(geometry(), kLeft + 250, 1e-6);
  expectView(3500, 3510);
  // The widest view shows the trace in 90% of it, with 5% on each side: 12499 / 0.9 = 13888 ns from -194.
  navigator_.zoomAround(geometry(), kLeft + 250, 1e6);
  expectView(-194, 13694);
}

TEST_F(TimelineNavigatorTest, PanMovesByPixelsAndStopsFivePercentPastEitherEnd) {
  view(1000, 11000);
  navigator_.panByPixels(geometry(), 100);
  expectView(2000, 12000);
  navigator_.panByPixels(geometry(), 5000);  // 12999 + 500 - 10000
  expectView(3499, 13499);
  navigator_.panByPixels(geometry(), -5000);  // 500 - 500
  expectView(0, 10000);
}

TEST_F(TimelineNavigatorTest, KeysZoomAroundTheMiddleAndPanBySixthsOfTheView) {
  view(1000, 11000);
  ASSERT_TRUE(navigator_.navigateByKey(Qt::Key_W, geometry()));  // 6000 ns stays 500 px in
  expectView(2000, 10000);
  view(4000, 9000);
  ASSERT_TRUE(navigator_.navigateByKey(Qt::Key_D, geometry()));  // 15% of 1000 px at 5 ns per pixel
  expectView(4750, 9750);
  ASSERT_TRUE(navigator_.navigateByKey(Qt::Key_A, geometry()));
  ASSERT_TRUE(navigator_.navigateByKey(Qt::Key_A, geometry()));
  expectView(3250, 8250);
  view(1000, 11000);
  ASSERT_TRUE(navigator_.navigateByKey(Qt::Key_S, geometry()));  // 12 500 ns around 6000, held at -125
  expectView(-125, 12375);
  ASSERT_TRUE(navigator_.navigateByKey(Qt::Key_Home, geometry()));
  expectView(kTraceStart, kTraceEnd);
  EXPECT_FALSE(navigator_.navigateByKey(Qt::Key_Q, geometry()));
  expectView(kTraceStart, kTraceEnd);
}

TEST_F(TimelineNavigatorTest, KeyZoomCentresOnThePointerWhenItIsOverTheEvents) {
  view(1000, 11000);
  navigator_.setHover(QPoint(kLeft + 100, 100));  // 2000 ns
  ASSERT_TRUE(navigator_.navigateByKey(Qt::Key_W, geometry()));
  expectView(1200, 9200);
  navigator_.setHover(QPoint(kLeft - 10, 100));  // over the labels: the middle again
  ASSERT_TRUE(navigator_.navigateByKey(Qt::Key_S, geometry()));
  expectView(200, 10200);
}

TEST_F(TimelineNavigatorTest, FitPrefersThePickedRangeThenTheSelectionThenEverything) {
  view(1000, 11000);
  session_.setRange(2000, 4000);
  session_.select(kernelA());
  navigator_.fitSelectionOrAll();  // the range and 5% on each side
  expectView(1900, 4100);
  session_.setRange(0, 0);
  navigator_.fitSelectionOrAll();  // kernelA [2500, 6000) and 175 ns on each side
  expectView(2325, 6175);
  session_.select(std::nullopt);
  ASSERT_TRUE(navigator_.navigateByKey(Qt::Key_F, geometry()));
  expectView(kTraceStart, kTraceEnd);
}

TEST_F(TimelineNavigatorTest, FittingAShortEventWidensItToAHundredNanoseconds) {
  session_.select(firstTinyKernel());  // [10000, 10002): 102 ns after widening, 112 with the margins
  navigator_.fitSelectionOrAll();
  expectView(9945, 10057);
}

TEST_F(TimelineNavigatorTest, AFoldedBlockOpensToATwentiethMoreThanItsSpan) {
  navigator_.zoomToBlock(1000, 1010);  // at least 100 ns
  expectView(955, 1055);
  navigator_.zoomToBlock(HandMade::kTinyStart, kTraceEnd);  // 3599 ns, held 5% past the trace end
  expectView(9580, 13179);
}

TEST_F(TimelineNavigatorTest, RevealPansOnlyWhenOffScreenAndFocusZoomsNarrowEvents) {
  view(1000, 5000);
  navigator_.showSpan(geometry(), 2500, 4000, Reveal::KeepZoom);
  expectView(1000, 5000);
  navigator_.showSpan(geometry(), 6500, 8000, Reveal::KeepZoom);  // centred, same span
  expectView(5250, 9250);
  navigator_.showSpan(geometry(), 10000, 10002, Reveal::Focus);  // half a pixel wide: 1000 ns around it
  expectView(9501, 10501);
  navigator_.showSpan(geometry(), 500, 12999, Reveal::KeepZoom);  // wider than the view: as wide as allowed
  expectView(-194, 13694);
}

TEST_F(TimelineNavigatorTest, DraggingTheEventsPansAndScrolls) {
  view(1000, 11000);
  navigator_.press(QPoint(kLeft + 300, 200), Qt::LeftButton, geometry(), 100, kRuler);
  EXPECT_EQ(navigator_.move(QPoint(kLeft + 302, 201), geometry()), -1);  // under 4 px: still a click
  expectView(1000, 11000);
  EXPECT_EQ(navigator_.move(QPoint(kLeft + 350, 230), geometry()), 70);  // 30 px down scrolls 30 px up
  expectView(500, 10500);
  EXPECT_EQ(navigator_.release(), Drag::Pan);
  EXPECT_EQ(navigator_.release(), Drag::None);
}

TEST_F(TimelineNavigatorTest, APressIsAClickALabelClickOrARangeByWhereItIs) {
  view(1000, 11000);
  navigator_.press(QPoint(kLeft + 300, 200), Qt::LeftButton, geometry(), 0, kRuler);
  EXPECT_EQ(navigator_.release(), Drag::PendingClick);
  navigator_.press(QPoint(kLeft - 1, 200), Qt::LeftButton, geometry(), 0, kRuler);
  EXPECT_EQ(navigator_.release(), Drag::Label);
  navigator_.press(QPoint(kLeft + 300, 200), Qt::MiddleButton, geometry(), 0, kRuler);
  EXPECT_EQ(navigator_.release(), Drag::Pan);
  navigator_.press(QPoint(kLeft + 300, 200), Qt::RightButton, geometry(), 0, kRuler);
  EXPECT_EQ(navigator_.release(), Drag::None);
}

TEST_F(TimelineNavigatorTest, DraggingOnTheRulerPicksARangeClampedToTheEvents) {
  view(1000, 11000);
  navigator_.press(QPoint(kLeft + 200, kRuler - 1), Qt::LeftButton, geometry(), 0, kRuler);
  EXPECT_EQ(session_.rangeStart(), 3000);
  EXPECT_EQ(session_.rangeEnd(), 3000);
  EXPECT_EQ(navigator_.move(QPoint(kLeft + 450, 10), geometry()), -1);
  EXPECT_EQ(session_.rangeStart(), 3000);
  EXPECT_EQ(session_.rangeEnd(), 5500);
  navigator_.move(QPoint(kLeft + kAreaWidth + 300, 10), geometry());  // past the right edge: the view's end
  EXPECT_EQ(session_.rangeEnd(), 11000);
  navigator_.move(QPoint(kLeft - 100, 10), geometry());  // back over the labels: the view's start
  EXPECT_EQ(session_.rangeStart(), 1000);
  EXPECT_EQ(session_.rangeEnd(), 3000);
  EXPECT_EQ(navigator_.release(), Drag::RulerRange);
  expectView(1000, 11000);
}

TEST_F(TimelineNavigatorTest, WithoutATraceNothingMoves) {
  TraceSession empty;
  TimelineNavigator navigator(&empty);
  TimelineGeometry g{QRect(kLeft, kRuler, kAreaWidth, 400), empty.viewStart(), empty.viewEnd()};
  navigator.zoomAround(g, kLeft + 10, 0.5);
  navigator.panByPixels(g, 100);
  navigator.fitSelectionOrAll();
  navigator.press(QPoint(kLeft + 10, 100), Qt::LeftButton, g, 0, kRuler);
  EXPECT_EQ(navigator.release(), Drag::None);
  EXPECT_EQ(empty.viewStart(), 0);
  EXPECT_EQ(empty.viewEnd(), 1);
}

}  // namespace
}  // namespace gpuscope::ui
