// Issue 30, point 5: a roofline point goes to the timeline. A double click on the point, or the "Show on the
// timeline" link of its details, selects its kernel, zooms the timeline to it and shows the Timeline tab.
#include <gtest/gtest.h>
#include <unistd.h>

#include <QLabel>
#include <QMouseEvent>
#include <QScatterSeries>
#include <QSettings>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <filesystem>

#include "core/ncu/ncu_import.h"
#include "shell_fixtures.h"
#include "ui/main_window/analysis_view.h"
#include "ui/main_window/main_window.h"
#include "ui/roofline/roofline_chart_view.h"
#include "ui/roofline/roofline_view.h"
#include "ui/session/trace_session.h"

namespace gpuscope::ui {
namespace {

constexpr int kRooflineJumpTimeoutMs = 120'000;

// transpose.sqlite with the fixture's ncu metrics attached, in a copy inside DIR.
QString transposeWithMetrics(const QTemporaryDir& dir) {
  QString copy = dir.filePath(QStringLiteral("transpose_metrics.sqlite"));
  importNcuMetrics({test::fixturePath("nsys/transpose.sqlite").toStdString(),
                    test::fixturePath("nsys/transpose_ncu_metrics.csv").toStdString(), copy.toStdString(), false});
  return copy;
}

// The window at 1280x720 on that copy, its Roofline tab up.
class RooflineJump : public ::testing::Test {
 protected:
  void SetUp() override {
    window_ = test::shownMainWindow(dir_, 1280, 720);
    QSignalSpy filled(window_.get(), &MainWindow::panesFilled);
    window_->openFile(transposeWithMetrics(dir_));
    ASSERT_TRUE(filled.wait(kRooflineJumpTimeoutMs));
    roofline_ = window_->rooflineView();
    window_->views()->setCurrentWidget(roofline_);
    QApplication::processEvents();
  }

  // The first drawn point (not the selection ring) and its index into points().
  std::pair<QScatterSeries*, size_t> firstDrawnPoint() const {
    for (auto* series : roofline_->chart()->series())
      if (auto* scatter = qobject_cast<QScatterSeries*>(series); scatter && scatter != roofline_->selectionSeries())
        if (scatter->count() > 0) return {scatter, roofline_->drawnPoints(scatter).at(0)};
    return {nullptr, 0};
  }

  // The timeline shows the selected kernel, zoomed so that it is in view.
  void expectTimelineOnSelectedKernel() {
    EXPECT_EQ(window_->views()->currentWidget(), window_->analysisView());
    TraceSession* session = window_->session();
    ASSERT_TRUE(session->selection().has_value());
    const auto& lane = session->trace()->lane(*session->selection());
    TimeNs start = lane.start[session->selection()->index];
    EXPECT_LE(session->viewStart(), start);
    EXPECT_GT(session->viewEnd(), start);
    EXPECT_LT(session->viewEnd() - session->viewStart(), session->trace()->endTime() - session->trace()->startTime());
  }

  QTemporaryDir dir_;
  std::unique_ptr<MainWindow> window_;
  RooflineView* roofline_ = nullptr;
};

TEST_F(RooflineJump, ADoubleClickOnAPointShowsItsKernelOnTheTimeline) {
  auto [series, index] = firstDrawnPoint();
  ASSERT_NE(series, nullptr) << roofline_->message().toStdString();
  QPointF at = roofline_->chartView()->viewportPosition(series->at(0));
  QSignalSpy asked(roofline_, &RooflineView::showTimelineRequested);
  QTest::mouseDClick(roofline_->chartView()->viewport(), Qt::LeftButton, Qt::NoModifier, at.toPoint());
  EXPECT_EQ(asked.count(), 1);
  ASSERT_TRUE(window_->session()->selection().has_value());
  std::string selected(window_->session()->trace()->name(*window_->session()->selection()));
  EXPECT_NE(roofline_->points().at(index).label.find(selected), std::string::npos) << selected;
  expectTimelineOnSelectedKernel();
}

TEST_F(RooflineJump, TheDetailsLinkShowsTheClickedKernelOnTheTimeline) {
  auto [series, index] = firstDrawnPoint();
  ASSERT_NE(series, nullptr);
  roofline_->activatePoint(index);
  EXPECT_EQ(window_->views()->currentWidget(), roofline_);  // a single click stays on the roofline
  ASSERT_TRUE(roofline_->pointDetails().contains(QStringLiteral("Show on the timeline")))
      << roofline_->pointDetails().toStdString();
  auto* details = roofline_->findChild<QLabel*>(QStringLiteral("rooflinePointDetails"));
  ASSERT_NE(details, nullptr);
  emit details->linkActivated(QStringLiteral("point:%1").arg(index));
  expectTimelineOnSelectedKernel();
}

}  // namespace
}  // namespace gpuscope::ui
