// The GPU shading explains itself: hovering a shaded stretch says what it is, and a legend under the
// timeline shows each colour with its meaning while there is shading.
#include "ui/timeline/gpu_shading_legend.h"

#include <gtest/gtest.h>

#include <QApplication>
#include <QHelpEvent>
#include <QImage>
#include <QScrollBar>
#include <QToolTip>

#include "tests/ui/timeline/timeline_test_trace.h"
#include "ui/session/trace_session.h"
#include "ui/text.h"
#include "ui/timeline/timeline_canvas.h"
#include "ui/timeline/timeline_palette.h"
#include "ui/timeline/timeline_view.h"

namespace gpuscope::ui {
namespace {

using timeline_test::HandMade;

class GpuShadingLegendTest : public ::testing::Test {
 protected:
  void SetUp() override {
    trace_ = timeline_test::loadHandMadeTrace();
    session_.setTrace(trace_);
    view_ = std::make_unique<TimelineView>(&session_);
    view_->resize(TimelineCanvas::kLabelWidth + 1000 + view_->verticalScrollBar()->sizeHint().width(), 700);
    view_->show();
    QApplication::processEvents();
    canvas_ = view_->canvas();
    session_.setViewRange(0, 10000);
    kernels_ = timeline_test::findTrack(*trace_, TrackKind::GpuKernels, "kernelA");
    ASSERT_GE(kernels_, 0);
    device_ = trace_->track(static_cast<uint32_t>(kernels_)).deviceId;
  }
  QString tooltipAt(QPoint at) {
    QToolTip::hideText();
    QHelpEvent help(QEvent::ToolTip, at, canvas_->mapToGlobal(at));
    QApplication::sendEvent(canvas_, &help);
    return QToolTip::text();
  }
  QPoint onKernels(TimeNs t) const {
    return {static_cast<int>(canvas_->xForTime(t)), canvas_->laneRect(static_cast<uint32_t>(kernels_), 0).center().y()};
  }

  TraceSession session_;
  std::shared_ptr<const Trace> trace_;
  std::unique_ptr<TimelineView> view_;
  TimelineCanvas* canvas_ = nullptr;
  int kernels_ = -1;
  uint32_t device_ = 0;
};

TEST_F(GpuShadingLegendTest, HoveringAShadedGapSaysGpuIdleItsLengthAndWhy) {
  // Between kernelA's end (6000) and kernelB's start (6500) the GPU ran nothing.
  canvas_->setGpuShading({{device_, HandMade::kKernelAEnd, HandMade::kKernelBStart, GpuShadeSpan::Kind::Idle},
                          {device_, 1000, 9000, GpuShadeSpan::Kind::LowUse}});
  QApplication::processEvents();
  QString gap = tooltipAt(onKernels(6250));
  EXPECT_TRUE(gap.contains(QStringLiteral("GPU idle"))) << gap.toStdString();
  EXPECT_TRUE(gap.contains(durationText(HandMade::kKernelBStart - HandMade::kKernelAEnd))) << gap.toStdString();
  EXPECT_TRUE(gap.contains(QStringLiteral("longer than 1 ms"))) << gap.toStdString();
  // A low-use chunk off the bars says so too; over a bar the bar's own tooltip stays.
  QString lowUse = tooltipAt(onKernels(8500));
  EXPECT_TRUE(lowUse.contains(QStringLiteral("GPU busy under 50%"))) << lowUse.toStdString();
  QString bar = tooltipAt(onKernels(4000));
  EXPECT_TRUE(bar.contains(QStringLiteral("kernelA"))) << bar.toStdString();
  EXPECT_FALSE(bar.contains(QStringLiteral("GPU busy"))) << bar.toStdString();
  // CPU rows are not shaded and say nothing of it.
  int api = timeline_test::findTrack(*trace_, TrackKind::CudaApi, "cudaLaunchKernel_v7000");
  ASSERT_GE(api, 0);
  QPoint onApi(static_cast<int>(canvas_->xForTime(6250)),
               canvas_->laneRect(static_cast<uint32_t>(api), 0).center().y());
  EXPECT_FALSE(tooltipAt(onApi).contains(QStringLiteral("GPU idle")));
  QToolTip::hideText();
}

TEST_F(GpuShadingLegendTest, TheLegendShowsEachShadeInItsColourWhileThereIsShading) {
  GpuShadingLegend* legend = view_->shadingLegend();
  ASSERT_NE(legend, nullptr);
  EXPECT_FALSE(legend->isVisible());
  canvas_->setGpuShading({{device_, HandMade::kKernelAEnd, HandMade::kKernelBStart, GpuShadeSpan::Kind::Idle}});
  QApplication::processEvents();
  ASSERT_TRUE(legend->isVisible());
  EXPECT_TRUE(legend->text().contains(QStringLiteral("GPU idle > 1 ms"))) << legend->text().toStdString();
  EXPECT_TRUE(legend->toolTip().contains(QStringLiteral("gpu_gaps"))) << legend->toolTip().toStdString();
  // The swatch is the colour painted on a shaded row: the shade over the timeline's background.
  QImage image = legend->grab().toImage();
  for (GpuShadeSpan::Kind kind : {GpuShadeSpan::Kind::Idle, GpuShadeSpan::Kind::LowUse}) {
    QRect swatch = legend->swatchRect(kind);
    ASSERT_TRUE(legend->rect().contains(swatch)) << static_cast<int>(kind);
    QRgb centre = image.pixel(swatch.center());
    QColor expected = timeline_colors::kBackground;
    QColor shade = gpuShadeColor(kind);
    double a = shade.alphaF();
    expected.setRgbF(expected.redF() * (1 - a) + shade.redF() * a, expected.greenF() * (1 - a) + shade.greenF() * a,
                     expected.blueF() * (1 - a) + shade.blueF() * a);
    EXPECT_NEAR(qRed(centre), expected.red(), 2) << static_cast<int>(kind);
    EXPECT_NEAR(qGreen(centre), expected.green(), 2) << static_cast<int>(kind);
    EXPECT_NEAR(qBlue(centre), expected.blue(), 2) << static_cast<int>(kind);
  }
  session_.setTrace(nullptr);
  QApplication::processEvents();
  EXPECT_FALSE(legend->isVisible());
}

}  // namespace
}  // namespace gpuscope::ui
