// Issue 41, point 4: the kernel table's sampled metric columns. Present only when the trace has GPU metrics,
// each cell the core's sampledMeans over that kernel (never a number where fewer than 3 samples fall inside:
// "too short" then), the headers saying they are GPU-wide sampled means, and sortable.
#include <gtest/gtest.h>

#include <QColor>
#include <QSignalSpy>
#include <cmath>
#include <filesystem>
#include <memory>

#include "core/db/sqlite_database.h"
#include "core/metrics/gpu_metric_names.h"
#include "core/metrics/gpu_metrics.h"
#include "core/metrics/sampled_means.h"
#include "core/model/trace_loader.h"
#include "tests/core/testing/metrics_fixtures.h"
#include "tests/ui/tables/table_test_support.h"
#include "tests/ui/timeline/timeline_test_trace.h"
#include "ui/tables/kernel_table_model.h"

namespace gpuscope::ui {
namespace {

TEST(KernelMetricColumns, AbsentWithoutGpuMetrics) {
  KernelTableModel model;
  model.setTrace(test::transposeTrace());
  ASSERT_GT(model.rowCount(), 0);
  EXPECT_FALSE(model.hasMetrics());
  EXPECT_EQ(model.columnCount(), static_cast<int>(KernelTableModel::RankColumn));
  EXPECT_EQ(model.metricColumn(0), -1);
}

class KernelMetricCells : public ::testing::TestWithParam<const char*> {};

TEST_P(KernelMetricCells, EachCellIsTheSampledMeanOverThatKernel) {
  std::shared_ptr<const Trace> trace = loadTrace(testing::gpuMetricsFixture(GetParam()));
  KernelTableModel model;
  model.setTrace(trace);
  ASSERT_GT(model.rowCount(), 0);
  ASSERT_TRUE(model.hasMetrics());
  ASSERT_EQ(model.columnCount(), static_cast<int>(KernelTableModel::RankColumn) + 5);
  EXPECT_EQ(model.headerData(model.metricColumn(0), Qt::Horizontal).toString(), QStringLiteral("SMs Active %"));
  EXPECT_EQ(model.headerData(model.metricColumn(2), Qt::Horizontal).toString(), QStringLiteral("Tensor Active %"));
  QString tip = model.headerData(model.metricColumn(0), Qt::Horizontal, Qt::ToolTipRole).toString();
  EXPECT_TRUE(tip.contains(QStringLiteral("not a per-launch measurement"))) << tip.toStdString();
  EXPECT_TRUE(tip.contains(QStringLiteral("1000 Hz"))) << tip.toStdString();

  const GpuMetrics& metrics = gpuMetrics(*trace);
  int numbers = 0, tooShort = 0;
  for (int row = 0; row < model.rowCount(); ++row) {
    EventRef event = model.eventAt(row);
    SampledMeans expected = sampledMeans(metrics, static_cast<int>(trace->track(event.track).deviceId),
                                         TimeInterval{trace->start(event), trace->end(event)});
    for (int i = 0; i < KernelTableModel::kMetricColumns; ++i) {
      QModelIndex cell = model.index(row, model.metricColumn(i));
      QString shown = model.data(cell).toString();
      if (expected.tooShort()) {
        EXPECT_EQ(shown, QStringLiteral("too short")) << row;
        EXPECT_EQ(model.data(cell, Qt::ForegroundRole).value<QColor>(), QColor(Qt::gray));
        ++tooShort;
      } else {
        const SampledMean* mean = expected.find(gpu_metric::kPerKernel[i]);
        ASSERT_NE(mean, nullptr);
        EXPECT_EQ(shown, QString::number(mean->mean, 'f', 1)) << row << " " << i;
        ++numbers;
      }
    }
  }
  // At 1 kHz these fixtures' kernels (each under 3 ms) are all too short: no cell may show a number.
  EXPECT_EQ(numbers, 0);
  EXPECT_EQ(tooShort, model.rowCount() * KernelTableModel::kMetricColumns);
}

INSTANTIATE_TEST_SUITE_P(Fixtures, KernelMetricCells, ::testing::Values("gm_transpose", "gm_loader2"));

// The hand-made trace (kernelA [2500, 6000), kernelB [6500, 8000), 1000 "tiny" 2 ns kernels from 10000) with GPU
// metrics of GPU 0 every 100 ns, each stamped at its interval's start: SMs Active 80 during kernelA and 30 during
// kernelB, DRAM Read 10 and 60.
std::shared_ptr<const Trace> handMadeWithMetrics() {
  // A copy: the hand-made file is shared with the timeline tests, which must not see these tables.
  std::string path = ::testing::TempDir() + "kernel_metric_columns.sqlite";
  std::filesystem::copy_file(timeline_test::writeHandMadeTrace(), path,
                             std::filesystem::copy_options::overwrite_existing);
  {
    Database db = Database::openWritable(path);
    db.exec(
        "CREATE TABLE TARGET_INFO_GPU_METRICS (typeId INTEGER, sourceId INTEGER, typeName TEXT, metricId "
        "INTEGER, metricName TEXT)");
    db.exec(
        "CREATE TABLE GPU_METRICS (rawTimestamp INTEGER, timestamp INTEGER, typeId INTEGER, metricId INTEGER, "
        "value INTEGER)");
    db.exec("INSERT INTO TARGET_INFO_GPU_METRICS VALUES (0, 0, '', 1, '" + std::string(gpu_metric::kSmsActive) +
            "'), (0, 0, '', 2, '" + std::string(gpu_metric::kDramRead) + "')");
    std::string rows;
    for (TimeNs t = 0; t < 13000; t += 100) {
      bool a = t >= 2500 && t < 6000, b = t >= 6500 && t < 8000;
      int sms = a ? 80 : b ? 30 : 0, dram = a ? 10 : b ? 60 : 0;
      rows += (rows.empty() ? "" : ",") + std::string("(") + std::to_string(t) + "," + std::to_string(t) + ",0,1," +
              std::to_string(sms) + "),(" + std::to_string(t) + "," + std::to_string(t) + ",0,2," +
              std::to_string(dram) + ")";
    }
    db.exec("INSERT INTO GPU_METRICS VALUES " + rows);
  }
  return loadTrace(path);
}

TEST(KernelMetricColumns, LongKernelsShowTheirMeansAndSortByThem) {
  KernelTableModel model;
  model.setTrace(handMadeWithMetrics());
  ASSERT_TRUE(model.hasMetrics());
  ASSERT_EQ(model.rowCount(), 1002);
  const int sms = model.metricColumn(0), dram = model.metricColumn(3), tensor = model.metricColumn(2);
  // In time order: kernelA, kernelB, then the tiny ones.
  EXPECT_EQ(model.data(model.index(0, sms)).toString(), QStringLiteral("80.0"));
  EXPECT_EQ(model.data(model.index(0, dram)).toString(), QStringLiteral("10.0"));
  EXPECT_EQ(model.data(model.index(1, sms)).toString(), QStringLiteral("30.0"));
  EXPECT_EQ(model.data(model.index(1, dram)).toString(), QStringLiteral("60.0"));
  EXPECT_EQ(model.data(model.index(2, sms)).toString(), QStringLiteral("too short"));
  EXPECT_EQ(model.data(model.index(0, tensor)).toString(), QStringLiteral("\u2014"));  // a metric the GPU lacks
  model.sort(dram, Qt::DescendingOrder);
  EXPECT_EQ(model.data(model.index(0, dram)).toString(), QStringLiteral("60.0"));
  EXPECT_EQ(model.data(model.index(1, dram)).toString(), QStringLiteral("10.0"));
  EXPECT_EQ(model.data(model.index(2, dram)).toString(), QStringLiteral("too short"));
  model.sort(sms, Qt::DescendingOrder);
  EXPECT_EQ(model.data(model.index(0, sms)).toString(), QStringLiteral("80.0"));
  model.sort(sms, Qt::AscendingOrder);
  EXPECT_EQ(model.data(model.index(0, sms)).toString(), QStringLiteral("30.0"));
  EXPECT_EQ(model.data(model.index(1001, sms)).toString(), QStringLiteral("too short"));
}

}  // namespace
}  // namespace gpuscope::ui
