// The analysis view at 1920x1080 on loader2.sqlite: the details pane keeps its width whatever the name
// selected, and the timeline's keys keep working after the details panel's "Go to launching API call".
#include <gtest/gtest.h>

#include <QApplication>
#include <QPushButton>
#include <QTest>

#include "core/details/kernel_list.h"
#include "core/model/trace_loader.h"
#include "tests/ui/tables/table_test_support.h"
#include "ui/details/details_panel.h"
#include "ui/main_window/analysis_view.h"
#include "ui/session/trace_session.h"
#include "ui/timeline/timeline_canvas.h"
#include "ui/timeline/timeline_view.h"

namespace gpuscope::ui {
namespace {

using test::loader2Trace;

// The first kernel with a short name over 100 characters (LONG_NAME), or under 16.
EventRef kernelWithName(bool longName) {
  for (const EventRef& ref : kernelInstances(*loader2Trace())) {
    size_t length = loader2Trace()->name(ref).size();
    if (longName ? length > 100 : length < 16) return ref;
  }
  ADD_FAILURE() << "no such kernel";
  return {};
}

struct ShownView {
  TraceSession session;
  AnalysisView view{&session};
  ShownView() {
    view.resize(1920, 1080);
    view.show();
    EXPECT_TRUE(QTest::qWaitForWindowExposed(&view));
    session.setTrace(loader2Trace());
    QApplication::processEvents();
  }
  int timelineWidth() const { return view.timeline()->width(); }
  int detailsWidth() const { return view.details()->width(); }
};

TEST(AnalysisLayout, ALongKernelNameDoesNotWidenTheDetailsPane) {
  ShownView shown;
  shown.session.select(kernelWithName(false));
  QApplication::processEvents();
  int timeline = shown.timelineWidth();
  int details = shown.detailsWidth();
  ASSERT_GT(timeline, 1000);
  shown.session.select(kernelWithName(true));
  QApplication::processEvents();
  EXPECT_EQ(shown.detailsWidth(), details);
  EXPECT_EQ(shown.timelineWidth(), timeline);
}

// Issue 40, point 8: the details pane has one width, empty or filled; picking the first event does not move the
// timeline's right edge.
TEST(AnalysisLayout, TheFirstSelectionDoesNotMoveTheTimeline) {
  for (QSize size : {QSize(1280, 720), QSize(1920, 1080)}) {
    TraceSession session;
    AnalysisView view(&session);
    view.resize(size);
    view.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
    session.setTrace(loader2Trace());
    QApplication::processEvents();
    int timeline = view.timeline()->width();
    session.select(kernelWithName(false));
    QApplication::processEvents();
    EXPECT_EQ(view.timeline()->width(), timeline) << size.width();
    EXPECT_GE(view.details()->width(), AnalysisView::kLeastDetailsWidth) << size.width();
  }
}

TEST(AnalysisLayout, TimelineKeysStillWorkAfterGoingToTheLaunchingCall) {
  ShownView shown;
  shown.view.activateWindow();
  ASSERT_TRUE(QTest::qWaitForWindowActive(&shown.view));
  TimelineCanvas* canvas = shown.view.timeline()->canvas();
  canvas->setFocus();
  shown.session.focusEvent(kernelWithName(false));
  QApplication::processEvents();
  QPushButton* toCall = nullptr;
  for (auto* button : shown.view.details()->findChildren<QPushButton*>()) {
    if (button->text().contains(QStringLiteral("launching"))) toCall = button;
  }
  ASSERT_TRUE(toCall && toCall->isVisible());
  QTest::mouseClick(toCall, Qt::LeftButton);
  QApplication::processEvents();
  ASSERT_TRUE(shown.session.selection());
  EXPECT_EQ(shown.session.trace()->track(shown.session.selection()->track).kind, TrackKind::CudaApi);
  TimeNs span = shown.session.viewEnd() - shown.session.viewStart();
  ASSERT_TRUE(QApplication::focusWidget());
  QTest::keyClick(QApplication::focusWidget(), Qt::Key_W);
  EXPECT_LT(shown.session.viewEnd() - shown.session.viewStart(), span);
}

}  // namespace
}  // namespace gpuscope::ui
