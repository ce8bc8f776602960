// Issue 30, point 5: going to a place from the Analysis tab shows the timeline there; the ruler range the jump
// picked is said by the tables it restricts (the NVTX projection included) and cleared with one click.
#include <gtest/gtest.h>

#include <QLabel>
#include <QSettings>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QToolButton>
#include <QUrl>

#include "shell_fixtures.h"
#include "tests/ui/test_timeouts.h"
#include "ui/analysis/analysis_panel.h"
#include "ui/analysis/finding_list_model.h"
#include "ui/main_window/analysis_view.h"
#include "ui/main_window/main_window.h"
#include "ui/session/trace_session.h"
#include "ui/tables/kernel_table_view.h"
#include "ui/tables/nvtx_projection_view.h"
#include "ui/tables/range_bar.h"
#include "ui/tables/report_pane.h"

namespace gpuscope::ui {
namespace {

using test::kTimeoutMs;

int rowOf(const FindingListModel& model, const std::string& ruleId) {
  for (int row = 0; row < model.rowCount(); ++row)
    if (model.finding(row)->ruleId == ruleId) return row;
  return -1;
}

// loader0.sqlite in a window at 1280x720, its analysis done, the Analysis tab up.
class AnalysisJump : public ::testing::Test {
 protected:
  void SetUp() override {
    window_ = test::shownMainWindow(dir_, 1280, 720);
    QSignalSpy analyzed(window_.get(), &MainWindow::analysisFinished);
    window_->openFile(test::fixturePath("gpuscope/loader0.sqlite"));
    ASSERT_TRUE(analyzed.wait(kTimeoutMs));
    ASSERT_FALSE(analyzed.at(0).at(1).toBool()) << "the analysis failed";
    panel_ = window_->analysisPanel();
    window_->views()->setCurrentWidget(panel_);
  }

  QTemporaryDir dir_;
  std::unique_ptr<MainWindow> window_;
  AnalysisPanel* panel_ = nullptr;
};

TEST_F(AnalysisJump, APlaceShowsTheTimelineAndTheTablesSayWhichRangeItPicked) {
  int row = rowOf(*panel_->findingModel(), "gpu_waits_on_host");
  ASSERT_GE(row, 0);
  TraceSession* session = window_->session();
  emit panel_->detailsView()->anchorClicked(QUrl(QStringLiteral("place:%1/0").arg(row)));
  EXPECT_EQ(window_->views()->currentWidget(), window_->analysisView());
  ASSERT_LT(session->rangeStart(), session->rangeEnd());
  EXPECT_TRUE(window_->analysisView()->kernels()->rangeBar()->isVisible());

  auto* nvtx = window_->analysisView()->findChild<NvtxProjectionView*>();
  ASSERT_NE(nvtx, nullptr);
  window_->analysisView()->tables()->setCurrentWidget(nvtx);
  if (nvtx->pane()->isRunning()) {
    QSignalSpy ready(nvtx->pane(), &ReportPane::reportReady);
    ASSERT_TRUE(ready.wait(kTimeoutMs));
  }
  EXPECT_TRUE(nvtx->rangeBar()->isVisible());
  EXPECT_TRUE(nvtx->pane()->status().endsWith(QStringLiteral("in the range picked on the ruler")))
      << nvtx->pane()->status().toStdString();
  auto* clear = nvtx->rangeBar()->findChild<QToolButton*>(QStringLiteral("clearRange"));
  ASSERT_NE(clear, nullptr);
  clear->click();
  EXPECT_EQ(session->rangeStart(), session->rangeEnd());
  EXPECT_FALSE(nvtx->rangeBar()->isVisible());
}

TEST_F(AnalysisJump, TheJudgedWindowLinkShowsTheTimelineToo) {
  ASSERT_TRUE(panel_->report());
  emit panel_->windowLabel()->linkActivated(QStringLiteral("judged:"));
  EXPECT_EQ(window_->views()->currentWidget(), window_->analysisView());
}

}  // namespace
}  // namespace gpuscope::ui
