// The kernel table restricted to the range picked on the ruler (nsys's "filter and zoom in"): the rows, the
// by-name stats, the bar that says so and clears it; the right-click menu of a row; and the queries of a
// large trace, which run on a worker and leave the GUI thread free.
#include <gtest/gtest.h>

#include <QAction>
#include <QClipboard>
#include <QGuiApplication>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>
#include <QToolButton>

#include "core/model/trace_loader.h"
#include "tests/ui/tables/table_test_support.h"
#include "ui/session/trace_session.h"
#include "ui/tables/kernel_summary_model.h"
#include "ui/tables/kernel_table_model.h"
#include "ui/tables/kernel_table_view.h"
#include "ui/tables/range_bar.h"

namespace gpuscope::ui {
namespace {

using test::kKernelNameJoin;
using test::loader2Trace;
using test::ShownKernelTable;
using test::sqlInt;
using test::sqlText;

int64_t sql(const std::string& query) { return sqlInt(*loader2Trace(), query); }

// The second quarter of the kernels' time.
std::pair<TimeNs, TimeNs> secondQuarter() {
  TimeNs first = sql("SELECT min(start) FROM CUPTI_ACTIVITY_KIND_KERNEL");
  TimeNs last = sql("SELECT max(end) FROM CUPTI_ACTIVITY_KIND_KERNEL");
  return {first + (last - first) / 4, first + (last - first) / 2};
}

std::string inRange(std::pair<TimeNs, TimeNs> range) {
  return " WHERE k.start < " + std::to_string(range.second) + " AND (k.end > " + std::to_string(range.first) +
         " OR k.start >= " + std::to_string(range.first) + ")";
}

TEST(KernelTableRange, TheRulerRangeRestrictsTheRowsAndTheStatsAndCanBeCleared) {
  ShownKernelTable shown;
  const int all = shown.rows();
  ASSERT_EQ(all, sql("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL"));
  EXPECT_FALSE(shown.table.rangeBar()->isVisible());

  auto range = secondQuarter();
  shown.session.setRange(range.first, range.second);
  const int64_t expected = sql("SELECT count(*)" + kKernelNameJoin + inRange(range));
  ASSERT_LT(expected, all);
  EXPECT_EQ(shown.rows(), expected);
  for (int row = 0; row < shown.rows(); ++row) {
    EventRef event = shown.table.instanceModel()->eventAt(row);
    EXPECT_LT(loader2Trace()->start(event), range.second);
    EXPECT_GE(loader2Trace()->end(event), range.first);
  }
  EXPECT_TRUE(shown.table.rangeBar()->isVisible());
  EXPECT_EQ(shown.table.countText(), QStringLiteral("%1 of %2 kernels").arg(expected).arg(all));

  // The by-name stats cover the range only.
  shown.table.setGrouped(true);
  QAbstractItemModel* groups = shown.table.view()->model();
  EXPECT_EQ(groups->rowCount(), sql("SELECT count(DISTINCT k.demangledName)" + kKernelNameJoin + inRange(range)));
  int64_t counted = 0;
  for (int row = 0; row < groups->rowCount(); ++row) {
    std::string name = groups->index(row, KernelSummaryModel::DemangledColumn).data().toString().toStdString();
    std::string where = inRange(range) + " AND d.value = '" + name + "'";
    EXPECT_EQ(groups->index(row, KernelSummaryModel::CountColumn).data().toLongLong(),
              sql("SELECT count(*)" + kKernelNameJoin + where));
    EXPECT_EQ(groups->index(row, KernelSummaryModel::TotalColumn).data(KernelSummaryModel::SortRole).toLongLong(),
              sql("SELECT sum(k.end - k.start)" + kKernelNameJoin + where));
    counted += groups->index(row, KernelSummaryModel::CountColumn).data().toLongLong();
  }
  EXPECT_EQ(counted, expected);

  auto* clear = shown.table.rangeBar()->findChild<QToolButton*>(QStringLiteral("clearRange"));
  ASSERT_TRUE(clear);
  clear->click();
  EXPECT_EQ(shown.session.rangeStart(), shown.session.rangeEnd());
  EXPECT_FALSE(shown.table.rangeBar()->isVisible());
  EXPECT_EQ(groups->rowCount(), sql("SELECT count(DISTINCT demangledName) FROM CUPTI_ACTIVITY_KIND_KERNEL"));
  shown.table.setGrouped(false);
  EXPECT_EQ(shown.rows(), all);
}

QAction* action(QMenu& menu, const char* name) { return menu.findChild<QAction*>(QString::fromLatin1(name)); }

TEST(KernelTableMenu, ARowsMenuZoomsFiltersAndCopiesTheFullName) {
  ShownKernelTable shown;
  // Kernel2 is the CUTLASS SGEMM: only its demangled name says which kernel it is.
  int row = 0;
  while (row < shown.rows() && loader2Trace()->name(shown.table.instanceModel()->eventAt(row)) != "Kernel2") ++row;
  ASSERT_LT(row, shown.rows());
  EventRef kernel = shown.table.instanceModel()->eventAt(row);
  std::string demangled = sqlText(*loader2Trace(), "SELECT d.value" + kKernelNameJoin + " WHERE k.rowid = " +
                                                       std::to_string(loader2Trace()->lane(kernel).row[kernel.index]));
  std::unique_ptr<QMenu> menu = shown.table.rowMenu(row);
  ASSERT_TRUE(menu);
  ASSERT_TRUE(action(*menu, "zoomTo") && action(*menu, "filterToName") && action(*menu, "copyName"));
  EXPECT_FALSE(action(*menu, "showInTable"));  // already in it

  action(*menu, "zoomTo")->trigger();
  ASSERT_TRUE(shown.session.selection());
  EXPECT_EQ(*shown.session.selection(), kernel);
  EXPECT_LE(shown.session.viewStart(), loader2Trace()->start(kernel));
  EXPECT_GE(shown.session.viewEnd(), loader2Trace()->end(kernel));

  action(*menu, "copyName")->trigger();
  EXPECT_EQ(QGuiApplication::clipboard()->text().toStdString(), demangled);

  action(*menu, "filterToName")->trigger();
  EXPECT_EQ(shown.table.filterEdit()->text().toStdString(), demangled);
  EXPECT_EQ(shown.rows(), sql("SELECT count(*)" + kKernelNameJoin + " WHERE instr(d.value, '" + demangled + "') > 0"));
  for (int r = 0; r < shown.rows(); ++r)
    EXPECT_EQ(loader2Trace()->longName(shown.table.instanceModel()->eventAt(r)), demangled);
}

TEST(KernelTableModel, LargeTracesAreQueriedOnAWorker) {
  KernelTableModel model;
  model.setInlineLimit(0);  // as for a trace with millions of kernels
  QSignalSpy ready(&model, &KernelTableModel::rowsReady);
  model.setTrace(loader2Trace());
  EXPECT_TRUE(model.isUpdating());
  EXPECT_EQ(model.rowCount(), 0);  // nothing until the worker hands its rows over
  ASSERT_TRUE(ready.wait(30000));
  EXPECT_FALSE(model.isUpdating());
  ASSERT_EQ(model.rowCount(), sql("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL"));

  model.sort(KernelTableModel::DurationColumn, Qt::DescendingOrder);
  EXPECT_TRUE(model.isUpdating());
  ASSERT_TRUE(ready.wait(30000));
  EXPECT_EQ(model.index(0, KernelTableModel::DurationColumn).data(KernelTableModel::SortRole).toLongLong(),
            sql("SELECT max(end - start) FROM CUPTI_ACTIVITY_KIND_KERNEL"));

  // Two requests in a row: the rows answer the last one.
  EXPECT_TRUE(model.setNameFilter(QStringLiteral("reduce"), false).isEmpty());
  EXPECT_TRUE(model.setNameFilter(QStringLiteral("^Kernel2$"), true).isEmpty());
  while (model.isUpdating()) ASSERT_TRUE(ready.wait(30000));
  EXPECT_EQ(model.rowCount(), sql("SELECT count(*)" + kKernelNameJoin + " WHERE s.value = 'Kernel2'"));
  EXPECT_FALSE(model.setNameFilter(QStringLiteral("("), true).isEmpty());  // a bad expression: every kernel
  while (model.isUpdating()) ASSERT_TRUE(ready.wait(30000));
  EXPECT_EQ(model.rowCount(), sql("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL"));
}

}  // namespace
}  // namespace gpuscope::ui
