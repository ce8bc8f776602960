// The kernel tables on loader2.sqlite (one short name, several kernels): the demangled column and its toggle,
// the filter over short and demangled names, grouping by the real kernel; and navigation by a single click,
// the arrow keys and Enter.
#include <gtest/gtest.h>

#include <QCheckBox>
#include <QSet>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>
#include <QTreeView>

#include "core/model/trace_loader.h"
#include "tests/ui/tables/table_test_support.h"
#include "ui/session/trace_session.h"
#include "ui/tables/kernel_summary_model.h"
#include "ui/tables/kernel_table_model.h"
#include "ui/tables/kernel_table_view.h"
#include "ui/tables/report_pane.h"
#include "ui/tables/report_table_model.h"
#include "ui/tables/stats_reports_view.h"

namespace gpuscope::ui {
namespace {

using test::kKernelNameJoin;
using test::loader2Trace;
using test::ShownKernelTable;
using test::sqlInt;
using test::sqlText;

TEST(KernelTableNames, DemangledColumnShowsTheRealKernelAndCanBeHidden) {
  ShownKernelTable shown;
  QTableView* view = shown.table.view();
  QAbstractItemModel* model = view->model();
  for (int row : {0, 1, model->rowCount() - 1}) {
    EventRef event = shown.table.instanceModel()->eventAt(row);
    std::string sql = "SELECT d.value" + kKernelNameJoin +
                      " WHERE k.rowid = " + std::to_string(loader2Trace()->lane(event).row[event.index]);
    EXPECT_EQ(model->index(row, KernelTableModel::DemangledColumn).data().toString().toStdString(),
              sqlText(*loader2Trace(), sql));
  }
  EXPECT_FALSE(view->isColumnHidden(KernelTableModel::DemangledColumn));
  auto* toggle = shown.table.findChild<QCheckBox*>(QStringLiteral("demangledNames"));
  ASSERT_TRUE(toggle);
  toggle->setChecked(false);
  EXPECT_TRUE(view->isColumnHidden(KernelTableModel::DemangledColumn));
}

TEST(KernelTableNames, FilterFindsKernelsByShortOrDemangledName) {
  ShownKernelTable shown;
  shown.table.setFilter(QStringLiteral("sgemm"), false);
  // "Kernel2" is CUTLASS's SIMT SGEMM: only its demangled name says so.
  EXPECT_EQ(shown.table.view()->model()->rowCount(),
            sqlInt(*loader2Trace(),
                   "SELECT count(*)" + kKernelNameJoin + " WHERE s.value LIKE '%sgemm%' OR d.value LIKE '%sgemm%'"));
  shown.table.setGrouped(true);
  EXPECT_EQ(shown.table.view()->model()->rowCount(),
            sqlInt(*loader2Trace(), "SELECT count(DISTINCT k.demangledName)" + kKernelNameJoin +
                                        " WHERE s.value LIKE '%sgemm%' OR d.value LIKE '%sgemm%'"));
}

TEST(KernelTableNames, ByNameGroupsByTheRealKernel) {
  ShownKernelTable shown;
  shown.table.setGrouped(true);
  QAbstractItemModel* model = shown.table.view()->model();
  EXPECT_EQ(model->rowCount(), sqlInt(*loader2Trace(), "SELECT count(DISTINCT k.demangledName)" + kKernelNameJoin));
  int reductions = 0;
  QSet<QString> names;
  for (int row = 0; row < model->rowCount(); ++row) {
    // Kernels that share a short name are told apart by the part of their demangled names that differs.
    QString shownName = model->index(row, KernelSummaryModel::NameColumn).data().toString();
    EXPECT_FALSE(names.contains(shownName)) << shownName.toStdString();
    names.insert(shownName);
    if (!shownName.startsWith(QLatin1String("reduce_kernel<"))) continue;
    ++reductions;
    std::string name = model->index(row, KernelSummaryModel::DemangledColumn).data().toString().toStdString();
    EXPECT_EQ(model->index(row, KernelSummaryModel::CountColumn).data().toLongLong(),
              sqlInt(*loader2Trace(), "SELECT count(*)" + kKernelNameJoin + " WHERE d.value = '" + name + "'"));
  }
  EXPECT_EQ(reductions, sqlInt(*loader2Trace(), "SELECT count(DISTINCT k.demangledName)" + kKernelNameJoin +
                                                    " WHERE s.value = 'reduce_kernel'"));
}

TEST(KernelTableNavigation, ASingleClickArrowKeysAndEnterMoveTheTimeline) {
  ShownKernelTable shown;
  QTableView* view = shown.table.view();
  auto eventAtRow = [&](int row) { return *shown.table.eventAtRow(row); };
  QRect rect = view->visualRect(view->model()->index(3, 0));
  QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, rect.center());
  ASSERT_TRUE(shown.session.selection());
  EXPECT_EQ(*shown.session.selection(), eventAtRow(3));
  EXPECT_LE(shown.session.viewStart(), loader2Trace()->start(eventAtRow(3)));
  EXPECT_GE(shown.session.viewEnd(), loader2Trace()->end(eventAtRow(3)));

  view->setFocus();
  QTest::keyClick(view, Qt::Key_Down);
  ASSERT_TRUE(shown.session.selection());
  EXPECT_EQ(*shown.session.selection(), eventAtRow(4));

  shown.session.select(eventAtRow(0));  // selected elsewhere: the table follows, Enter brings the row back
  QTest::keyClick(view, Qt::Key_Down);
  EXPECT_EQ(*shown.session.selection(), eventAtRow(1));
}

TEST(StatsReportNavigation, ClickingAKernelRowShowsItsFirstInstance) {
  TraceSession session;
  StatsReportsView view(&session);
  view.resize(1000, 500);
  view.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
  session.setTrace(loader2Trace());
  ASSERT_TRUE(view.showReport(QStringLiteral("cuda_gpu_kern_sum")));
  if (view.pane()->isRunning()) {
    QSignalSpy ready(view.pane(), &ReportPane::reportReady);
    ASSERT_TRUE(ready.wait(30000));
  }
  const ReportTable& report = view.pane()->model()->report();
  int row = -1;
  size_t nameColumn = 0;
  for (size_t c = 0; c < report.columns.size(); ++c) nameColumn = report.columns[c].title == "Name" ? c : nameColumn;
  for (size_t r = 0; r < report.rows.size() && row < 0; ++r) {
    const auto* name = std::get_if<std::string>(&report.rows[r][nameColumn]);
    if (name && name->find("cutlass::Kernel2") != std::string::npos) row = static_cast<int>(r);
  }
  ASSERT_GE(row, 0);
  QTreeView* tree = view.pane()->view();
  QRect rect = tree->visualRect(view.pane()->proxy()->mapFromSource(view.pane()->model()->index(row, 0)));
  QTest::mouseClick(tree->viewport(), Qt::LeftButton, {}, rect.center());  // one click, no double click
  ASSERT_TRUE(session.selection());
  const std::string& demangled = std::get<std::string>(report.rows[static_cast<size_t>(row)][nameColumn]);
  EXPECT_EQ(loader2Trace()->longName(*session.selection()), demangled);
  EXPECT_EQ(loader2Trace()->start(*session.selection()),
            sqlInt(*loader2Trace(), "SELECT min(k.start)" + kKernelNameJoin + " WHERE d.value = '" + demangled + "'"));
}

}  // namespace
}  // namespace gpuscope::ui
