// The event menu of the timeline on loader2.sqlite: a right click on a kernel asks for it, and its entries
// (Zoom to, Filter to this name, Copy name, Show in table) do what they say to the session and the tables.
#include <gtest/gtest.h>

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QContextMenuEvent>
#include <QLineEdit>
#include <QMenu>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTest>

#include "core/db/sqlite_database.h"
#include "core/details/kernel_list.h"
#include "core/model/trace_loader.h"
#include "tests/ui/tables/table_test_support.h"
#include "ui/main_window/analysis_view.h"
#include "ui/session/trace_session.h"
#include "ui/tables/kernel_table_model.h"
#include "ui/tables/kernel_table_view.h"
#include "ui/timeline/timeline_canvas.h"
#include "ui/timeline/timeline_view.h"

namespace gpuscope::ui {
namespace {

using test::loader2Trace;

// The third kernel named Kernel2 (the CUTLASS SGEMM, known by its demangled name only).
EventRef sgemm() {
  int seen = 0;
  for (const EventRef& ref : kernelInstances(*loader2Trace())) {
    if (loader2Trace()->name(ref) == "Kernel2" && ++seen == 3) return ref;
  }
  ADD_FAILURE() << "no third Kernel2";
  return {};
}

std::string demangledFromSql(EventRef kernel) {
  auto stmt = loader2Trace()->database().prepare(
      "SELECT d.value FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds d ON d.id = k.demangledName WHERE k.rowid = " +
      std::to_string(loader2Trace()->lane(kernel).row[kernel.index]));
  EXPECT_TRUE(stmt.step());
  return std::string(stmt.text(0));
}

QAction* action(QMenu& menu, const char* name) { return menu.findChild<QAction*>(QString::fromLatin1(name)); }

TEST(TimelineEventMenu, ARightClickOnAKernelSelectsItAndAsksForItsMenu) {
  TraceSession session;
  TimelineView view(&session);
  view.resize(1600, 900);
  view.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
  session.setTrace(loader2Trace());
  EventRef kernel = sgemm();
  view.canvas()->revealEvent(kernel, TimelineCanvas::Reveal::Focus);
  session.select(std::nullopt);
  QApplication::processEvents();
  TimelineCanvas* canvas = view.canvas();
  QRect lane = canvas->laneRect(kernel.track, kernel.lane);
  ASSERT_FALSE(lane.isEmpty());
  double x = (canvas->xForTime(loader2Trace()->start(kernel)) + canvas->xForTime(loader2Trace()->end(kernel))) / 2;
  QPoint at(static_cast<int>(x), lane.center().y());
  QSignalSpy asked(canvas, &TimelineCanvas::eventMenuRequested);
  QContextMenuEvent click(QContextMenuEvent::Mouse, at, canvas->mapToGlobal(at));
  QApplication::sendEvent(canvas, &click);
  ASSERT_EQ(asked.count(), 1);
  EXPECT_EQ(asked.front().front().value<EventRef>(), kernel);
  ASSERT_TRUE(session.selection());
  EXPECT_EQ(*session.selection(), kernel);
}

struct ShownAnalysis {
  TraceSession session;
  AnalysisView view{&session};
  ShownAnalysis() {
    view.resize(1600, 1000);
    view.show();
    EXPECT_TRUE(QTest::qWaitForWindowExposed(&view));
    session.setTrace(loader2Trace());
  }
};

TEST(TimelineEventMenu, ItsEntriesZoomFilterCopyAndShowInTheTable) {
  ShownAnalysis shown;
  EventRef kernel = sgemm();
  const std::string demangled = demangledFromSql(kernel);
  std::unique_ptr<QMenu> menu = shown.view.eventMenu(kernel);
  for (const char* name : {"zoomTo", "filterToName", "copyName", "showInTable"})
    ASSERT_TRUE(action(*menu, name)) << name;

  action(*menu, "zoomTo")->trigger();
  EXPECT_LE(shown.session.viewStart(), loader2Trace()->start(kernel));
  EXPECT_GE(shown.session.viewEnd(), loader2Trace()->end(kernel));
  EXPECT_LT(shown.session.viewEnd() - shown.session.viewStart(),
            loader2Trace()->endTime() - loader2Trace()->startTime());

  action(*menu, "copyName")->trigger();
  EXPECT_EQ(QGuiApplication::clipboard()->text().toStdString(), demangled);

  KernelTableView* table = shown.view.kernels();
  shown.view.tables()->setCurrentIndex(1);
  action(*menu, "filterToName")->trigger();
  EXPECT_EQ(shown.view.tables()->currentWidget(), table);
  EXPECT_EQ(table->filterEdit()->text().toStdString(), demangled);
  ASSERT_GT(table->view()->model()->rowCount(), 0);
  for (int row = 0; row < table->view()->model()->rowCount(); ++row)
    EXPECT_EQ(loader2Trace()->longName(table->instanceModel()->eventAt(row)), demangled);

  // Show in table: back to every kernel, with this one's row current.
  shown.view.tables()->setCurrentIndex(1);
  shown.session.select(std::nullopt);
  action(*menu, "showInTable")->trigger();
  EXPECT_EQ(shown.view.tables()->currentWidget(), table);
  EXPECT_TRUE(table->filterEdit()->text().isEmpty());
  EXPECT_EQ(table->view()->model()->rowCount(), static_cast<int>(loader2Trace()->counts().kernels));
  QModelIndex current = table->view()->currentIndex();
  ASSERT_TRUE(current.isValid());
  EXPECT_EQ(table->instanceModel()->eventAt(current.row()), kernel);
}

TEST(TimelineEventMenu, OtherEventsGetZoomAndCopyOnly) {
  ShownAnalysis shown;
  EventRef call = *loader2Trace()->launchingCall(sgemm());
  std::unique_ptr<QMenu> menu = shown.view.eventMenu(call);
  EXPECT_TRUE(action(*menu, "zoomTo") && action(*menu, "copyName"));
  EXPECT_FALSE(action(*menu, "filterToName") || action(*menu, "showInTable"));
  action(*menu, "copyName")->trigger();
  EXPECT_EQ(QGuiApplication::clipboard()->text().toStdString(), loader2Trace()->name(call));
}

TEST(TimelineRangeMenu, ARightClickOnThePickedRangeAsksForTheRangeMenu) {
  TraceSession session;
  TimelineView view(&session);
  view.resize(1600, 900);
  view.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
  session.setTrace(loader2Trace());
  TimelineCanvas* canvas = view.canvas();
  QSignalSpy asked(canvas, &TimelineCanvas::rangeMenuRequested);
  QPoint onRuler(TimelineCanvas::kLabelWidth + 200, TimelineCanvas::kRulerHeight / 2);
  QContextMenuEvent before(QContextMenuEvent::Mouse, onRuler, canvas->mapToGlobal(onRuler));
  QApplication::sendEvent(canvas, &before);
  EXPECT_EQ(asked.count(), 0);  // no range picked: nothing to offer
  const TimeNs from = loader2Trace()->startTime() + 13'050'000'000;
  const TimeNs to = from + 200'000'000;
  session.setRange(from, to);
  QContextMenuEvent click(QContextMenuEvent::Mouse, onRuler, canvas->mapToGlobal(onRuler));
  QApplication::sendEvent(canvas, &click);
  EXPECT_EQ(asked.count(), 1);
}

TEST(TimelineRangeMenu, ZoomToRangeShowsTheRangeAndClearRangeShowsEveryKernelAgain) {
  ShownAnalysis shown;
  const int all = shown.view.kernels()->view()->model()->rowCount();
  const TimeNs from = loader2Trace()->startTime() + 13'050'000'000;
  const TimeNs to = from + 200'000'000;
  shown.session.setRange(from, to);
  ASSERT_LT(shown.view.kernels()->view()->model()->rowCount(), all);
  std::unique_ptr<QMenu> menu = shown.view.rangeMenu();
  ASSERT_TRUE(action(*menu, "zoomToRange") && action(*menu, "clearRange"));
  action(*menu, "zoomToRange")->trigger();
  EXPECT_EQ(shown.session.viewStart(), from);
  EXPECT_EQ(shown.session.viewEnd(), to);
  action(*menu, "clearRange")->trigger();
  EXPECT_EQ(shown.session.rangeStart(), shown.session.rangeEnd());
  EXPECT_EQ(shown.view.kernels()->view()->model()->rowCount(), all);
}

}  // namespace
}  // namespace gpuscope::ui
