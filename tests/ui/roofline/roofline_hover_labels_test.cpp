// The roofline's tooltip and point names as a user meets them (issue 30, point 4): the tooltip stays while
// the mouse rests on a point (Qt's tooltip request used to hide it at once), and names are placed where they
// cover no other name, elided in the middle so that two long library names stay apart.
#include <gtest/gtest.h>
#include <unistd.h>

#include <QApplication>
#include <QChart>
#include <QCheckBox>
#include <QComboBox>
#include <QFontMetricsF>
#include <QGraphicsEllipseItem>
#include <QGraphicsSimpleTextItem>
#include <QHelpEvent>
#include <QLabel>
#include <QMouseEvent>
#include <QScatterSeries>
#include <QTest>
#include <QToolTip>
#include <filesystem>

#include "core/model/trace_loader.h"
#include "core/ncu/ncu_import.h"
#include "tests/core/testing/test_files.h"
#include "tests/ui/roofline/roofline_test_support.h"
#include "ui/roofline/point_labels.h"
#include "ui/roofline/roofline_chart_view.h"
#include "ui/roofline/roofline_view.h"
#include "ui/session/trace_session.h"

namespace gpuscope::ui {
namespace {

using test::pointSeries;
using testing::kFixtures;

std::shared_ptr<const Trace> withMetrics(const std::string& trace, const std::string& report, const std::string& tag) {
  auto path = (std::filesystem::temp_directory_path() /
               ("gpuscope_roofline_hover_" + tag + "_" + std::to_string(::getpid()) + ".sqlite"))
                  .string();
  importNcuMetrics({kFixtures + trace, kFixtures + report, path, false});
  std::shared_ptr<const Trace> loaded = loadTrace(path);
  std::filesystem::remove(path);
  return loaded;
}

// TRACE with REPORT's metrics in a RooflineView of SIZE, shown.
struct ShownRoofline {
  ShownRoofline(const std::string& trace, const std::string& report, const std::string& tag, QSize size) {
    session.setTrace(withMetrics(trace, report, tag));
    view.resize(size);
    view.show();
    QApplication::processEvents();
  }
  TraceSession session;
  RooflineView view{&session};
};

TEST(RooflineHover, TheTooltipStaysWhileTheMouseRestsOnAPoint) {
  ShownRoofline roofline("/nsys/transpose.sqlite", "/nsys/transpose_ncu_metrics.csv", "transpose", QSize(1100, 700));
  RooflineView& view = roofline.view;
  auto* series = pointSeries(view);
  ASSERT_NE(series, nullptr);
  QWidget* viewport = view.chartView()->viewport();
  QPointF at = view.chartView()->viewportPosition(series->at(0));
  QMouseEvent move(QEvent::MouseMove, at, viewport->mapToGlobal(at), Qt::NoButton, Qt::NoButton, Qt::NoModifier);
  QApplication::sendEvent(viewport, &move);
  ASSERT_EQ(view.hoveredPoint(), view.drawnPoints(series).at(0));
  // The mouse rests: Qt asks for the tooltip there, as it does ~700 ms after the last move.
  QHelpEvent rest(QEvent::ToolTip, at.toPoint(), viewport->mapToGlobal(at.toPoint()));
  QApplication::sendEvent(viewport, &rest);
  // What is checked is that it stays: the chart scene used to hide it 300 ms later. So this waits for the
  // tooltip to hide, which ends the wait at once when it does, and expects the wait to run out past 300 ms.
  ASSERT_TRUE(QToolTip::isVisible());
  ASSERT_FALSE(QTest::qWaitFor([] { return !QToolTip::isVisible(); }, 600)) << "the tooltip hid while the mouse rested";
  QString tip = QToolTip::text();
  for (const char* part : {"saxpy(float *, const float *, float, int)", "2 kernels",
                           "Duration: ", "Performance: ", "FLOP/s", "Arithmetic intensity (DRAM): ", "FLOP/byte"})
    EXPECT_TRUE(tip.contains(QString::fromUtf8(part))) << part << " not in " << tip.toStdString();
  // Resting away from every point says nothing.
  QHelpEvent away(QEvent::ToolTip, QPoint(4, 4), viewport->mapToGlobal(QPoint(4, 4)));
  QApplication::sendEvent(viewport, &away);
  EXPECT_TRUE(QTest::qWaitFor([] { return !QToolTip::isVisible(); }, 5000));
}

TEST(RooflineLabels, NamesNeverOverlapAndLongNamesStayApart) {
  ShownRoofline roofline("/nsys/loader2.sqlite", "/ncu/loader2_ncu_metrics.csv", "loader2", QSize(1280, 720));
  RooflineView& view = roofline.view;
  view.labelsBox()->setChecked(true);
  QApplication::processEvents();
  // Kernels by name: one point, one name each.
  const auto& labels = view.pointLabels();
  ASSERT_GE(labels.size(), 10u);
  std::vector<QRectF> rects;
  QStringList shown;
  for (auto* label : labels) {
    if (!label->isVisible()) continue;
    rects.push_back(label->sceneBoundingRect());
    shown << label->text();
  }
  ASSERT_GE(rects.size(), 4u) << "of " << labels.size();
  for (size_t i = 0; i < rects.size(); ++i)
    for (size_t j = i + 1; j < rects.size(); ++j)
      EXPECT_FALSE(rects[i].intersects(rects[j])) << shown[i].toStdString() << " overlaps " << shown[j].toStdString();
  // No two kernels read the same.
  QStringList distinct = shown;
  distinct.removeDuplicates();
  EXPECT_EQ(distinct.size(), shown.size()) << shown.join(" | ").toStdString();
  // The points left without a name are counted beside the Labels box; with names off, the note goes.
  int drawn = 0;
  for (auto* disc : view.timeDiscs()) drawn += disc->isVisible() ? 1 : 0;
  // (Twins, launches at one spot under one name, are not counted: here there are none, kernels go by name.)
  int unnamed = drawn - static_cast<int>(rects.size());
  ASSERT_GT(unnamed, 1);
  EXPECT_TRUE(view.labelsNote()->isVisibleTo(&view));
  EXPECT_EQ(view.labelsNote()->text(), QString("%1 points had no room for a name: hover them.").arg(unnamed));
  view.labelsBox()->setChecked(false);
  EXPECT_FALSE(view.labelsNote()->isVisibleTo(&view));
}

// A PyTorch trace's roofline (loader2's Kineto trace with its ncu metrics): the trace gives no clock rate or
// memory bandwidth, so there are no roofs, and the chart says why; its names of hundreds of characters stay
// within kMostWidening x the room of a name.
TEST(RooflineLabels, APyTorchTraceSaysWhyItHasNoRoofsAndKeepsItsNamesShort) {
  ShownRoofline roofline("/kineto/loader2_kineto.json.gz", "/ncu/loader2_ncu_metrics.csv", "kineto", QSize(1920, 1000));
  RooflineView& view = roofline.view;
  EXPECT_TRUE(
      view.message().contains("Roofs are missing because the file does not give the GPU's clock rate or "
                              "memory bandwidth (`gpuscope peaks --store FILE` measures the roofs on that GPU)."))
      << view.message().toStdString();
  view.labelsBox()->setChecked(true);
  QApplication::processEvents();
  QFontMetricsF metrics(view.pointLabels().at(0)->font());
  int visible = 0;
  for (auto* label : view.pointLabels()) {
    EXPECT_LE(label->boundingRect().width(), metrics.averageCharWidth() * 30 * kMostWidening + 2)
        << label->text().toStdString();
    visible += label->isVisible() ? 1 : 0;
  }
  EXPECT_GE(visible, 3);
}

// Names that differ only deep inside (PyTorch's templates run to hundreds of characters) keep more of
// themselves, but never more than kMostWidening times the room: they do not run across the chart.
TEST(RooflineLabels, NamesAlikeForHundredsOfCharactersStayShort) {
  QFontMetricsF metrics(QApplication::font());
  QString start = "void at::native::elementwise_kernel<(int)128, (int)2, " + QString(300, 'x');
  QString end = QString(300, 'y') + ">(int, T3)";
  double room = metrics.averageCharWidth() * 30;
  QStringList shown = middleElidedNames({start + "1" + end, start + "2" + end}, metrics, room);
  ASSERT_EQ(shown.size(), 2);
  for (const auto& name : shown) {
    EXPECT_LE(metrics.horizontalAdvance(name), room * kMostWidening + 1) << name.toStdString();
    EXPECT_TRUE(name.startsWith("void at::native::")) << name.toStdString();
  }
}

TEST(RooflineLabels, MiddleElisionKeepsTheEndsThatTellNamesApart) {
  QFontMetricsF metrics(QApplication::font());
  QString gemmA =
      "sm80_xmma_gemm_f32f32_f32f32_f32_nt_n_tilesize32x32x8_stage3_warpsize1x2x1_ffma_aligna4_alignc4_"
      "execute_kernel__5x_cublas";
  QString gemmB =
      "sm80_xmma_gemm_f32f32_f32f32_f32_nn_n_tilesize32x32x8_stage3_warpsize1x2x1_ffma_aligna4_alignc4_"
      "execute_kernel__5x_cublas";
  QString shortName = "saxpy";
  QStringList shown = middleElidedNames({gemmA, gemmB, shortName}, metrics, metrics.averageCharWidth() * 30);
  ASSERT_EQ(shown.size(), 3);
  EXPECT_NE(shown[0], shown[1]);  // they differ only in the middle ("nt" / "nn"): both keep more until they differ
  for (int i = 0; i < 2; ++i) {
    EXPECT_TRUE(shown[i].contains(QChar(0x2026)) || shown[i].size() == gemmA.size()) << shown[i].toStdString();
    EXPECT_TRUE(shown[i].startsWith("sm80_xmma")) << shown[i].toStdString();
    EXPECT_TRUE(shown[i].endsWith("_cublas")) << shown[i].toStdString();
  }
  EXPECT_EQ(shown[2], shortName);
}

TEST(RooflineLabels, PlacesNamesAroundCrowdedDiscsOrLeavesThemOut) {
  // Eight discs on one spot and one apart: no two names overlap, and the one apart is named.
  std::vector<LabelledDisc> discs;
  for (int i = 0; i < 8; ++i) discs.push_back({QRectF(100, 100, 20, 20), QSizeF(80, 14)});
  discs.push_back({QRectF(400, 100, 10, 10), QSizeF(80, 14)});
  std::vector<size_t> order = {0, 1, 2, 3, 4, 5, 6, 7, 8};
  auto rects = placeLabels(discs, order, QRectF(0, 0, 600, 300));
  std::vector<QRectF> placed;
  for (const auto& rect : rects)
    if (rect) placed.push_back(*rect);
  EXPECT_TRUE(rects[0].has_value());
  EXPECT_TRUE(rects[8].has_value());
  EXPECT_LT(placed.size(), discs.size());  // some of the stacked eight go unnamed
  for (size_t i = 0; i < placed.size(); ++i)
    for (size_t j = i + 1; j < placed.size(); ++j) EXPECT_FALSE(placed[i].intersects(placed[j]));
  // A neighbour on the right: the name goes elsewhere rather than over it.
  auto beside = placeLabels({{QRectF(100, 100, 20, 20), QSizeF(80, 14)}, {QRectF(126, 100, 20, 20), QSizeF(80, 14)}},
                            {0, 1}, QRectF(0, 0, 600, 300));
  ASSERT_TRUE(beside[0].has_value());
  EXPECT_FALSE(beside[0]->intersects(QRectF(126, 100, 20, 20)));
  // Out of bounds is no place.
  auto edge = placeLabels({{QRectF(590, 150, 10, 10), QSizeF(80, 14)}}, {0}, QRectF(0, 0, 600, 300));
  ASSERT_TRUE(edge[0].has_value());
  EXPECT_LE(edge[0]->right(), 600);
}

}  // namespace
}  // namespace gpuscope::ui
