// The stats report views on transpose.sqlite: the report model, CSV export, and the NVTX GPU projection.
#include <gtest/gtest.h>

#include <QApplication>
#include <QComboBox>
#include <QFile>
#include <QHeaderView>
#include <QLineEdit>
#include <QLocale>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <QTreeView>

#include "core/report/report_format.h"
#include "core/stats/stats_reports.h"
#include "core/stats/summary_sources.h"
#include "tests/ui/tables/table_test_support.h"
#include "ui/session/trace_session.h"
#include "ui/tables/nvtx_projection_view.h"
#include "ui/tables/range_bar.h"
#include "ui/tables/report_pane.h"
#include "ui/tables/report_table_model.h"
#include "ui/tables/stats_reports_view.h"

namespace gpuscope::ui {
namespace {

using test::ModelCheck;
using test::sqlInt;
using test::transposeTrace;

int columnTitled(const QAbstractItemModel& model, const QString& title) {
  for (int column = 0; column < model.columnCount(); ++column) {
    if (model.headerData(column, Qt::Horizontal).toString() == title) return column;
  }
  return -1;
}

int rowWith(const QAbstractItemModel& model, int column, const QString& text) {
  for (int row = 0; row < model.rowCount(); ++row) {
    if (model.index(row, column).data().toString() == text) return row;
  }
  return -1;
}

bool waitForReport(ReportPane* pane) {
  if (!pane->isRunning()) return true;
  QSignalSpy ready(pane, &ReportPane::reportReady);
  return ready.wait(30000);
}

QByteArray readFile(const QString& path) {
  QFile file(path);
  return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

TEST(ReportTableModel, ShowsCellsAsTheCsvPrintsThemAndSortsByNumber) {
  ReportTableModel model;
  ModelCheck check(&model);
  auto* proxy = createTableProxy(&model, -1, &model);
  ModelCheck proxyCheck(proxy);
  model.setReport(runStatsReport(transposeTrace()->database(), "cuda_gpu_kern_sum"));
  ASSERT_EQ(model.rowCount(), 3);
  int total = columnTitled(model, QStringLiteral("Total Time (ns)"));
  int name = columnTitled(model, QStringLiteral("Name"));
  int share = columnTitled(model, QStringLiteral("Time (%)"));
  ASSERT_TRUE(total >= 0 && name >= 0 && share >= 0);
  int naive = rowWith(model, name, QStringLiteral("transposeNaive(float *, const float *, int, int)"));
  ASSERT_GE(naive, 0);
  const std::string kernel =
      " FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = k.shortName"
      " WHERE s.value = 'transposeNaive'";
  int64_t sum = sqlInt(*transposeTrace(), "SELECT sum(k.end - k.start)" + kernel);
  // Shown with digit groups (raw nanoseconds are hard to read), sorted by the raw value.
  QString shown = model.index(naive, total).data().toString();
  ASSERT_GE(sum, 1000);
  EXPECT_TRUE(shown.contains(QLocale().groupSeparator())) << shown.toStdString();
  EXPECT_EQ(shown.remove(QLocale().groupSeparator()), QString::number(sum));
  EXPECT_EQ(model.index(naive, total).data(ReportTableModel::SortRole).toLongLong(), sum);
  EXPECT_EQ(model.index(naive, share).data().toString(), QStringLiteral("72.0"));
  proxy->sort(total, Qt::AscendingOrder);
  EXPECT_EQ(proxy->index(0, name).data().toString(),
            QStringLiteral("transposeShared(float *, const float *, int, int)"));
  proxy->setFilter(QStringLiteral("saxpy"), false);
  EXPECT_EQ(proxy->rowCount(), 1);
  model.setReport({});
  EXPECT_EQ(model.columnCount(), 0);
  EXPECT_TRUE(check.failures().isEmpty() && proxyCheck.failures().isEmpty())
      << check.failures().join('\n').toStdString();
}

TEST(StatsReportsView, RunsTheChosenReportAndExportsItAsCsv) {
  TraceSession session;
  StatsReportsView view(&session);
  view.show();
  ModelCheck check(view.pane()->proxy());
  ASSERT_EQ(view.chooser()->count(), static_cast<int>(statsReportNames().size()));
  session.setTrace(transposeTrace());
  ASSERT_TRUE(view.showReport(QStringLiteral("nvtx_sum")));
  EXPECT_FALSE(view.showReport(QStringLiteral("no_such_report")));
  ASSERT_TRUE(waitForReport(view.pane()));
  EXPECT_EQ(view.pane()->model()->report().name, "nvtx_sum");
  ReportTable expected = runStatsReport(transposeTrace()->database(), "nvtx_sum");
  EXPECT_EQ(view.pane()->model()->rowCount(), static_cast<int>(expected.rows.size()));

  QTemporaryDir dir;
  QString all = dir.filePath(QStringLiteral("all.csv"));
  EXPECT_TRUE(view.pane()->exportCsv(all).isEmpty());
  EXPECT_EQ(readFile(all).toStdString(), formatCsv(expected));

  view.pane()->proxy()->setFilter(QStringLiteral(":naive"), false);
  ASSERT_EQ(view.pane()->proxy()->rowCount(), 1);
  QString filtered = dir.filePath(QStringLiteral("filtered.csv"));
  EXPECT_TRUE(view.pane()->exportCsv(filtered).isEmpty());
  QList<QByteArray> lines = readFile(filtered).split('\n');
  ASSERT_GE(lines.size(), 2);
  EXPECT_TRUE(lines[1].contains(":naive")) << lines[1].toStdString();
  EXPECT_FALSE(view.pane()->exportCsv(dir.filePath(QStringLiteral("missing/dir/x.csv"))).isEmpty());
  EXPECT_TRUE(check.failures().isEmpty()) << check.failures().join('\n').toStdString();
}

// At 1280x720 the tables get about 210 px: the chooser shares the filter's row (it had one of its own, and
// the table showed five rows), and the report's description is the filter's placeholder.
TEST(StatsReportsView, AShortPaneKeepsItsHeightForRows) {
  TraceSession session;
  StatsReportsView view(&session);
  view.resize(1000, 210);
  view.show();
  session.setTrace(transposeTrace());
  ASSERT_TRUE(view.showReport(QStringLiteral("cuda_api_sum")));
  ASSERT_TRUE(waitForReport(view.pane()));
  QApplication::processEvents();
  QLineEdit* filter = view.pane()->filterEdit();
  QPoint chooserAt = view.chooser()->mapTo(&view, view.chooser()->rect().center());
  QPoint filterAt = filter->mapTo(&view, filter->rect().center());
  EXPECT_NEAR(chooserAt.y(), filterAt.y(), 3);
  EXPECT_LT(view.chooser()->geometry().right(), filter->mapTo(&view, QPoint(0, 0)).x());
  EXPECT_EQ(filter->placeholderText(),
            QStringLiteral("Filter rows of CUDA runtime and driver API calls by function: time, calls, statistics"));
  QTreeView* table = view.pane()->view();
  ASSERT_GT(table->model()->rowCount(), 7);
  int rowHeight = table->visualRect(table->model()->index(0, 0)).height();
  EXPECT_GE(table->viewport()->height() / std::max(rowHeight, 1), 7);
}

TEST(ReportPane, WaitsUntilShownToRun) {
  ReportPane pane;
  pane.setReport(transposeTrace(), QStringLiteral("osrt_sum"));
  EXPECT_FALSE(pane.isRunning());
  EXPECT_EQ(pane.model()->rowCount(), 0);
  pane.show();
  ASSERT_TRUE(waitForReport(&pane));
  EXPECT_GT(pane.model()->rowCount(), 0);
  pane.setReport(nullptr, QStringLiteral("osrt_sum"));
  EXPECT_EQ(pane.model()->rowCount(), 0);
}

// Issue 40, point 9: cuda_gpu_trace's Name is its 21st and last column, off-screen in a pane of ordinary width. The
// view shows it first; the model and the CSV export keep nsys's order; a report that ends otherwise keeps its order.
TEST(ReportPane, ShowsTheNameColumnFirstAndExportsNsysOrder) {
  ReportPane pane;
  pane.resize(900, 400);
  pane.setReport(transposeTrace(), QStringLiteral("cuda_gpu_trace"));
  pane.show();
  ASSERT_TRUE(waitForReport(&pane));
  QHeaderView* header = pane.view()->header();
  const int name = columnTitled(*pane.model(), QStringLiteral("Name"));
  ASSERT_EQ(name, pane.model()->columnCount() - 1) << "nsys's order in the model";
  EXPECT_EQ(header->visualIndex(name), 0);
  EXPECT_EQ(header->logicalIndexAt(0), name) << "at the left edge";
  for (int logical = 0; logical < name; ++logical) EXPECT_EQ(header->visualIndex(logical), logical + 1);
  // No wider than a third of the pane, so that the numbers after it stay on screen.
  EXPECT_LE(header->sectionSize(name), std::max(240, pane.view()->viewport()->width() / 3));
  EXPECT_LT(header->sectionViewportPosition(1), pane.view()->viewport()->width()) << "Duration on screen";
  QTemporaryDir dir;
  const QString csv = dir.filePath(QStringLiteral("gpu_trace.csv"));
  ASSERT_TRUE(pane.exportCsv(csv).isEmpty());
  const QByteArray first = readFile(csv).split('\n').front();
  EXPECT_TRUE(first.startsWith("Start (ns),Duration (ns),")) << first.toStdString();
  EXPECT_TRUE(first.endsWith(",Name")) << first.toStdString();

  pane.setReport(transposeTrace(), QStringLiteral("cuda_api_trace"));  // "Start (ns),Duration (ns),Name,..."
  ASSERT_TRUE(waitForReport(&pane));
  for (int logical = 0; logical < header->count(); ++logical) EXPECT_EQ(header->visualIndex(logical), logical);

  pane.setReport(transposeTrace(), QStringLiteral("nvtx_sum"));  // "...,Style,Range"
  ASSERT_TRUE(waitForReport(&pane));
  EXPECT_EQ(header->visualIndex(columnTitled(*pane.model(), QStringLiteral("Range"))), 0);
}

TEST(NvtxProjectionView, GpuTimePerRangeAndDoubleClickSelectsTheRange) {
  TraceSession session;
  NvtxProjectionView view(&session);
  view.resize(900, 500);
  view.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
  ModelCheck check(view.pane()->model());
  session.setTrace(transposeTrace());
  ASSERT_TRUE(waitForReport(view.pane()));
  const QAbstractItemModel& model = *view.pane()->model();
  ASSERT_EQ(model.rowCount(), 4);  // upload, naive, shared, download, as nsys's CSV of the fixture
  int range = columnTitled(model, QStringLiteral("Range"));
  int projected = columnTitled(model, QStringLiteral("Total Proj Time (ns)"));
  int operations = columnTitled(model, QStringLiteral("Total GPU Ops"));
  int naive = rowWith(model, range, QStringLiteral(":naive"));
  ASSERT_GE(naive, 0);
  // Each "naive" range launches one transposeNaive kernel: the projection is the kernels' time.
  EXPECT_EQ(model.index(naive, projected).data(ReportTableModel::SortRole).toLongLong(),
            sqlInt(*transposeTrace(),
                   "SELECT sum(k.end - k.start) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s"
                   " ON s.id = k.shortName WHERE s.value = 'transposeNaive'"));
  EXPECT_EQ(model.index(naive, operations).data().toString(), QStringLiteral("10"));

  QTreeView* tree = view.pane()->view();
  QModelIndex shown = view.pane()->proxy()->mapFromSource(model.index(naive, 0));
  QRect rect = tree->visualRect(shown);
  QTest::mouseClick(tree->viewport(), Qt::LeftButton, {}, rect.center());
  QTest::mouseDClick(tree->viewport(), Qt::LeftButton, {}, rect.center());
  ASSERT_TRUE(session.selection());
  EXPECT_EQ(transposeTrace()->name(*session.selection()), "naive");
  EXPECT_EQ(transposeTrace()->track(session.selection()->track).kind, TrackKind::Nvtx);
  EXPECT_EQ(transposeTrace()->start(*session.selection()),
            sqlInt(*transposeTrace(), "SELECT min(start) FROM NVTX_EVENTS WHERE text = 'naive'"));
  EXPECT_TRUE(check.failures().isEmpty()) << check.failures().join('\n').toStdString();
}

// Issue 40, point 9: "step 0" ... "step 39" are one range of 40 instances, as the verdict groups them, not 40 rows of
// one; a domain's own name keeps its digits.
TEST(NvtxProjectionView, GroupsRangesByNameWithTheirNumbersReadAsOne) {
  NvtxProjectionGroups groups;
  for (int step = 0; step < 40; ++step) {
    NvtxProjectionGroup& group = groups[{":step " + std::to_string(step), "PushPop"}];
    group.projected = {1000 + step};
    group.rangeTime = 2000;
    group.operations = 3;
    group.levels = 1;
  }
  groups[{"layer2:block 7", "PushPop"}].projected = {5};
  groups[{":forward", "PushPop"}].projected = {6, 8};
  const NvtxProjectionGroups grouped = groupedByStepName(groups);
  ASSERT_EQ(grouped.size(), 3u);
  const NvtxProjectionGroup& steps = grouped.at({":step N", "PushPop"});
  EXPECT_EQ(steps.projected.size(), 40u);
  EXPECT_EQ(steps.rangeTime, 40 * 2000);
  EXPECT_EQ(steps.operations, 40 * 3);
  EXPECT_EQ(steps.levels, 40);
  EXPECT_EQ(grouped.at({"layer2:block N", "PushPop"}).projected, std::vector<int64_t>{5});
  EXPECT_EQ(grouped.at({":forward", "PushPop"}).projected, (std::vector<int64_t>{6, 8}));
  const ReportTable table = nvtxGpuProjTable(grouped);
  ASSERT_EQ(table.rows.size(), 3u);
}

// loader2's "epoch 0" and "epoch 1" are one row of 2 instances in the viewer's table, whose double-click selects the
// first; nsys's report (`gpuscope stats`, the Stats Reports tab, its CSV) keeps a row per name.
TEST(NvtxProjectionView, TheTableGroupsNumberedRangesAndTheReportDoesNot) {
  TraceSession session;
  NvtxProjectionView view(&session);
  view.resize(900, 500);
  view.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
  session.setTrace(test::loader2Trace());
  ASSERT_TRUE(waitForReport(view.pane()));
  const QAbstractItemModel& model = *view.pane()->model();
  const int range = columnTitled(model, QStringLiteral("Range"));
  const int instances = columnTitled(model, QStringLiteral("Range Instances"));
  const int epochs = rowWith(model, range, QStringLiteral(":epoch N"));
  ASSERT_GE(epochs, 0);
  EXPECT_EQ(model.index(epochs, instances).data().toString(), QStringLiteral("2"));
  EXPECT_EQ(rowWith(model, range, QStringLiteral(":epoch 0")), -1);
  EXPECT_GE(rowWith(model, range, QStringLiteral(":step")), 0);
  emit view.pane()->rowActivated(epochs);
  ASSERT_TRUE(session.selection());
  EXPECT_EQ(test::loader2Trace()->name(*session.selection()), "epoch 0");

  const ReportTable nsys = runStatsReport(test::loader2Trace()->database(), "nvtx_gpu_proj_sum");
  QStringList names;
  for (const auto& row : nsys.rows) names << QString::fromStdString(std::get<std::string>(row[0]));
  EXPECT_TRUE(names.contains(QStringLiteral(":epoch 0"))) << names.join(' ').toStdString();
  EXPECT_TRUE(names.contains(QStringLiteral(":epoch 1")));
  EXPECT_FALSE(names.contains(QStringLiteral(":epoch N")));
}

}  // namespace
}  // namespace gpuscope::ui

namespace gpuscope::ui {
namespace {

// Issue 15, point 8: the range picked on the ruler restricts the stats reports too (nsys's "filter and zoom
// in"), with the bar that says so; clearing it brings the whole run back.
TEST(StatsReportsView, TheRulerRangeRestrictsTheReportToItsEvents) {
  TraceSession session;
  StatsReportsView view(&session);
  view.show();
  session.setTrace(transposeTrace());
  ASSERT_TRUE(view.showReport(QStringLiteral("cuda_gpu_kern_sum")));
  ASSERT_TRUE(waitForReport(view.pane()));
  auto instances = [&view] {
    const QAbstractItemModel& model = *view.pane()->model();
    int column = columnTitled(model, QStringLiteral("Instances"));
    int64_t total = 0;
    for (int row = 0; row < model.rowCount(); ++row)
      total += model.index(row, column).data(ReportTableModel::SortRole).toLongLong();
    return total;
  };
  EXPECT_EQ(instances(), 30);
  EXPECT_FALSE(view.rangeBar()->isVisibleTo(&view));

  const std::string kernels = " FROM CUPTI_ACTIVITY_KIND_KERNEL";
  int64_t first = sqlInt(*transposeTrace(), "SELECT min(start)" + kernels);
  int64_t last = sqlInt(*transposeTrace(), "SELECT max(end)" + kernels);
  int64_t middle = first + (last - first) / 2;
  session.setRange(middle, first);  // picked right to left: the same range
  ASSERT_TRUE(waitForReport(view.pane()));
  int64_t expected = sqlInt(*transposeTrace(), "SELECT count(*)" + kernels + " WHERE start < " +
                                                   std::to_string(middle) + " AND end > " + std::to_string(first));
  ASSERT_GT(expected, 0);
  ASSERT_LT(expected, 30);
  EXPECT_EQ(instances(), expected);
  EXPECT_TRUE(view.rangeBar()->isVisibleTo(&view));
  EXPECT_TRUE(view.rangeBar()->text().startsWith(QStringLiteral("Only events in")))
      << view.rangeBar()->text().toStdString();

  auto* clear = view.rangeBar()->findChild<QToolButton*>(QStringLiteral("clearRange"));
  ASSERT_NE(clear, nullptr);
  clear->click();
  ASSERT_TRUE(waitForReport(view.pane()));
  EXPECT_EQ(instances(), 30);
  EXPECT_FALSE(view.rangeBar()->isVisibleTo(&view));
}

TEST(NvtxProjectionView, TheRulerRangeKeepsOnlyTheRangesInIt) {
  TraceSession session;
  NvtxProjectionView view(&session);
  view.show();
  session.setTrace(transposeTrace());
  ASSERT_TRUE(waitForReport(view.pane()));
  ASSERT_EQ(view.pane()->model()->rowCount(), 4);
  // The first "naive" range alone.
  const std::string naive =
      " FROM NVTX_EVENTS n LEFT JOIN StringIds s ON s.id = n.textId WHERE coalesce(n.text, s.value) = 'naive' "
      "ORDER BY n.start LIMIT 1";
  int64_t start = sqlInt(*transposeTrace(), "SELECT n.start" + naive);
  int64_t end = sqlInt(*transposeTrace(), "SELECT n.end" + naive);
  session.setRange(start, end);
  ASSERT_TRUE(waitForReport(view.pane()));
  const QAbstractItemModel& model = *view.pane()->model();
  int range = columnTitled(model, QStringLiteral("Range"));
  int instances = columnTitled(model, QStringLiteral("Range Instances"));
  int row = rowWith(model, range, QStringLiteral(":naive"));
  ASSERT_GE(row, 0);
  EXPECT_EQ(model.index(row, instances).data().toString(), QStringLiteral("1"));
  EXPECT_TRUE(view.rangeBar()->isVisibleTo(&view));
}

}  // namespace
}  // namespace gpuscope::ui
