// The roofline's axes stay sane for any data (issue 30, point 3). A PyTorch report attached to another
// program's trace (classes/graph, 1 of 40 launches matched) leaves no drawable point: the y axis ran to
// 1e300 GFLOP/s with 64 overprinted labels and the roofs squashed at the bottom.
#include <gtest/gtest.h>
#include <unistd.h>

#include <QApplication>
#include <QChart>
#include <QFontMetricsF>
#include <QLogValueAxis>
#include <cmath>
#include <filesystem>

#include "core/model/trace_loader.h"
#include "core/ncu/ncu_import.h"
#include "tests/core/testing/gz_fixture.h"
#include "tests/core/testing/test_files.h"
#include "ui/roofline/roofline_chart_view.h"
#include "ui/roofline/roofline_view.h"
#include "ui/session/trace_session.h"

namespace gpuscope::ui {
namespace {

using testing::kFixtures;

std::shared_ptr<const Trace> mismatchedTrace() {
  static std::shared_ptr<const Trace> trace = [] {
    auto path =
        (std::filesystem::temp_directory_path() / ("gpuscope_roofline_axes_" + std::to_string(::getpid()) + ".sqlite"))
            .string();
    auto match = importNcuMetrics(
        {testing::classFixture("graph", "nsys"), kFixtures + "/ncu/loader2_ncu_metrics.csv", path, false});
    EXPECT_EQ(ncuMatchedLaunches(match), "1 of 40 profiled kernel launches");
    std::shared_ptr<const Trace> loaded = loadTrace(path);
    std::filesystem::remove(path);
    return loaded;
  }();
  return trace;
}

double decades(double min, double max) { return std::log10(max) - std::log10(min); }

// At most one label per decade, none overlapping the next.
void expectReadableYLabels(const RooflineChartView& chartView) {
  QStringList labels = chartView.yTickLabels();
  auto positions = chartView.yTickPositions();
  ASSERT_FALSE(labels.isEmpty());
  double span = decades(chartView.yAxis()->min(), chartView.yAxis()->max());
  EXPECT_LE(labels.size(), std::floor(span) + 1) << labels.join(", ").toStdString();
  double height = QFontMetricsF(chartView.yAxis()->labelsFont()).height();
  for (size_t i = 1; i < positions.size(); ++i)
    EXPECT_GE(std::abs(positions[i] - positions[i - 1]), height) << labels.join(", ").toStdString();
}

TEST(RooflineAxes, AReportOfAnotherProgramKeepsTheRoofsInViewAndTheLabelsApart) {
  TraceSession session;
  session.setTrace(mismatchedTrace());
  RooflineView view(&session);
  view.resize(1280, 640);
  view.show();
  QApplication::processEvents();
  const auto* chartView = view.chartView();
  ASSERT_TRUE(chartView->hasAxes());
  double yMin = chartView->yAxis()->min(), yMax = chartView->yAxis()->max();
  EXPECT_LE(decades(yMin, yMax), 12.0) << yMin << " to " << yMax;
  // The H100's FP32 peak (66.9 TFLOP/s = 66,900 GFLOP/s) sits in the upper part of the chart, not squashed.
  double peak = std::log10(66'900.0);
  EXPECT_GT((peak - std::log10(yMin)) / decades(yMin, yMax), 0.5) << yMin << " to " << yMax;
  expectReadableYLabels(*chartView);
}

TEST(RooflineAxes, ZoomingFarOutStopsAtADozenDecades) {
  TraceSession session;
  session.setTrace(mismatchedTrace());
  RooflineView view(&session);
  view.resize(900, 420);  // a short chart: fewer labels fit
  view.show();
  QApplication::processEvents();
  auto* chartView = view.chartView();
  QPointF centre = chartView->viewport()->rect().center();
  for (int i = 0; i < 40; ++i) chartView->zoomAround(centre, 10);
  QApplication::processEvents();
  for (auto* axis : {chartView->xAxis(), chartView->yAxis()}) {
    EXPECT_TRUE(std::isfinite(axis->min()) && std::isfinite(axis->max()));
    EXPECT_GT(axis->min(), 0);
    EXPECT_LE(decades(axis->min(), axis->max()), 14.0 + 1e-6);
  }
  expectReadableYLabels(*chartView);
}

// Intensities run from hundredths to tens of thousands of FLOP per byte: the x labels read as plain numbers.
TEST(RooflineAxes, IntensityTicksArePlainNumbers) {
  TraceSession session;
  session.setTrace(mismatchedTrace());
  RooflineView view(&session);
  view.resize(1100, 700);
  auto* chartView = view.findChild<RooflineChartView*>();
  ASSERT_NE(chartView, nullptr);
  ASSERT_NE(chartView->xAxis(), nullptr);
  QByteArray format = chartView->xAxis()->labelFormat().toLatin1();
  for (auto [value, text] : {std::pair{1e-4, "0.0001"}, {0.01, "0.01"}, {1.0, "1"}, {1e4, "10000"}, {1e6, "1000000"}})
    EXPECT_EQ(QString::asprintf(format.constData(), value), QString(text)) << value;
}

TEST(RooflineAxes, LogTicksNeverCrowd) {
  // Every power of ten of 1e-30..1e30 would be 61 labels: every seventh fits in 9.
  auto ticks = logTicks(1e-30, 1e30, 9);
  ASSERT_FALSE(ticks.empty());
  EXPECT_LE(ticks.size(), 9u);
  for (double tick : ticks) {
    double exponent = std::log10(tick);
    EXPECT_NEAR(exponent, std::round(exponent), 1e-9);  // still powers of ten
  }
  EXPECT_EQ(logTicks(1, 1e4, 64).size(), 5u);  // room for all: one per decade
  EXPECT_TRUE(logTicks(0, 1e4).empty());
  EXPECT_TRUE(logTicks(1, std::numeric_limits<double>::infinity()).empty());
}

}  // namespace
}  // namespace gpuscope::ui
