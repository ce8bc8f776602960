// Using the roofline as a user does (issue 15, point 7): the tooltip under the mouse, labels, one colour per
// roof and per bound class, a click that shows the point's details on the tab itself, and the Tensor ceiling.
#include <gtest/gtest.h>

#include <QApplication>
#include <QChart>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QGraphicsEllipseItem>
#include <QGraphicsSimpleTextItem>
#include <QLabel>
#include <QLegendMarker>
#include <QLineSeries>
#include <QMouseEvent>
#include <QScatterSeries>
#include <QSet>
#include <QToolButton>
#include <QToolTip>
#include <filesystem>

#include "core/model/trace_loader.h"
#include "core/ncu/ncu_import.h"
#include "tests/ui/roofline/roofline_test_support.h"
#include "tests/ui/tables/table_test_support.h"
#include "ui/roofline/roofline_chart_view.h"
#include "ui/roofline/roofline_palette.h"
#include "ui/roofline/roofline_view.h"
#include "ui/session/trace_session.h"

namespace gpuscope::ui {
namespace {

using test::pointSeries;
using test::transposeWithMetricsTrace;

void sendMouse(QWidget* target, QEvent::Type type, QPointF position, Qt::MouseButton button, Qt::MouseButtons buttons) {
  QMouseEvent event(type, position, target->mapToGlobal(position), button, buttons, Qt::NoModifier);
  QApplication::sendEvent(target, &event);
}

std::vector<QLineSeries*> roofSeries(const RooflineView& view) {
  std::vector<QLineSeries*> roofs;
  for (auto* series : view.chart()->series())
    if (auto* line = qobject_cast<QLineSeries*>(series); line && !qobject_cast<QScatterSeries*>(series))
      roofs.push_back(line);
  return roofs;
}

class RooflineInteractionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    session.setTrace(transposeWithMetricsTrace());
    view.resize(1100, 700);
    view.show();
    QApplication::processEvents();
  }
  QWidget* viewport() { return view.chartView()->viewport(); }
  QPointF saxpyPosition() { return view.chartView()->viewportPosition(pointSeries(view)->at(0)); }
  size_t saxpyIndex() { return view.drawnPoints(pointSeries(view)).at(0); }

  TraceSession session;
  RooflineView view{&session};
};

TEST_F(RooflineInteractionTest, HoverShowsNameRateIntensityBoundAndDuration) {
  ASSERT_NE(pointSeries(view), nullptr);
  // On the time disc, off the small marker: the disc is the point too.
  double radius = view.timeDiscs().at(0)->rect().width() / 2;
  ASSERT_GT(radius, 8);
  sendMouse(viewport(), QEvent::MouseMove, saxpyPosition() + QPointF(radius - 2, 0), Qt::NoButton, Qt::NoButton);
  ASSERT_EQ(view.hoveredPoint(), saxpyIndex());
  ASSERT_TRUE(QToolTip::isVisible());
  QString tip = QToolTip::text();
  EXPECT_TRUE(tip.contains("saxpy(float *, const float *, float, int)")) << tip.toStdString();
  EXPECT_TRUE(tip.contains("Performance: ") && tip.contains("FLOP/s")) << tip.toStdString();
  EXPECT_TRUE(tip.contains("Arithmetic intensity (DRAM): ")) << tip.toStdString();
  EXPECT_TRUE(tip.contains("DRAM-bound")) << tip.toStdString();
  EXPECT_TRUE(tip.contains("Duration: ")) << tip.toStdString();
  // Away from every point the tooltip goes.
  sendMouse(viewport(), QEvent::MouseMove, QPointF(5, 5), Qt::NoButton, Qt::NoButton);
  EXPECT_FALSE(view.hoveredPoint().has_value());
}

TEST_F(RooflineInteractionTest, LabelsNameEveryDrawnPoint) {
  view.kindBox()->setCurrentIndex(0);  // instances: two saxpy points
  ASSERT_EQ(view.pointLabels().size(), view.timeDiscs().size());
  ASSERT_EQ(view.pointLabels().size(), 2u);
  for (auto* label : view.pointLabels()) EXPECT_FALSE(label->isVisible());
  QImage without = view.grab().toImage();
  view.labelsBox()->setChecked(true);
  // The longer point's name at least (a name that would cover another is left out); elided in the middle.
  int first = -1;
  for (int i = 0; i < static_cast<int>(view.pointLabels().size()) && first < 0; ++i)
    if (view.pointLabels().at(static_cast<size_t>(i))->isVisible()) first = i;
  ASSERT_GE(first, 0);
  for (auto* label : view.pointLabels()) {
    EXPECT_TRUE(label->text().startsWith("saxpy(float *")) << label->text().toStdString();
    EXPECT_TRUE(label->text().endsWith("int)")) << label->text().toStdString();
  }
  // The two launches sit on one spot: one name serves both, and neither counts as left unnamed.
  int visible = 0;
  for (auto* label : view.pointLabels()) visible += label->isVisible() ? 1 : 0;
  EXPECT_EQ(visible, 1);
  EXPECT_FALSE(view.labelsNote()->isVisibleTo(&view)) << view.labelsNote()->text().toStdString();
  QImage with = view.grab().toImage();
  if (qEnvironmentVariableIsSet("GPUSCOPE_SCREENSHOT_DIR"))
    with.save(QDir(qEnvironmentVariable("GPUSCOPE_SCREENSHOT_DIR")).filePath("roofline_labels.png"));
  // The text is painted right of the first disc.
  QRectF disc = view.timeDiscs().at(static_cast<size_t>(first))->rect();
  QPointF at = view.chartView()->mapFromScene(
      view.chart()->mapToScene(view.pointLabels().at(static_cast<size_t>(first))->pos()));
  QPoint origin = view.chartView()->mapTo(&view, at.toPoint());
  int changed = 0;
  for (int y = origin.y(); y < origin.y() + 12 && y < with.height(); ++y)
    for (int x = origin.x(); x < origin.x() + 60 && x < with.width(); ++x)
      if (with.pixel(x, y) != without.pixel(x, y)) ++changed;
  EXPECT_GT(changed, 20) << "label at " << origin.x() << "," << origin.y() << " disc " << disc.x();
}

TEST_F(RooflineInteractionTest, EachRoofAndBoundClassHasItsOwnColour) {
  auto roofs = roofSeries(view);
  ASSERT_GE(roofs.size(), 4u);  // DRAM, L1 and at least FP64, FP32
  QSet<QRgb> colours;
  for (auto* roof : roofs) colours.insert(roof->pen().color().rgb());
  EXPECT_EQ(colours.size(), static_cast<qsizetype>(roofs.size()));
  for (auto* roof : roofs) {
    QColor want = roof->name().startsWith("FP32 peak")   ? roofColour(Precision::Fp32)
                  : roof->name().startsWith("FP64 peak") ? roofColour(Precision::Fp64)
                  : roof->name().startsWith("DRAM")      ? roofColour(MemoryLevel::Dram)
                                                         : roof->pen().color();
    EXPECT_EQ(roof->pen().color(), want) << roof->name().toStdString();
  }
  // A point has its bounding roof's colour, and the legend shows both.
  auto* points = pointSeries(view);
  EXPECT_EQ(points->name(), "DRAM-bound");
  EXPECT_EQ(points->color(), roofColour(MemoryLevel::Dram));
  EXPECT_EQ(boundColour("FP32 peak"), roofColour(Precision::Fp32));
  EXPECT_NE(boundColour("FP32 peak"), boundColour("FP64 peak"));
  EXPECT_NE(boundColour("Tensor peak"), boundColour("FP16 peak"));
  EXPECT_EQ(boundClassName("Tensor peak"), "Compute-bound (Tensor)");
  for (auto* roof : roofs) {
    auto markers = view.chart()->legend()->markers(roof);
    ASSERT_EQ(markers.size(), 1);
    EXPECT_TRUE(markers[0]->isVisible());
    EXPECT_EQ(markers[0]->brush().color(), roof->pen().color()) << roof->name().toStdString();
  }
}

TEST_F(RooflineInteractionTest, ClickShowsTheDetailsOnTheTabAndSelectsTheKernel) {
  EXPECT_FALSE(view.pointDetails().contains("saxpy"));
  QPointF at = saxpyPosition();
  sendMouse(viewport(), QEvent::MouseButtonPress, at, Qt::LeftButton, Qt::LeftButton);
  sendMouse(viewport(), QEvent::MouseButtonRelease, at, Qt::LeftButton, Qt::NoButton);
  QString details = view.pointDetails();
  EXPECT_TRUE(details.contains("saxpy(float *, const float *, float, int)")) << details.toStdString();
  EXPECT_TRUE(details.contains("DRAM-bound")) << details.toStdString();
  EXPECT_TRUE(details.contains("2 kernels")) << details.toStdString();
  ASSERT_TRUE(session.selection().has_value());
  EXPECT_EQ(session.trace()->name(*session.selection()), "saxpy");
  // A kernel selected elsewhere (the timeline, a table) shows its point's details here too.
  view.kindBox()->setCurrentIndex(0);  // instances: the details follow the selected launch
  EXPECT_FALSE(view.pointDetails().contains("kernel(s)"));
  EXPECT_TRUE(view.pointDetails().contains("saxpy(float *")) << view.pointDetails().toStdString();
}

TEST_F(RooflineInteractionTest, TensorCeilingIsOnWhereTheGpuHasOne) {
  ASSERT_GT(view.roofs().peak(Precision::Tensor), 0);  // the fixture's H100
  EXPECT_TRUE(view.precisionToggle(Precision::Tensor)->isChecked());
  bool drawn = false;
  for (auto* roof : roofSeries(view)) drawn = drawn || roof->name().startsWith("Tensor peak");
  EXPECT_TRUE(drawn);
  EXPECT_FALSE(view.precisionToggle(Precision::Fp16)->isChecked());  // no kernel counted FP16 FLOPs
}

}  // namespace
}  // namespace gpuscope::ui
