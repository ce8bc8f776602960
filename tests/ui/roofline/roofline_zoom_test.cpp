// RooflineView's zoom and roof toggles on transpose.sqlite with the fixture's ncu metrics: engineering tick
// labels, wheel zoom around the cursor, rubber-band zoom, R and Reset, click-select through the rubber band,
// memory-level and precision toggles (model and pixels).
#include <gtest/gtest.h>
#include <unistd.h>

#include <QApplication>
#include <QChart>
#include <QComboBox>
#include <QDir>
#include <QGraphicsEllipseItem>
#include <QImage>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QMouseEvent>
#include <QPushButton>
#include <QScatterSeries>
#include <QTest>
#include <QToolButton>
#include <QWheelEvent>
#include <cmath>
#include <filesystem>

#include "core/model/trace_loader.h"
#include "core/ncu/ncu_import.h"
#include "tests/ui/roofline/roofline_test_support.h"
#include "tests/ui/tables/table_test_support.h"
#include "ui/roofline/roofline_chart_view.h"
#include "ui/roofline/roofline_view.h"
#include "ui/session/trace_session.h"

namespace gpuscope::ui {
namespace {

using test::lineNamed;
using test::pointSeries;
using test::transposeWithMetricsTrace;

double logSpan(double min, double max) { return std::log10(max) - std::log10(min); }

void sendMouse(QWidget* target, QEvent::Type type, QPointF position, Qt::MouseButtons buttons) {
  QMouseEvent event(type, position, target->mapToGlobal(position), Qt::LeftButton, buttons, Qt::NoModifier);
  QApplication::sendEvent(target, &event);
}

int countColour(const QImage& image, QColor colour, int tolerance = 14) {
  int count = 0;
  for (int y = 0; y < image.height(); ++y)
    for (int x = 0; x < image.width(); ++x) {
      QColor c = image.pixelColor(x, y);
      if (std::abs(c.red() - colour.red()) < tolerance && std::abs(c.green() - colour.green()) < tolerance &&
          std::abs(c.blue() - colour.blue()) < tolerance)
        ++count;
    }
  return count;
}

class RooflineZoomTest : public ::testing::Test {
 protected:
  void SetUp() override {
    session.setTrace(transposeWithMetricsTrace());
    view.resize(1000, 700);
    view.show();
    QApplication::processEvents();
  }
  RooflineChartView* chartView() { return view.chartView(); }
  // The viewport position of the saxpy point (the one drawn point of kernels by name).
  QPointF saxpyPosition() { return chartView()->viewportPosition(pointSeries(view)->at(0)); }

  TraceSession session;
  RooflineView view{&session};
};

TEST_F(RooflineZoomTest, TickLabelsInEngineeringUnits) {
  auto* yAxis = chartView()->yAxis();
  ASSERT_NE(yAxis, nullptr);
  // Qt's own labels only hold the space: transparent.
  EXPECT_EQ(yAxis->labelsBrush().color().alpha(), 0);
  EXPECT_EQ(yAxis->titleText(), "Performance (FLOP/s)");
  EXPECT_EQ(chartView()->xAxis()->titleText(), "Arithmetic intensity, DRAM (FLOP/byte)");
  // saxpy at 467 GFLOP/s: home from 10 GFLOP/s; the FP32 peak 66.9 TFLOP/s (the Tensor ceiling, on by default
  // on the H100, hidden): up to 10^5.3 GFLOP/s.
  view.precisionToggle(Precision::Tensor)->setChecked(false);
  EXPECT_DOUBLE_EQ(yAxis->min(), 10.0);
  QStringList labels = chartView()->yTickLabels();
  EXPECT_EQ(labels, QStringList({"10 GFLOP/s", "100 GFLOP/s", "1 TFLOP/s", "10 TFLOP/s", "100 TFLOP/s"}))
      << labels.join(", ").toStdString();
  // Bottom to top, each at its value's height.
  auto positions = chartView()->yTickPositions();
  ASSERT_EQ(positions.size(), 5u);
  for (size_t i = 0; i < positions.size(); ++i) {
    double expected = chartView()->viewportPosition({1.0, std::pow(10.0, 1.0 + static_cast<double>(i))}).y();
    EXPECT_NEAR(positions[i], expected, 1.5) << i;
  }
  // Zoomed inside one decade, the ticks follow: powers of 2 or finer, still engineering text.
  chartView()->xAxis()->setRange(0.1, 0.3);
  chartView()->yAxis()->setRange(300, 700);
  labels = chartView()->yTickLabels();
  ASSERT_GE(labels.size(), 2) << labels.join(", ").toStdString();
  for (const auto& label : labels) EXPECT_TRUE(label.endsWith(" GFLOP/s")) << label.toStdString();
}

TEST_F(RooflineZoomTest, WheelZoomsAroundTheCursor) {
  QRectF home = chartView()->visibleRange();
  EXPECT_FALSE(view.resetZoomButton()->isEnabled());
  QPointF cursor = saxpyPosition();
  QPointF before = chartView()->valueAt(cursor);
  QWheelEvent wheel(cursor, chartView()->viewport()->mapToGlobal(cursor), QPoint(), QPoint(0, 240), Qt::NoButton,
                    Qt::NoModifier, Qt::NoScrollPhase, false);
  QApplication::sendEvent(chartView()->viewport(), &wheel);
  QRectF zoomed = chartView()->visibleRange();
  // Two notches in: each log span x 1 / 1.25^2.
  EXPECT_NEAR(logSpan(zoomed.left(), zoomed.right()), logSpan(home.left(), home.right()) / 1.5625, 1e-9);
  EXPECT_NEAR(logSpan(zoomed.top(), zoomed.bottom()), logSpan(home.top(), home.bottom()) / 1.5625, 1e-9);
  // The value under the cursor stays under it (within half a pixel).
  QPointF after = chartView()->viewportPosition(before);
  EXPECT_NEAR(after.x(), cursor.x(), 0.5);
  EXPECT_NEAR(after.y(), cursor.y(), 0.5);
  EXPECT_TRUE(view.resetZoomButton()->isEnabled());
  // R goes home.
  QTest::keyClick(chartView(), Qt::Key_R);
  EXPECT_EQ(chartView()->visibleRange(), home);
  EXPECT_FALSE(view.resetZoomButton()->isEnabled());
  // Out again, then the button.
  QWheelEvent out(cursor, chartView()->viewport()->mapToGlobal(cursor), QPoint(), QPoint(0, -120), Qt::NoButton,
                  Qt::NoModifier, Qt::NoScrollPhase, false);
  QApplication::sendEvent(chartView()->viewport(), &out);
  EXPECT_GT(logSpan(chartView()->visibleRange().left(), chartView()->visibleRange().right()),
            logSpan(home.left(), home.right()));
  view.resetZoomButton()->click();
  EXPECT_EQ(chartView()->visibleRange(), home);
}

TEST_F(RooflineZoomTest, RubberBandZoomsToTheRectangle) {
  QRectF plot = view.chart()->plotArea();
  QPointF topLeft = chartView()->mapFromScene(view.chart()->mapToScene(plot.topLeft() + QPointF(100, 60)));
  QPointF bottomRight = topLeft + QPointF(200, 150);
  QPointF wantedLow = chartView()->valueAt(QPointF(topLeft.x(), bottomRight.y()));
  QPointF wantedHigh = chartView()->valueAt(QPointF(bottomRight.x(), topLeft.y()));
  auto* viewport = chartView()->viewport();
  sendMouse(viewport, QEvent::MouseButtonPress, topLeft, Qt::LeftButton);
  sendMouse(viewport, QEvent::MouseMove, topLeft + QPointF(50, 40), Qt::LeftButton);
  sendMouse(viewport, QEvent::MouseMove, bottomRight, Qt::LeftButton);
  sendMouse(viewport, QEvent::MouseButtonRelease, bottomRight, Qt::NoButton);
  QRectF range = chartView()->visibleRange();
  // Within a pixel of the dragged rectangle, in log terms.
  double pixel = logSpan(wantedLow.x(), wantedHigh.x()) / 200;
  EXPECT_NEAR(std::log10(range.left()), std::log10(wantedLow.x()), 2 * pixel);
  EXPECT_NEAR(std::log10(range.right()), std::log10(wantedHigh.x()), 2 * pixel);
  EXPECT_NEAR(std::log10(range.top()), std::log10(wantedLow.y()), 2 * pixel * 2);
  EXPECT_NEAR(std::log10(range.bottom()), std::log10(wantedHigh.y()), 2 * pixel * 2);
  EXPECT_TRUE(view.resetZoomButton()->isEnabled());
  EXPECT_FALSE(session.selection().has_value());
}

TEST_F(RooflineZoomTest, ClickOnAPointSelectsInsteadOfZooming) {
  // Kernels by name: the saxpy point; a click selects its first launch.
  QRectF home = chartView()->visibleRange();
  auto* series = pointSeries(view);
  ASSERT_NE(series, nullptr);
  QPointF at = chartView()->viewportPosition(series->at(0)) + QPointF(3, -2);  // inside the 30 px marker
  QTest::mouseClick(chartView()->viewport(), Qt::LeftButton, Qt::NoModifier, at.toPoint());
  ASSERT_TRUE(session.selection().has_value());
  const auto& trace = *session.trace();
  auto ref = *session.selection();
  EXPECT_EQ(trace.name(ref), "saxpy");
  EXPECT_EQ(trace.lane(ref).correlation[ref.index], view.points()[view.drawnPoints(series)[0]].correlationId);
  EXPECT_EQ(view.selectionSeries()->count(), 1);
  EXPECT_EQ(chartView()->visibleRange(), home);
  // A click on the background neither zooms nor selects.
  session.select(std::nullopt);
  QPointF empty =
      chartView()->mapFromScene(view.chart()->mapToScene(view.chart()->plotArea().topLeft() + QPointF(20, 20)));
  QTest::mouseClick(chartView()->viewport(), Qt::LeftButton, Qt::NoModifier, empty.toPoint());
  EXPECT_EQ(chartView()->visibleRange(), home);
  EXPECT_FALSE(session.selection().has_value());
}

TEST_F(RooflineZoomTest, MemoryLevelAndPrecisionToggles) {
  // Every level, FP64/FP32 and Tensor (the H100 has tensor cores) on by default; FP16 off: no kernel counted
  // FP16 FLOPs.
  for (auto level : kMemoryLevels) EXPECT_TRUE(view.levelToggle(level)->isChecked());
  EXPECT_TRUE(view.precisionToggle(Precision::Fp64)->isChecked());
  EXPECT_TRUE(view.precisionToggle(Precision::Fp32)->isChecked());
  EXPECT_FALSE(view.precisionToggle(Precision::Fp16)->isChecked());
  EXPECT_TRUE(view.precisionToggle(Precision::Tensor)->isChecked());
  ASSERT_NE(lineNamed(view, "Tensor peak"), nullptr);
  ASSERT_NE(lineNamed(view, "DRAM"), nullptr);
  ASSERT_NE(lineNamed(view, "L1"), nullptr);  // several levels at once
  EXPECT_EQ(lineNamed(view, "L2"), nullptr);  // Hopper's L2 bandwidth is not published
  EXPECT_FALSE(view.levelToggle(MemoryLevel::L2)->isEnabled());
  EXPECT_TRUE(view.levelToggle(MemoryLevel::L2)->toolTip().contains("not known"));
  EXPECT_TRUE(view.levelToggle(MemoryLevel::L1)->isEnabled());
  EXPECT_TRUE(view.message().contains("L2 bandwidth of this GPU is not known")) << view.message().toStdString();
  view.levelToggle(MemoryLevel::Dram)->click();
  EXPECT_EQ(lineNamed(view, "DRAM"), nullptr);
  ASSERT_NE(lineNamed(view, "L1"), nullptr);
  EXPECT_EQ(pointSeries(view)->count(), 1);  // the points stay
  view.precisionToggle(Precision::Fp64)->click();
  EXPECT_EQ(lineNamed(view, "FP64"), nullptr);
  ASSERT_NE(lineNamed(view, "FP32 peak"), nullptr);
  view.precisionToggle(Precision::Fp16)->click();
  auto* fp16 = lineNamed(view, "FP16 peak");
  ASSERT_NE(fp16, nullptr);
  // A ceiling starts at its ridge on the widest roof shown (L1 alone now).
  double l1 = view.roofs().bandwidthOf(MemoryLevel::L1) / 1e9;
  EXPECT_DOUBLE_EQ(fp16->at(0).x(), view.roofs().peak(Precision::Fp16) / 1e9 / l1);
  // Choosing DRAM intensities turns the DRAM roof back on.
  view.levelBox()->setCurrentIndex(2);
  view.levelBox()->setCurrentIndex(0);
  EXPECT_TRUE(view.levelToggle(MemoryLevel::Dram)->isChecked());
  EXPECT_NE(lineNamed(view, "DRAM"), nullptr);
}

TEST_F(RooflineZoomTest, TogglesKeepTheZoomAndChangePixels) {
  QApplication::processEvents();
  int blueWithDram = countColour(view.grab().toImage(), QColor(0x1f, 0x77, 0xb4));
  view.levelToggle(MemoryLevel::Dram)->click();
  QApplication::processEvents();
  QImage without = view.grab().toImage();
  if (qEnvironmentVariableIsSet("GPUSCOPE_SCREENSHOT_DIR"))
    without.save(QDir(qEnvironmentVariable("GPUSCOPE_SCREENSHOT_DIR")).filePath("roofline_no_dram.png"));
  int blueWithout = countColour(without, QColor(0x1f, 0x77, 0xb4));
  EXPECT_GT(blueWithDram - blueWithout, 300) << blueWithDram << " " << blueWithout;  // the roof line went
  EXPECT_GT(blueWithout, 30);  // the DRAM-bound point is still there
  view.levelToggle(MemoryLevel::Dram)->click();
  chartView()->zoomAround(saxpyPosition(), 0.5);
  QRectF zoomed = chartView()->visibleRange();
  view.precisionToggle(Precision::Fp64)->click();
  EXPECT_EQ(chartView()->visibleRange(), zoomed);
  EXPECT_TRUE(view.resetZoomButton()->isEnabled());
}

TEST_F(RooflineZoomTest, TimeDiscsSitOnTheirPointsThroughZoom) {
  ASSERT_EQ(view.timeDiscs().size(), 1u);  // kernels by name: saxpy
  auto* disc = view.timeDiscs()[0];
  auto* series = pointSeries(view);
  // Diameter 6 to 30 px by the square root of the share of the longest point (a transpose, not drawn).
  int64_t longest = 0;
  for (const auto& point : view.points()) longest = std::max(longest, point.durationNs);
  double share =
      static_cast<double>(view.points()[view.drawnPoints(series)[0]].durationNs) / static_cast<double>(longest);
  EXPECT_DOUBLE_EQ(disc->rect().width(), 6 + 24 * std::sqrt(share));
  EXPECT_LT(disc->rect().width(), 29.0);
  QPointF centre = chartView()->chartPosition(series->at(0));
  EXPECT_NEAR(disc->rect().center().x(), centre.x(), 1e-9);
  EXPECT_NEAR(disc->rect().center().y(), centre.y(), 1e-9);
  chartView()->zoomAround(chartView()->viewportPosition(series->at(0)) + QPointF(40, 30), 0.5);
  centre = chartView()->chartPosition(series->at(0));
  EXPECT_NEAR(disc->rect().center().x(), centre.x(), 1e-9);
  EXPECT_NEAR(disc->rect().center().y(), centre.y(), 1e-9);
  // Painted: 6 px right of the centre (outside the 9 px marker, inside the disc) is a blend of DRAM blue.
  QApplication::processEvents();
  QImage image = view.grab().toImage();
  QPointF inDisc =
      chartView()->viewport()->mapTo(&view, chartView()->viewportPosition(series->at(0)).toPoint()) + QPointF(6, 0);
  QColor c = image.pixelColor(inDisc.toPoint());
  EXPECT_GT(c.blue() - c.red(), 40) << c.name().toStdString();
  EXPECT_LT(c.blue(), 250) << c.name().toStdString();  // not the white background
  // Instances: one disc per drawn point.
  view.kindBox()->setCurrentIndex(0);
  ASSERT_EQ(view.timeDiscs().size(), 2u);
  EXPECT_GT(view.timeDiscs()[0]->rect().width(), 6.0);
  EXPECT_GT(view.timeDiscs()[1]->rect().width(), 6.0);
}

}  // namespace
}  // namespace gpuscope::ui
