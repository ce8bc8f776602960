// Issue 30, point 5: going to a place from the Analysis tab shows the timeline there; the ruler range the jump
// picked is said by the tables it restricts (the NVTX projection included) and cleared with one click.
#include <gtest/gtest.h>

#include <QApplication>
#include <QLabel>
#include <QRegularExpression>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QTextDocument>
#include <QToolButton>
#include <QUrl>

#include "shell_fixtures.h"
#include "tests/ui/test_timeouts.h"
#include "ui/analysis/analysis_panel.h"
#include "ui/analysis/finding_focus.h"
#include "ui/analysis/finding_list_model.h"
#include "ui/main_window/analysis_view.h"
#include "ui/main_window/main_window.h"
#include "ui/session/trace_session.h"
#include "ui/tables/kernel_table_view.h"
#include "ui/tables/nvtx_projection_view.h"
#include "ui/tables/range_bar.h"
#include "ui/tables/report_pane.h"
#include "ui/timeline/timeline_canvas.h"
#include "ui/timeline/timeline_layout.h"
#include "ui/timeline/timeline_view.h"

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

// The rows in view after a jump, as the timeline scrolled them: the place's GPU row is among them, not below
// the fold under the host threads.
void expectTrackInView(MainWindow& window, const FindingRange& range) {
  auto* view = window.findChild<TimelineView*>();
  ASSERT_NE(view, nullptr);
  auto track = trackOfRange(*window.session()->trace(), range);
  ASSERT_TRUE(track);
  const TimelineLayout& layout = view->canvas()->layout();
  int row = layout.rowOfTrack(*track);
  auto placed = layout.placementOf(row);
  ASSERT_EQ(placed.row, row) << "the place's row is folded away";
  int top = view->verticalScrollBar()->value();
  int visible = view->canvas()->height() - TimelineCanvas::kRulerHeight;
  EXPECT_GE(placed.top, top);
  EXPECT_LE(placed.bottom(), top + visible)
      << "row " << row << " at " << placed.top << ", view " << top << "+" << visible;
}

TEST_F(AnalysisJump, APlaceOnTheGpuBringsItsGpuRowIntoView) {
  for (const char* rule : {"gpu_waits_on_host", "launch_bound"}) {
    int row = rowOf(*panel_->findingModel(), rule);
    if (row < 0) continue;
    const Finding* finding = panel_->findingModel()->finding(row);
    ASSERT_FALSE(finding->ranges.empty()) << rule;
    if (!finding->ranges[0].onGpu) continue;
    window_->findChild<TimelineView*>()->verticalScrollBar()->setValue(0);
    emit panel_->detailsView()->anchorClicked(QUrl(QStringLiteral("place:%1/0").arg(row)));
    QApplication::processEvents();
    expectTrackInView(*window_, finding->ranges[0]);
  }
}

// A place link reads as one piece ("13.438 s +26.997 ms"): its spaces do not break.
TEST_F(AnalysisJump, PlaceLinksDoNotBreakAcrossLines) {
  int row = rowOf(*panel_->findingModel(), "gpu_waits_on_host");
  ASSERT_GE(row, 0);
  panel_->pickFinding(row);
  // The raw text: toPlainText would turn no-break spaces into spaces.
  QString plain = panel_->detailsView()->document()->toRawText();
  qsizetype places = plain.indexOf(QStringLiteral("on the ruler):"));
  ASSERT_GE(places, 0) << plain.toStdString();
  QString links = plain.mid(places + 14);
  ASSERT_TRUE(links.contains('+')) << links.toStdString();
  // Split where a line may break (ordinary spaces): each piece is a whole place, start, unit and length.
  int pieces = 0;
  for (QString piece : links.split(QChar(' '), Qt::SkipEmptyParts)) {
    piece = piece.trimmed();  // the paragraph's separator before the first
    if (!piece.contains('+')) continue;
    ++pieces;
    EXPECT_TRUE(
        QRegularExpression(QStringLiteral("^[0-9.,]+\u00a0\\S+\u00a0\\+[0-9.,]+\u00a0\\S+")).match(piece).hasMatch())
        << piece.toStdString();
  }
  EXPECT_GT(pieces, 0) << links.toStdString();
}

TEST_F(AnalysisJump, TheJudgedWindowLinkShowsTheTimelineToo) {
  ASSERT_TRUE(panel_->report());
  emit panel_->windowLabel()->linkActivated(QStringLiteral("judged:"));
  EXPECT_EQ(window_->views()->currentWidget(), window_->analysisView());
}

// Issue 40, point 3: a double click on gpu_waits_on_host opens a gap of the steady state that the verdict judged,
// not the first gap of the warm-up (cuBLAS set-up in step 0).
TEST_F(AnalysisJump, ADoubleClickedFindingOpensAPlaceInTheJudgedWindow) {
  ASSERT_TRUE(panel_->report() && panel_->report()->run.judged);
  const TimeInterval judged = panel_->report()->run.judged->window;
  int row = rowOf(*panel_->findingModel(), "gpu_waits_on_host");
  ASSERT_GE(row, 0);
  const Finding* finding = panel_->findingModel()->finding(row);
  ASSERT_FALSE(judged.overlaps(finding->ranges.front().start, finding->ranges.front().end))
      << "the finding's first place should lie before the judged window for this test to mean something";
  emit panel_->findingsView()->activated(panel_->findingModel()->index(row, 0));
  QApplication::processEvents();
  TraceSession* session = window_->session();
  EXPECT_TRUE(judged.overlaps(session->rangeStart(), session->rangeEnd()))
      << "picked " << session->rangeStart() << "-" << session->rangeEnd() << ", judged " << judged.start << "-"
      << judged.end;
  EXPECT_EQ(window_->views()->currentWidget(), window_->analysisView());
}

// Issue 40, point 8: at 1280x720 the Analysis tab showed 2 findings under the verdict; it shows five or more.
TEST_F(AnalysisJump, At1280x720TheFindingsTableShowsFiveRowsOrMore) {
  QTableView* findings = panel_->findingsView();
  ASSERT_GE(panel_->findingModel()->rowCount(), 5);
  QApplication::processEvents();
  const int whole = findings->viewport()->height() / findings->rowHeight(0);
  EXPECT_GE(whole, 5) << "findings " << findings->viewport()->height() << " px high, rows " << findings->rowHeight(0);
}

TEST(FindingPlaces, ThoseInTheWindowComeFirstEachInTheFindingsOrder) {
  Finding finding;
  for (TimeNs start : {100, 200, 900, 1500, 2600}) finding.ranges.push_back({start, start + 50});
  std::vector<size_t> order = placesPreferring(finding, TimeInterval{1000, 2000});
  EXPECT_EQ(order, (std::vector<size_t>{3, 0, 1, 2, 4}));
  EXPECT_EQ(placesPreferring(finding, std::nullopt), (std::vector<size_t>{0, 1, 2, 3, 4}));
}

}  // namespace
}  // namespace gpuscope::ui
