// The roofline chart on transpose.sqlite with the fixture's ncu metrics: roofs, points, toggles, selection.
#include "ui/roofline/roofline_view.h"

#include <gtest/gtest.h>

#include <QApplication>
#include <QChart>
#include <QComboBox>
#include <QImage>
#include <QLineSeries>
#include <QScatterSeries>
#include <QToolButton>
#include <cstdlib>
#include <filesystem>

#include "core/model/trace_loader.h"
#include "core/ncu/ncu_import.h"
#include "tests/core/testing/test_files.h"
#include "tests/ui/roofline/roofline_test_support.h"
#include "tests/ui/tables/table_test_support.h"
#include "ui/session/trace_session.h"

namespace gpuscope::ui {
namespace {

using test::lineNamed;
using test::transposeWithMetricsTrace;
using testing::kFixtures;

// The point series (the selection ring left out).
std::vector<QScatterSeries*> scatterSeries(const RooflineView& view) {
  std::vector<QScatterSeries*> result;
  for (auto* series : view.chart()->series())
    if (auto* scatter = qobject_cast<QScatterSeries*>(series); scatter && scatter != view.selectionSeries())
      result.push_back(scatter);
  return result;
}

class RooflineViewTest : public ::testing::Test {
 protected:
  void SetUp() override {
    session.setTrace(transposeWithMetricsTrace());
    view.resize(900, 600);
    view.show();
  }
  TraceSession session;
  RooflineView view{&session};
};

TEST_F(RooflineViewTest, RoofsCarryTheirValues) {
  ASSERT_NE(lineNamed(view, "Tensor peak"), nullptr);  // on by default: the H100 has tensor cores
  view.precisionToggle(Precision::Tensor)->setChecked(false);
  auto* dram = lineNamed(view, "DRAM");
  ASSERT_NE(dram, nullptr);
  EXPECT_EQ(dram->name(), "DRAM 3.352 TB/s");  // as the compare view labels it
  ASSERT_EQ(dram->count(), 2);
  // y = x * 3352.32 GB/s up to the FP32 ridge (66,908.16 / 3352.32 = 19.96 FLOP/byte).
  EXPECT_DOUBLE_EQ(dram->at(1).x(), 66908.16 / 3352.32);
  EXPECT_NEAR(dram->at(1).y(), 66908.16, 1e-6);
  auto* fp32 = lineNamed(view, "FP32 peak");
  ASSERT_NE(fp32, nullptr);
  EXPECT_EQ(fp32->name(), "FP32 peak 66.9 TFLOP/s");
  EXPECT_DOUBLE_EQ(fp32->at(0).y(), 66908.16);
  ASSERT_NE(lineNamed(view, "FP64 peak"), nullptr);
  EXPECT_EQ(lineNamed(view, "Tensor"), nullptr);  // hidden
  EXPECT_EQ(view.chart()->title(), "Roofline: NVIDIA H100 80GB HBM3 — Hopper (sm_90)");
}

TEST_F(RooflineViewTest, KernelsByNameDrawOnlyWhatHasFlops) {
  EXPECT_EQ(view.grouping(), RooflineGrouping::Name);
  ASSERT_EQ(view.points().size(), 3u);
  auto scatters = scatterSeries(view);
  ASSERT_EQ(scatters.size(), 1u);  // saxpy, DRAM-bound; the transposes have no FLOPs
  EXPECT_EQ(scatters[0]->name(), "DRAM-bound");
  ASSERT_EQ(scatters[0]->count(), 1);
  const double n = 8192.0 * 4096.0;
  EXPECT_DOUBLE_EQ(scatters[0]->at(0).x(), 4 * n / (387198208.0 + 387371776.0));
  EXPECT_DOUBLE_EQ(scatters[0]->at(0).y(), 4 * n / ((143744 + 142688) * 1e-9) / 1e9);
  EXPECT_TRUE(view.message().contains("2 point(s) with no FLOPs")) << view.message().toStdString();
  auto index = view.drawnPoints(scatters[0]).at(0);
  EXPECT_EQ(view.points()[index].label, "saxpy(float *, const float *, float, int)");
  auto text = view.pointDescription(index);
  EXPECT_TRUE(text.contains("FP32 FLOPs: 134,217,728")) << text.toStdString();
  EXPECT_TRUE(text.contains("bound by DRAM")) << text.toStdString();
}

TEST_F(RooflineViewTest, TogglesChangeLevelAndPointKind) {
  view.levelBox()->setCurrentIndex(2);  // L1
  EXPECT_EQ(view.level(), MemoryLevel::L1);
  auto scatters = scatterSeries(view);
  ASSERT_EQ(scatters.size(), 1u);
  EXPECT_DOUBLE_EQ(scatters[0]->at(0).x(), 4 * 8192.0 * 4096.0 / (2 * 402653184.0));
  ASSERT_NE(lineNamed(view, "L1"), nullptr);
  view.levelBox()->setCurrentIndex(1);  // L2: Hopper's L2 bandwidth is not published
  EXPECT_EQ(lineNamed(view, "L2"), nullptr);
  EXPECT_TRUE(view.message().contains("L2 bandwidth of this GPU is not known"));
  view.kindBox()->setCurrentIndex(0);  // instances
  EXPECT_EQ(view.points().size(), 6u);
  EXPECT_EQ(scatterSeries(view).at(0)->count(), 2);
  view.kindBox()->setCurrentIndex(2);  // NVTX ranges: only transposes, no FLOPs, nothing drawn
  EXPECT_EQ(view.points().size(), 2u);
  EXPECT_TRUE(scatterSeries(view).empty());
}

TEST_F(RooflineViewTest, ClickSelectsTheKernel) {
  view.kindBox()->setCurrentIndex(0);
  auto* series = scatterSeries(view).at(0);
  emit series->clicked(series->at(1));
  ASSERT_TRUE(session.selection().has_value());
  const auto& trace = *session.trace();
  auto ref = *session.selection();
  EXPECT_EQ(trace.track(ref.track).kind, TrackKind::GpuKernels);
  EXPECT_EQ(trace.lane(ref).correlation[ref.index], view.points()[view.drawnPoints(series)[1]].correlationId);
  EXPECT_EQ(trace.name(ref), "saxpy");
}

// Pixels: the DRAM roof and the DRAM-bound point in blue, the FP32 roof in red and the FP64 roof in purple.
TEST_F(RooflineViewTest, PaintsRoofsAndPoints) {
  view.kindBox()->setCurrentIndex(0);
  QApplication::processEvents();
  QImage image = view.grab().toImage();
  if (qEnvironmentVariableIsSet("GPUSCOPE_ROOFLINE_SNAPSHOT"))
    image.save(qEnvironmentVariable("GPUSCOPE_ROOFLINE_SNAPSHOT"));
  int blue = 0, red = 0, purple = 0;
  for (int y = 0; y < image.height(); ++y)
    for (int x = 0; x < image.width(); ++x) {
      QColor c = image.pixelColor(x, y);
      if (std::abs(c.red() - 0x1f) < 12 && std::abs(c.green() - 0x77) < 12 && std::abs(c.blue() - 0xb4) < 12) ++blue;
      if (std::abs(c.red() - 0xd6) < 12 && std::abs(c.green() - 0x27) < 12 && std::abs(c.blue() - 0x28) < 12) ++red;
      if (std::abs(c.red() - 0x94) < 12 && std::abs(c.green() - 0x67) < 12 && std::abs(c.blue() - 0xbd) < 12) ++purple;
    }
  EXPECT_GT(blue, 200);    // the roof line and two filled discs
  EXPECT_GT(red, 100);     // the FP32 peak line
  EXPECT_GT(purple, 100);  // the FP64 peak line
}

TEST_F(RooflineViewTest, SelectedKernelIsRinged) {
  view.kindBox()->setCurrentIndex(0);
  ASSERT_NE(view.selectionSeries(), nullptr);
  EXPECT_EQ(view.selectionSeries()->count(), 0);
  auto* series = scatterSeries(view).at(0);
  view.activatePoint(view.drawnPoints(series)[0]);
  ASSERT_EQ(view.selectionSeries()->count(), 1);
  EXPECT_EQ(view.selectionSeries()->at(0), series->at(0));
  view.kindBox()->setCurrentIndex(1);  // by name: the saxpy point holds the selected launch
  ASSERT_EQ(view.selectionSeries()->count(), 1);
  EXPECT_EQ(view.selectionSeries()->at(0), scatterSeries(view).at(0)->at(0));
  session.select(std::nullopt);
  EXPECT_EQ(view.selectionSeries()->count(), 0);
}

TEST(RooflineViewEmpty, SaysHowToGetMetrics) {
  TraceSession session;
  RooflineView view(&session);
  EXPECT_TRUE(view.message().contains("Open a trace"));
  session.setTrace(loadTrace(kFixtures + "/nsys/transpose.sqlite"));
  EXPECT_TRUE(view.message().contains("gpuscope import-ncu")) << view.message().toStdString();
  EXPECT_TRUE(view.chart()->series().isEmpty());
}

}  // namespace
}  // namespace gpuscope::ui
