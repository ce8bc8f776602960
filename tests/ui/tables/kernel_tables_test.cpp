// The kernel tables on transpose.sqlite: model contents against SQL, proxies, and double-click focusing.
#include <gtest/gtest.h>

#include <QComboBox>
#include <QTableView>
#include <QTest>
#include <filesystem>
#include <map>

#include "core/model/trace_loader.h"
#include "core/model/trace_summary.h"
#include "core/ranks/trace_merge.h"
#include "tests/ui/tables/table_test_support.h"
#include "ui/session/trace_session.h"
#include "ui/tables/kernel_summary_model.h"
#include "ui/tables/kernel_table_model.h"
#include "ui/tables/kernel_table_view.h"

namespace gpuscope::ui {
namespace {

using test::ModelCheck;
using test::sqlInt;
using test::transposeTrace;

const std::string kKernels = " FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = k.shortName";

int rowNamed(const QAbstractItemModel& model, const QString& name) {
  for (int row = 0; row < model.rowCount(); ++row) {
    if (model.index(row, 0).data().toString() == name) return row;
  }
  return -1;
}

TEST(KernelTableModel, OneRowPerKernelInTimeOrder) {
  KernelTableModel model;
  ModelCheck check(&model);
  auto trace = transposeTrace();
  model.setTrace(trace);
  ASSERT_EQ(model.rowCount(), sqlInt(*trace, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL"));
  ASSERT_EQ(model.columnCount(), KernelTableModel::RankColumn) << "no Rank column without ranks";
  EXPECT_FALSE(model.hasRanks());
  auto first = model.index(0, KernelTableModel::StartColumn);
  EXPECT_EQ(first.data(KernelTableModel::SortRole).toLongLong(),
            sqlInt(*trace, "SELECT min(start) FROM CUPTI_ACTIVITY_KIND_KERNEL"));
  EXPECT_EQ(model.index(0, KernelTableModel::NameColumn).data().toString(), QStringLiteral("transposeNaive"));
  auto duration = model.index(0, KernelTableModel::DurationColumn);
  TimeNs ns = sqlInt(*trace, "SELECT end - start FROM CUPTI_ACTIVITY_KIND_KERNEL ORDER BY start LIMIT 1");
  EXPECT_EQ(duration.data(KernelTableModel::SortRole).toLongLong(), ns);
  EXPECT_EQ(duration.data().toString(), QString::fromStdString(formatDuration(ns)));
  EXPECT_EQ(model.index(0, KernelTableModel::StreamColumn).data().toUInt(), 13u);
  EXPECT_EQ(model.index(0, KernelTableModel::CorrelationColumn).data().toUInt(), 128u);
  for (int row = 0; row < model.rowCount(); ++row) EXPECT_EQ(model.rowOf(model.eventAt(row)), row);
  model.setTrace(nullptr);
  EXPECT_EQ(model.rowCount(), 0);
  EXPECT_TRUE(check.failures().isEmpty()) << check.failures().join('\n').toStdString();
}

// Issue 40, point 9: the two-rank DDP run merged (tests/fixtures/ranks): each kernel row says its rank, the rank of
// the process that launched it, and the table sorts by it, each rank's kernels in time order.
TEST(KernelTableModel, ATraceOfRanksHasARankColumn) {
  const std::string merged = (std::filesystem::path(::testing::TempDir()) / "kernel_table_ranks.sqlite").string();
  const std::string kineto = GPUSCOPE_FIXTURES "/ranks/kineto/";
  mergeTraces({kineto + "rank0.json.gz", kineto + "rank1.json.gz"}, merged);
  std::shared_ptr<const Trace> trace(loadTrace(merged).release());
  KernelTableModel model;
  ModelCheck check(&model);
  model.setTrace(trace);
  ASSERT_TRUE(model.hasRanks());
  ASSERT_EQ(model.columnCount(), KernelTableModel::ColumnCount);
  EXPECT_EQ(model.headerData(KernelTableModel::RankColumn, Qt::Horizontal).toString(), QStringLiteral("Rank"));
  std::map<int64_t, int64_t> rankOfPid;
  for (const ProcessInfo& process : trace->processes()) {
    ASSERT_TRUE(process.rank.has_value()) << process.name;
    rankOfPid[process.globalPid] = *process.rank;
  }
  std::map<qlonglong, int> kernelsOfRank;
  for (int row = 0; row < model.rowCount(); ++row) {
    const QVariant rank = model.index(row, KernelTableModel::RankColumn).data();
    ASSERT_TRUE(rank.isValid()) << row;
    EXPECT_EQ(rank.toLongLong(), rankOfPid.at(trace->track(model.eventAt(row).track).globalTid)) << row;
    ++kernelsOfRank[rank.toLongLong()];
  }
  EXPECT_EQ(kernelsOfRank.size(), 2u);
  EXPECT_EQ(kernelsOfRank[0] + kernelsOfRank[1], model.rowCount());

  model.sort(KernelTableModel::RankColumn, Qt::DescendingOrder);
  ASSERT_EQ(model.rowCount(), kernelsOfRank[0] + kernelsOfRank[1]);
  for (int row = 1; row < model.rowCount(); ++row) {
    const qlonglong before = model.index(row - 1, KernelTableModel::RankColumn).data().toLongLong();
    const qlonglong after = model.index(row, KernelTableModel::RankColumn).data().toLongLong();
    ASSERT_GE(before, after) << row;
    if (before == after) {
      EXPECT_LE(trace->start(model.eventAt(row - 1)), trace->start(model.eventAt(row))) << row;
    }
  }
  EXPECT_EQ(model.index(0, KernelTableModel::RankColumn).data().toLongLong(), 1);
  EXPECT_TRUE(check.failures().isEmpty()) << check.failures().join(' ').toStdString();
}

TEST(KernelSummaryModel, TransposeHasThreeKernelsWithSqlTotals) {
  KernelSummaryModel model;
  ModelCheck check(&model);
  auto trace = transposeTrace();
  model.setTrace(trace);
  ASSERT_EQ(model.rowCount(), 3);
  int naive = rowNamed(model, QStringLiteral("transposeNaive"));
  ASSERT_GE(naive, 0);
  auto cell = [&](int column) { return model.index(naive, column); };
  const std::string where = kKernels + " WHERE s.value = 'transposeNaive'";
  EXPECT_EQ(cell(KernelSummaryModel::CountColumn).data().toLongLong(), 10);
  TimeNs total = sqlInt(*trace, "SELECT sum(k.end - k.start)" + where);
  EXPECT_EQ(cell(KernelSummaryModel::TotalColumn).data(KernelSummaryModel::SortRole).toLongLong(), total);
  EXPECT_EQ(cell(KernelSummaryModel::TotalColumn).data().toString(), QString::fromStdString(formatDuration(total)));
  EXPECT_EQ(cell(KernelSummaryModel::MinColumn).data(KernelSummaryModel::SortRole).toLongLong(),
            sqlInt(*trace, "SELECT min(k.end - k.start)" + where));
  EXPECT_EQ(cell(KernelSummaryModel::MaxColumn).data(KernelSummaryModel::SortRole).toLongLong(),
            sqlInt(*trace, "SELECT max(k.end - k.start)" + where));
  EXPECT_DOUBLE_EQ(cell(KernelSummaryModel::AverageColumn).data(KernelSummaryModel::SortRole).toDouble(), total / 10.0);
  double all = static_cast<double>(sqlInt(*trace, "SELECT sum(end - start) FROM CUPTI_ACTIVITY_KIND_KERNEL"));
  EXPECT_DOUBLE_EQ(cell(KernelSummaryModel::ShareColumn).data(KernelSummaryModel::SortRole).toDouble(), total / all);
  EXPECT_EQ(cell(KernelSummaryModel::ShareColumn).data().toString(), QStringLiteral("72.0 %"));  // as nsys prints it
  EXPECT_EQ(trace->start(model.firstInstance(naive)), sqlInt(*trace, "SELECT min(k.start)" + where));
  EXPECT_TRUE(check.failures().isEmpty()) << check.failures().join('\n').toStdString();
}

TEST(TableFilterProxy, SortsByRawValuesAndFiltersByTextOrRegex) {
  KernelTableModel model;
  model.setTrace(transposeTrace());
  auto* proxy = createTableProxy(&model, KernelTableModel::NameColumn, &model);
  ModelCheck check(proxy);
  proxy->sort(KernelTableModel::DurationColumn, Qt::DescendingOrder);
  EXPECT_EQ(proxy->index(0, KernelTableModel::DurationColumn).data(KernelTableModel::SortRole).toLongLong(),
            sqlInt(*transposeTrace(), "SELECT max(end - start) FROM CUPTI_ACTIVITY_KIND_KERNEL"));
  EXPECT_TRUE(proxy->setFilter(QStringLiteral("NAIVE"), false).isEmpty());
  EXPECT_EQ(proxy->rowCount(), 10);
  EXPECT_TRUE(proxy->setFilter(QStringLiteral("^transpose(Naive|Shared)$"), true).isEmpty());
  EXPECT_EQ(proxy->rowCount(), 20);
  EXPECT_TRUE(proxy->setFilter(QStringLiteral("saxpy|naive"), false).isEmpty());  // text, not a pattern
  EXPECT_EQ(proxy->rowCount(), 0);
  EXPECT_FALSE(proxy->setFilter(QStringLiteral("("), true).isEmpty());
  EXPECT_EQ(proxy->rowCount(), 30);
  EXPECT_TRUE(check.failures().isEmpty()) << check.failures().join('\n').toStdString();
}

void doubleClickRow(QAbstractItemView* view, int row) {
  QRect rect = view->visualRect(view->model()->index(row, 0));
  ASSERT_TRUE(rect.isValid());
  // A press first, as a real double-click has: the view only acts on the index the press went to.
  QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, rect.center());
  QTest::mouseDClick(view->viewport(), Qt::LeftButton, {}, rect.center());
}

TEST(KernelTableView, DoubleClickFocusesTheKernel) {
  TraceSession session;
  KernelTableView table(&session);
  table.resize(800, 600);
  table.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&table));
  ModelCheck instances(table.instanceModel());
  ModelCheck summary(table.summaryProxy());
  session.setTrace(transposeTrace());
  table.setFilter(QStringLiteral("shared"), false);
  ASSERT_EQ(table.view()->model()->rowCount(), 10);
  doubleClickRow(table.view(), 2);
  EventRef third = table.instanceModel()->eventAt(2);
  ASSERT_TRUE(session.selection());
  EXPECT_EQ(*session.selection(), third);
  EXPECT_EQ(transposeTrace()->name(third), "transposeShared");
  EXPECT_LE(session.viewStart(), transposeTrace()->start(third));
  EXPECT_GE(session.viewEnd(), transposeTrace()->end(third));
  EXPECT_TRUE(instances.failures().isEmpty() && summary.failures().isEmpty());
}

TEST(KernelTableView, ByNameDoubleClickFocusesTheFirstInstance) {
  TraceSession session;
  KernelTableView table(&session);
  table.resize(800, 600);
  table.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&table));
  session.setTrace(transposeTrace());
  table.setGrouped(true);
  ASSERT_EQ(table.view()->model(), table.summaryProxy());
  ASSERT_EQ(table.view()->model()->rowCount(), 3);
  int saxpy = rowNamed(*table.view()->model(), QStringLiteral("saxpy"));
  ASSERT_GE(saxpy, 0);
  doubleClickRow(table.view(), saxpy);
  ASSERT_TRUE(session.selection());
  EXPECT_EQ(transposeTrace()->name(*session.selection()), "saxpy");
  EXPECT_EQ(transposeTrace()->start(*session.selection()),
            sqlInt(*transposeTrace(), "SELECT min(k.start)" + kKernels + " WHERE s.value = 'saxpy'"));
}

TEST(KernelTableView, FollowsTheSessionSelection) {
  TraceSession session;
  KernelTableView table(&session);
  session.setTrace(transposeTrace());
  EventRef kernel = table.instanceModel()->eventAt(17);
  session.select(kernel);
  EXPECT_EQ(table.view()->currentIndex().row(), 17);
  table.setGrouped(true);
  EXPECT_EQ(table.view()->currentIndex().data().toString(), QString::fromStdString(transposeTrace()->name(kernel)));
}

}  // namespace
}  // namespace gpuscope::ui
