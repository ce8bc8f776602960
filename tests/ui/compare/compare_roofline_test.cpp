// The compare view's roofline: transpose.sqlite with the fixture's ncu metrics as A, and a copy whose saxpy
// launches were given 60 % of the time and half the DRAM bytes as B (still under the DRAM roof). The arrow series and
// heads must join the points that core's pairRooflinePoints pairs, in the model and in the pixels.
#include <gtest/gtest.h>
#include <unistd.h>

#include <QApplication>
#include <QChart>
#include <QComboBox>
#include <QDir>
#include <QGraphicsPolygonItem>
#include <QImage>
#include <QLegendMarker>
#include <QLineSeries>
#include <QScatterSeries>
#include <QSplitter>
#include <QTabWidget>
#include <QToolButton>
#include <cmath>
#include <filesystem>

#include "core/model/trace_file.h"
#include "core/model/trace_loader.h"
#include "core/ncu/ncu_import.h"
#include "core/roofline/kernel_metrics_table.h"
#include "tests/core/testing/test_files.h"
#include "ui/compare/compare_roofline_view.h"
#include "ui/compare/compare_view.h"
#include "ui/roofline/roofline_chart_view.h"

namespace gpuscope::ui {
namespace {

namespace fs = std::filesystem;
using testing::kFixtures;

struct Runs {
  std::shared_ptr<const Trace> a, b;
};

const Runs& runs() {
  static Runs loaded = [] {
    fs::path dir = fs::temp_directory_path() / ("gpuscope_compare_roofline_" + std::to_string(::getpid()));
    fs::create_directories(dir);
    std::string a = (dir / "transpose.sqlite").string(), b = (dir / "transpose_faster_saxpy.sqlite").string();
    importNcuMetrics({kFixtures + "/nsys/transpose.sqlite", kFixtures + "/nsys/transpose_ncu_metrics.csv", a, false});
    fs::copy_file(a, b, fs::copy_options::overwrite_existing);
    std::vector<KernelMetrics> rows;
    {
      auto db = openTraceFile(b);
      rows = readKernelMetrics(db);
    }
    for (auto& row : rows) {
      if (!row.kernelName.starts_with("saxpy")) continue;
      row.durationNs = *row.durationNs * 3 / 5;
      row.bytesOf(MemoryLevel::Dram) = *row.bytesOf(MemoryLevel::Dram) / 2;
    }
    writeKernelMetrics(b, rows);
    Runs result{loadTrace(a), loadTrace(b)};
    fs::remove_all(dir);  // the open connections keep the contents
    return result;
  }();
  return loaded;
}

bool near(QColor c, QColor want, int tolerance = 40) {
  return std::abs(c.red() - want.red()) < tolerance && std::abs(c.green() - want.green()) < tolerance &&
         std::abs(c.blue() - want.blue()) < tolerance;
}

// Whether a pixel within RADIUS of P in IMAGE has colour WANT.
bool colourNear(const QImage& image, QPointF p, QColor want, int radius = 1) {
  for (int dy = -radius; dy <= radius; ++dy)
    for (int dx = -radius; dx <= radius; ++dx) {
      QPoint q(static_cast<int>(std::lround(p.x())) + dx, static_cast<int>(std::lround(p.y())) + dy);
      if (image.rect().contains(q) && near(image.pixelColor(q), want)) return true;
    }
  return false;
}

class CompareRooflineTest : public ::testing::Test {
 protected:
  void SetUp() override {
    view.resize(1100, 700);
    view.show();
    QApplication::processEvents();
  }
  // A value's position in the widget's own pixels (what grab() gives).
  QPointF widgetPosition(QPointF value) {
    QPointF inViewport = view.chartView()->viewportPosition(value);
    return view.chartView()->viewport()->mapTo(&view, inViewport.toPoint());
  }
  CompareRooflineView view{runs().a, runs().b};
};

TEST_F(CompareRooflineTest, PairsAsCoreDoes) {
  auto expected = pairRooflinePoints(view.pointsA(), view.pointsB(), MemoryLevel::Dram);
  ASSERT_EQ(expected.size(), 1u);  // saxpy: the transposes count no FLOPs
  ASSERT_EQ(view.pairs().size(), 1u);
  const auto& pair = view.pairs()[0];
  EXPECT_EQ(pair.label, "saxpy(float *, const float *, float, int)");
  EXPECT_EQ(pair.label, expected[0].label);
  EXPECT_EQ(pair.from, expected[0].from);
  EXPECT_EQ(pair.to, expected[0].to);
  // B's saxpy: 60 % of the time (1.67x the FLOP/s), half the DRAM bytes (2x the intensity).
  EXPECT_NEAR(pair.to.flopsPerSecond / pair.from.flopsPerSecond, 5.0 / 3.0, 0.01);
  EXPECT_NEAR(pair.to.intensity / pair.from.intensity, 2.0, 0.01);
}

TEST_F(CompareRooflineTest, ArrowJoinsTheRightPoints) {
  view.precisionToggle(Precision::Tensor)->setChecked(false);  // y up to the FP32 peak: a longer arrow
  ASSERT_EQ(view.arrowLines().size(), 1u);
  ASSERT_EQ(view.arrowHeads().size(), 1u);
  const auto& pair = view.pairs()[0];
  auto* line = view.arrowLines()[0];
  ASSERT_EQ(line->count(), 2);
  EXPECT_DOUBLE_EQ(line->at(0).x(), pair.from.intensity);
  EXPECT_DOUBLE_EQ(line->at(0).y(), pair.from.flopsPerSecond / 1e9);
  EXPECT_DOUBLE_EQ(line->at(1).x(), pair.to.intensity);
  EXPECT_DOUBLE_EQ(line->at(1).y(), pair.to.flopsPerSecond / 1e9);
  // The ends are the drawn A and B points of that kernel.
  auto drawnAt = [](const QScatterSeries* series, const std::vector<size_t>& drawn, size_t index) {
    for (size_t i = 0; i < drawn.size(); ++i)
      if (drawn[i] == index) return series->at(static_cast<int>(i));
    return QPointF(-1, -1);
  };
  EXPECT_EQ(line->at(0), drawnAt(view.seriesA(), view.drawnA(), pair.a));
  EXPECT_EQ(line->at(1), drawnAt(view.seriesB(), view.drawnB(), pair.b));
  EXPECT_EQ(view.pointsA()[pair.a].label, view.pointsB()[pair.b].label);
  // The head's tip points at B, just short of its marker.
  auto* head = view.arrowHeads()[0];
  ASSERT_TRUE(head->isVisible());
  QPointF tip = head->polygon().at(0);
  QPointF from = view.chartView()->chartPosition(line->at(0));
  QPointF to = view.chartView()->chartPosition(line->at(1));
  double length = std::hypot(to.x() - from.x(), to.y() - from.y());
  ASSERT_GT(length, 40);
  EXPECT_NEAR(std::hypot(tip.x() - to.x(), tip.y() - to.y()), 7.5, 0.01);
  // On the segment: the cross product with the direction is ~0.
  double cross = (tip.x() - from.x()) * (to.y() - from.y()) - (tip.y() - from.y()) * (to.x() - from.x());
  EXPECT_NEAR(cross / length, 0.0, 0.01);
}

TEST_F(CompareRooflineTest, LegendAndMarkers) {
  EXPECT_EQ(view.seriesA()->name(), "A: transpose.sqlite");
  EXPECT_EQ(view.seriesB()->name(), "B: transpose_faster_saxpy.sqlite");
  EXPECT_NE(view.seriesA()->markerShape(), view.seriesB()->markerShape());
  EXPECT_NE(view.seriesA()->color(), view.seriesB()->color());
  EXPECT_TRUE(view.chart()->legend()->markers(view.seriesA()).value(0)->isVisible());
  EXPECT_TRUE(view.chart()->legend()->markers(view.arrowLines()[0]).value(0)->isVisible());
  EXPECT_EQ(view.arrowLines()[0]->name(), "A → B, same kernel");
  EXPECT_TRUE(view.message().contains("1 kernel name(s) measured in both runs")) << view.message().toStdString();
}

TEST_F(CompareRooflineTest, ArrowIsPaintedBetweenTheMappedPoints) {
  QApplication::processEvents();
  QImage image = view.grab().toImage();
  const auto& pair = view.pairs()[0];
  QPointF from = widgetPosition({pair.from.intensity, pair.from.flopsPerSecond / 1e9});
  QPointF to = widgetPosition({pair.to.intensity, pair.to.flopsPerSecond / 1e9});
  QColor arrow = CompareRooflineView::arrowColour();
  // The markers at the ends, in their colours.
  EXPECT_TRUE(colourNear(image, from, view.seriesA()->color(), 2));
  EXPECT_TRUE(colourNear(image, to + QPointF(0, 2), view.seriesB()->color(), 2));
  // The shaft between the markers.
  int onShaft = 0;
  for (double t = 0.3; t <= 0.6; t += 0.05) onShaft += colourNear(image, from + (to - from) * t, arrow) ? 1 : 0;
  EXPECT_EQ(onShaft, 7);
  // The head (tip 7.5 px short of B, 11 px long, 10 px wide at its base): filled 10 px behind the tip (4.5 px
  // either side), 2.5 px either side of the shaft, where the shaft alone (2 px wide) would not reach.
  QPointF unit = (to - from) / std::hypot(to.x() - from.x(), to.y() - from.y());
  QPointF normal(-unit.y(), unit.x());
  QPointF inHead = to - unit * (7.5 + 10);
  EXPECT_TRUE(colourNear(image, inHead + normal * 2.5, arrow, 0));
  EXPECT_TRUE(colourNear(image, inHead - normal * 2.5, arrow, 0));
  // Off the arrow: no arrow colour.
  int off = 0;
  for (double t = 0.3; t <= 0.6; t += 0.05)
    off += colourNear(image, from + (to - from) * t + normal * 14, arrow) ? 1 : 0;
  EXPECT_EQ(off, 0);
}

TEST_F(CompareRooflineTest, ArrowFollowsZoomAndLevel) {
  const auto& pair = view.pairs()[0];
  view.chartView()->zoomAround(
      view.chartView()->viewportPosition({pair.from.intensity, pair.from.flopsPerSecond / 1e9}), 0.5);
  QPointF tip = view.arrowHeads()[0]->polygon().at(0);
  QPointF to = view.chartView()->chartPosition({pair.to.intensity, pair.to.flopsPerSecond / 1e9});
  EXPECT_NEAR(std::hypot(tip.x() - to.x(), tip.y() - to.y()), 7.5, 0.01);
  view.levelBox()->setCurrentIndex(2);  // L1: same bytes in both runs, so a vertical arrow
  ASSERT_EQ(view.pairs().size(), 1u);
  EXPECT_EQ(view.pairs()[0].from, pairRooflinePoints(view.pointsA(), view.pointsB(), MemoryLevel::L1)[0].from);
  EXPECT_DOUBLE_EQ(view.arrowLines()[0]->at(0).x(), view.arrowLines()[0]->at(1).x());
  EXPECT_FALSE(view.chartView()->isZoomed());
}

TEST(CompareRooflineEmpty, SaysWhichRunLacksMetrics) {
  auto plain = std::shared_ptr<const Trace>(loadTrace(kFixtures + "/nsys/transpose.sqlite"));
  CompareRooflineView view(plain, runs().b);
  EXPECT_TRUE(view.pairs().empty());
  EXPECT_TRUE(view.arrowLines().empty());
  EXPECT_TRUE(view.message().startsWith("A has no kernel metrics")) << view.message().toStdString();
  EXPECT_EQ(view.seriesB()->count(), 1);
}

TEST(CompareViewRoofline, IsATabBesideTheDiffTable) {
  CompareView compare(runs().a, runs().b);
  ASSERT_NE(compare.tabs(), nullptr);
  ASSERT_EQ(compare.tabs()->count(), 3);
  EXPECT_EQ(compare.tabs()->tabText(0), "Diff table");
  EXPECT_EQ(compare.tabs()->tabText(1), "Summary");  // the window's numbers and verdicts: the table keeps its rows
  EXPECT_EQ(compare.tabs()->tabText(2), "Roofline");
  EXPECT_EQ(compare.tabs()->widget(2), compare.rooflineView());
  EXPECT_EQ(compare.rooflineView()->pairs().size(), 1u);
}

// Issue 15, point 7: the compare roofline gets a usable height while its tab shows, and ceiling toggles.
TEST(CompareViewRoofline, TakesAUsableHeightWhileItsTabShows) {
  CompareView compare(runs().a, runs().b);
  compare.resize(1600, 1000);
  compare.show();
  QApplication::processEvents();
  QSplitter* timelinesOverTabs = nullptr;  // the vertical splitter: timelines above, the tabs below
  for (auto* splitter : compare.findChildren<QSplitter*>())
    if (splitter->orientation() == Qt::Vertical && splitter->isAncestorOf(compare.tabs())) timelinesOverTabs = splitter;
  ASSERT_NE(timelinesOverTabs, nullptr);
  int tableHeight = compare.tabs()->height();
  int timelinesHeight = timelinesOverTabs->sizes().value(0);
  compare.tabs()->setCurrentWidget(compare.rooflineView());
  QApplication::processEvents();
  EXPECT_GE(compare.rooflineView()->chartView()->height(), 400);
  EXPECT_GT(compare.tabs()->height(), tableHeight);
  compare.tabs()->setCurrentIndex(0);  // back to the table: the timelines get their room again
  QApplication::processEvents();
  // Within 5%: once the roofline page has been laid out, the tab stack's minimum height includes its
  // ceiling toggles, so the splitter may give the timelines a few pixels less than before.
  EXPECT_NEAR(timelinesOverTabs->sizes().value(0), timelinesHeight, timelinesHeight / 20);
  EXPECT_LT(compare.tabs()->height(), compare.rooflineView()->chartView()->height());
}

TEST_F(CompareRooflineTest, CeilingTogglesShowAndHideEachPeak) {
  auto peakNamed = [this](const QString& prefix) {
    for (auto* series : view.chart()->series())
      if (series->name().startsWith(prefix)) return true;
    return false;
  };
  for (auto precision : kPrecisions) ASSERT_NE(view.precisionToggle(precision), nullptr);
  EXPECT_TRUE(view.precisionToggle(Precision::Tensor)->isChecked());  // the H100 has tensor cores
  EXPECT_TRUE(peakNamed("Tensor peak"));
  EXPECT_TRUE(peakNamed("FP64 peak"));
  view.precisionToggle(Precision::Fp64)->setChecked(false);
  EXPECT_FALSE(peakNamed("FP64 peak"));
  EXPECT_TRUE(peakNamed("FP32 peak"));
  EXPECT_EQ(view.pairs().size(), 1u);  // the points stay
  view.precisionToggle(Precision::Fp64)->setChecked(true);
  EXPECT_TRUE(peakNamed("FP64 peak"));
}

}  // namespace
}  // namespace gpuscope::ui
