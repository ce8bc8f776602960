// The Analysis tab: its models hold the verdict and the findings of a real run, a click on a finding moves
// the timeline's view to the finding's place, the analysis runs off the GUI thread, the compare view shows
// both runs' verdicts, and the GPU rows are shaded where the GPU was idle.
#include "ui/analysis/analysis_panel.h"

#include <gtest/gtest.h>

#include <QApplication>
#include <QImage>
#include <QLabel>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <algorithm>
#include <filesystem>

#include "core/analysis/finding_stake.h"
#include "core/analysis/verdict/analysis_report.h"
#include "core/model/trace_loader.h"
#include "core/ranks/trace_merge.h"
#include "tests/ui/tables/table_test_support.h"
#include "tests/ui/timeline/timeline_test_trace.h"
#include "ui/analysis/analysis_shading.h"
#include "ui/analysis/background_analysis.h"
#include "ui/analysis/compare_verdicts_view.h"
#include "ui/analysis/finding_focus.h"
#include "ui/analysis/finding_list_model.h"
#include "ui/analysis/range_verdict_model.h"
#include "ui/analysis/rank_verdict_model.h"
#include "ui/main_window/analysis_view.h"
#include "ui/main_window/main_window.h"
#include "ui/timeline/timeline_canvas.h"
#include "ui/timeline/timeline_view.h"

namespace gpuscope::ui {
namespace {

constexpr int kAnalysisTimeoutMs = 60000;

QString fixture(const char* relative) { return QStringLiteral(GPUSCOPE_FIXTURES "/") + QString::fromUtf8(relative); }

std::shared_ptr<const AnalysisReport> loader0Report() {
  static auto report =
      std::make_shared<const AnalysisReport>(analyzeTraceFile(fixture("gpuscope/loader0.sqlite").toStdString()));
  return report;
}

int rowOf(const FindingListModel& model, const std::string& ruleId) {
  for (int row = 0; row < model.rowCount(); ++row) {
    if (model.finding(row)->ruleId == ruleId) return row;
  }
  return -1;
}

TEST(AnalysisPanel, ModelsHoldTheVerdictAndTheFindingsMostAtStakeFirst) {
  TraceSession session;
  AnalysisPanel panel(&session);
  test::ModelCheck findingsCheck(panel.findingModel());
  test::ModelCheck rangesCheck(panel.rangeModel());
  panel.setReport(loader0Report());
  EXPECT_TRUE(panel.verdictLabel()->text().contains(QStringLiteral("CPU bound")))
      << panel.verdictLabel()->text().toStdString();
  EXPECT_TRUE(panel.verdictLabel()->text().contains(QStringLiteral("% of ")));
  FindingListModel* model = panel.findingModel();
  ASSERT_GT(model->rowCount(), 0);
  int starving = rowOf(*model, "gpu_waits_on_host");
  ASSERT_GE(starving, 0);
  EXPECT_EQ(model->data(model->index(starving, FindingListModel::Title)).toString(),
            QStringLiteral("GPU waiting on the host"));
  EXPECT_TRUE(model->data(model->index(starving, FindingListModel::Summary)).toString().startsWith("The GPU was idle"));
  // The most time at stake in the judged window first; between equal times the more severe.
  for (int row = 1; row < model->rowCount(); ++row) {
    const Finding* before = model->finding(row - 1);
    const Finding* after = model->finding(row);
    EXPECT_LE(after->atStakeNs, before->atStakeNs);
    if (after->atStakeNs == before->atStakeNs) {
      EXPECT_LE(after->severity, before->severity);
    }
  }
  EXPECT_GT(model->finding(0)->atStakeNs, 0);
  // That order is core's (finding_stake.h), not the tab's own: row by row the report's findings, in a view that
  // does not sort them again.
  ASSERT_EQ(model->rowCount(), static_cast<int>(panel.report()->findings.size()));
  for (int row = 0; row < model->rowCount(); ++row)
    EXPECT_EQ(model->finding(row), &panel.report()->findings[static_cast<size_t>(row)]) << row;
  EXPECT_EQ(panel.findingsView()->model(), model);
  EXPECT_FALSE(panel.findingsView()->isSortingEnabled());
  EXPECT_EQ(model->data(model->index(0, FindingListModel::AtStake), FindingListModel::SortRole).toLongLong(),
            model->finding(0)->atStakeNs);
  // Under the verdict: the judged window (a link), the start-up line and the three figures.
  QString window = panel.windowLabel()->text();
  EXPECT_TRUE(window.contains(QStringLiteral("<a href='judged:'>Judged window</a>: NVTX ranges")))
      << window.toStdString();
  EXPECT_TRUE(window.contains(QStringLiteral("Start-up set apart: "))) << window.toStdString();
  EXPECT_TRUE(window.contains(QStringLiteral("Three figures for this window"))) << window.toStdString();
  // The NVTX ranges ("epoch 0", "step", ...) each have a verdict row.
  RangeVerdictModel* ranges = panel.rangeModel();
  ASSERT_GT(ranges->rowCount(), 0);
  bool step = false;
  for (int row = 0; row < ranges->rowCount(); ++row)
    step |= ranges->data(ranges->index(row, RangeVerdictModel::Range)).toString() == QStringLiteral("step");
  EXPECT_TRUE(step);
  panel.setStatus(QStringLiteral("Analyzing..."));
  EXPECT_EQ(model->rowCount(), 0);
  EXPECT_TRUE(findingsCheck.failures().isEmpty()) << findingsCheck.failures().join(' ').toStdString();
  EXPECT_TRUE(rangesCheck.failures().isEmpty()) << rangesCheck.failures().join(' ').toStdString();
}

// The two-rank DDP run (tests/fixtures/ranks, Kineto traces merged): rank 0 waits in its all-reduces for rank 1,
// which does host work; the ranks table says so, and its rows sort by rank.
TEST(AnalysisPanel, ATraceOfRanksHasAVerdictPerRank) {
  std::string merged = (std::filesystem::path(::testing::TempDir()) / "analysis_panel_ranks.sqlite").string();
  std::string kineto = GPUSCOPE_FIXTURES "/ranks/kineto/";
  mergeTraces({kineto + "rank0.json.gz", kineto + "rank1.json.gz"}, merged);
  TraceSession session;
  AnalysisPanel panel(&session);
  test::ModelCheck ranksCheck(panel.rankModel());
  panel.setReport(std::make_shared<const AnalysisReport>(analyzeTraceFile(merged)));
  RankVerdictModel* ranks = panel.rankModel();
  ASSERT_EQ(ranks->rowCount(), 2);
  EXPECT_FALSE(panel.ranksView()->isHidden());
  EXPECT_EQ(ranks->data(ranks->index(0, RankVerdictModel::Rank)).toString(), QStringLiteral("0"));
  EXPECT_EQ(ranks->data(ranks->index(0, RankVerdictModel::Class)).toString(), QStringLiteral("communication"));
  EXPECT_EQ(ranks->data(ranks->index(1, RankVerdictModel::Class)).toString(), QStringLiteral("cpu"));
  EXPECT_TRUE(ranks->data(ranks->index(0, RankVerdictModel::Class), Qt::ToolTipRole)
                  .toString()
                  .startsWith(QStringLiteral("Communication bound")));
  panel.setStatus(QStringLiteral("Analyzing..."));
  EXPECT_EQ(ranks->rowCount(), 0);
  EXPECT_TRUE(panel.ranksView()->isHidden());
  EXPECT_TRUE(ranksCheck.failures().isEmpty()) << ranksCheck.failures().join(' ').toStdString();
}

// The same run's findings are each rank's, under the rank in their first column: the straggler finding is rank
// 1's and names it, rank 0 has none; a click on rank 1's verdict shows its first finding, and a click on a
// rank's finding zooms the timeline to its place.
TEST(AnalysisPanel, ATraceOfRanksListsEachRanksFindings) {
  std::string merged = (std::filesystem::path(::testing::TempDir()) / "analysis_panel_rank_findings.sqlite").string();
  std::string kineto = GPUSCOPE_FIXTURES "/ranks/kineto/";
  mergeTraces({kineto + "rank0.json.gz", kineto + "rank1.json.gz"}, merged);
  TraceSession session;
  session.setTrace(std::shared_ptr<const Trace>(loadTrace(merged).release()));
  session.fitAll();
  AnalysisPanel panel(&session);
  test::ModelCheck findingsCheck(panel.findingModel());
  panel.setReport(std::make_shared<const AnalysisReport>(analyzeTraceFile(merged)));
  FindingListModel* model = panel.findingModel();
  ASSERT_GT(model->rowCount(), 0);
  EXPECT_FALSE(panel.findingsView()->isColumnHidden(FindingListModel::Rank));
  QStringList ranks;
  for (int row = 0; row < model->rowCount(); ++row) {
    QString rank = model->data(model->index(row, FindingListModel::Rank)).toString();
    ASSERT_FALSE(rank.isEmpty()) << row;
    if (ranks.isEmpty() || ranks.back() != rank) ranks.append(rank);
  }
  EXPECT_EQ(ranks, QStringList({QStringLiteral("rank 0"), QStringLiteral("rank 1")})) << "rank by rank";
  int straggler = rowOf(*model, "straggler");
  ASSERT_GE(straggler, 0);
  EXPECT_EQ(model->data(model->index(straggler, FindingListModel::Rank)).toString(), QStringLiteral("rank 1"));
  EXPECT_TRUE(model->data(model->index(straggler, FindingListModel::Summary))
                  .toString()
                  .startsWith(QStringLiteral("rank 1 started ")));
  EXPECT_EQ(model->rankOf(straggler), &panel.report()->ranks[1]);

  panel.pickRank(1);
  int first = model->firstRowOfRank(1);
  ASSERT_GE(first, 0);
  EXPECT_EQ(panel.findingsView()->currentIndex().row(), first);
  EXPECT_TRUE(panel.detailsView()->toPlainText().startsWith(QStringLiteral("rank 1: ")));

  panel.pickFinding(straggler);
  const FindingRange& place = model->finding(straggler)->ranges.front();
  EXPECT_EQ(session.rangeStart(), place.start);
  EXPECT_EQ(session.rangeEnd(), place.end);
  EXPECT_TRUE(findingsCheck.failures().isEmpty()) << findingsCheck.failures().join(' ').toStdString();
}

TEST(AnalysisPanel, ClickingAFindingZoomsTheSessionToItsPlace) {
  auto trace = timeline_test::loadFixture("gpuscope/loader0.sqlite");
  TraceSession session;
  session.setTrace(trace);
  session.fitAll();
  AnalysisPanel panel(&session);
  panel.resize(1200, 800);
  panel.show();
  panel.setReport(loader0Report());
  QApplication::processEvents();
  int row = rowOf(*panel.findingModel(), "gpu_waits_on_host");
  ASSERT_GE(row, 0);
  // The finding's first place in the judged window (its places before it are of the warm-up).
  const Finding& finding = *panel.findingModel()->finding(row);
  const FindingRange& place = finding.ranges[placesPreferring(finding, panel.judgedWindowOf(row)).front()];
  ASSERT_TRUE(panel.report()->run.judged->window.overlaps(place.start, place.end));
  TimeNs before = session.viewEnd() - session.viewStart();
  QTableView* view = panel.findingsView();
  QRect cell = view->visualRect(view->model()->index(row, FindingListModel::Title));
  QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, cell.center());
  EXPECT_LT(session.viewEnd() - session.viewStart(), before);
  EXPECT_LE(session.viewStart(), place.start);
  EXPECT_GE(session.viewEnd(), place.end);
  EXPECT_EQ(session.rangeStart(), place.start);
  EXPECT_EQ(session.rangeEnd(), place.end);
  EXPECT_TRUE(panel.detailsView()->toPlainText().contains(QStringLiteral("Suggestion:")));
  EXPECT_TRUE(panel.detailsView()->toPlainText().contains(QStringLiteral("num_workers")));
}

TEST(AnalysisPanel, TheJudgedWindowLinkZoomsToIt) {
  auto trace = timeline_test::loadFixture("gpuscope/loader0.sqlite");
  TraceSession session;
  session.setTrace(trace);
  session.fitAll();
  AnalysisPanel panel(&session);
  panel.setReport(loader0Report());
  TimeNs before = session.viewEnd() - session.viewStart();
  emit panel.windowLabel()->linkActivated(QStringLiteral("judged:"));
  EXPECT_LT(session.viewEnd() - session.viewStart(), before);
  const TimeInterval judged = loader0Report()->run.judged->window;
  EXPECT_LE(session.viewStart(), judged.start);
  EXPECT_GE(session.viewEnd(), judged.end);
}

TEST(AnalysisPanel, PickingARangeVerdictZoomsToItsInstances) {
  auto trace = timeline_test::loadFixture("gpuscope/loader0.sqlite");
  TraceSession session;
  session.setTrace(trace);
  session.fitAll();
  AnalysisPanel panel(&session);
  panel.setReport(loader0Report());
  const auto& ranges = loader0Report()->nvtx;
  auto step = std::find_if(ranges.begin(), ranges.end(), [](const RangeVerdict& r) { return r.name == "step"; });
  ASSERT_NE(step, ranges.end());
  panel.pickRange(static_cast<int>(step - ranges.begin()));
  EXPECT_LE(session.viewStart(), step->verdict.evidence.windowStart);
  EXPECT_GE(session.viewEnd(), step->verdict.evidence.windowEnd);
  EXPECT_LT(session.viewEnd() - session.viewStart(), trace->endTime() - trace->startTime());
  EXPECT_EQ(session.rangeStart(), step->verdict.evidence.windowStart);
}

// A finding's evidence reads as the rest of the viewer: nsys's "Start (ns)" session timestamps (5354725847...)
// become "Start (s)", seconds from the origin the ruler and the places under the table count from.
TEST(AnalysisPanel, EvidenceStartsAreSecondsFromTheTimeOrigin) {
  auto trace = timeline_test::loadFixture("gpuscope/loader0.sqlite");
  TraceSession session;
  session.setTrace(trace);
  AnalysisPanel panel(&session);
  panel.setReport(loader0Report());
  FindingListModel* model = panel.findingModel();
  int row = -1;
  size_t startColumn = 0;
  for (int r = 0; r < model->rowCount() && row < 0; ++r) {
    const ReportTable& evidence = model->finding(r)->evidence;
    for (size_t c = 0; c < evidence.columns.size() && !evidence.rows.empty(); ++c) {
      if (evidence.columns[c].title == "Start (ns)") {
        row = r;
        startColumn = c;
        break;
      }
    }
  }
  ASSERT_GE(row, 0) << "loader0 has a finding with nsys's Start (ns) column";
  panel.pickFinding(row);
  const ReportTable& evidence = model->finding(row)->evidence;
  int64_t ns = std::get<int64_t>(evidence.rows.front()[startColumn]);
  ASSERT_NE(session.timeOrigin(), 0);
  QString text = panel.detailsView()->toPlainText();
  EXPECT_TRUE(text.contains(QStringLiteral("Start (s)"))) << text.toStdString();
  EXPECT_FALSE(text.contains(QStringLiteral("Start (ns)"))) << text.toStdString();
  EXPECT_FALSE(text.contains(QString::number(ns))) << "no raw session nanoseconds";
  QString seconds = QString::number(static_cast<double>(ns - session.timeOrigin()) / 1e9, 'f', 6);
  EXPECT_TRUE(text.contains(seconds)) << seconds.toStdString() << " in " << text.toStdString();
}

TEST(FindingFocus, AKernelPlaceSelectsThatKernel) {
  auto trace = timeline_test::loadHandMadeTrace();
  TraceSession session;
  session.setTrace(trace);
  int track = timeline_test::findTrack(*trace, TrackKind::GpuKernels, "kernelA");
  ASSERT_GE(track, 0);
  const Track& kernels = trace->track(static_cast<uint32_t>(track));
  FindingRange range;
  range.start = timeline_test::HandMade::kKernelAStart;
  range.end = timeline_test::HandMade::kKernelAEnd;
  range.pid = kernels.pid;
  range.deviceId = kernels.deviceId;
  range.contextId = kernels.contextId;
  range.streamId = kernels.streamId;
  range.onGpu = true;
  focusFindingRange(session, range);
  ASSERT_TRUE(session.selection().has_value());
  EXPECT_EQ(trace->name(*session.selection()), "kernelA");
  EXPECT_LT(session.viewStart(), range.start);
  EXPECT_GT(session.viewEnd(), range.end);
  range.end += 1;  // no event spans that exactly: nothing selected
  focusFindingRange(session, range);
  EXPECT_FALSE(session.selection().has_value());
}

TEST(BackgroundAnalysis, AnalyzesOffTheGuiThreadAndReportsBadFiles) {
  BackgroundAnalysis analysis;
  QSignalSpy finished(&analysis, &BackgroundAnalysis::finished);
  QSignalSpy failed(&analysis, &BackgroundAnalysis::failed);
  analysis.analyze(fixture("nsys/loader2.sqlite"));
  EXPECT_TRUE(analysis.isRunning());
  ASSERT_TRUE(finished.wait(kAnalysisTimeoutMs));
  auto report = finished.at(0).at(1).value<std::shared_ptr<const AnalysisReport>>();
  ASSERT_TRUE(report);
  EXPECT_NE(report->run.kind, BottleneckClass::None);
  EXPECT_FALSE(report->gpuIdle.empty());
  analysis.analyze(fixture("README.md"));
  ASSERT_TRUE(failed.wait(kAnalysisTimeoutMs));
  EXPECT_FALSE(failed.at(0).at(1).toString().isEmpty());
}

TEST(CompareVerdictsView, ShowsBothRunsVerdictsSideBySide) {
  CompareVerdictsView view(fixture("gpuscope/loader0.sqlite"), fixture("nsys/loader2.sqlite"));
  QSignalSpy completed(&view, &CompareVerdictsView::completed);
  ASSERT_TRUE(completed.wait(kAnalysisTimeoutMs));
  EXPECT_TRUE(view.isComplete());
  EXPECT_TRUE(view.verdictA()->toPlainText().contains(QStringLiteral("loader0.sqlite")));
  EXPECT_TRUE(view.verdictA()->toPlainText().contains(QStringLiteral("CPU bound")));
  EXPECT_TRUE(view.verdictB()->toPlainText().contains(QStringLiteral("loader2.sqlite")));
  EXPECT_TRUE(view.verdictB()->toPlainText().contains(QStringLiteral("GPU was busy")));
  // Issue 40, point 7: a verdict longer than its box scrolls, whole, in a box of 1280x720's half width.
  view.resize(640, view.sizeHint().height());
  view.show();
  QApplication::processEvents();
  QScrollBar* bar = view.verdictA()->verticalScrollBar();
  EXPECT_GT(bar->maximum(), 0) << "the verdict fits: the test needs a longer one";
  bar->setValue(bar->maximum());
  EXPECT_EQ(bar->value(), bar->maximum());
  EXPECT_TRUE(view.findChild<QLabel*>(QStringLiteral("verdictsNote"))->text().contains(QStringLiteral("steady state")));
}

TEST(GpuShading, IdleStretchesAreShadedOnGpuRowsOnly) {
  auto trace = timeline_test::loadHandMadeTrace();
  TraceSession session;
  session.setTrace(trace);
  TimelineView view(&session);
  view.resize(TimelineCanvas::kLabelWidth + 1000 + view.verticalScrollBar()->sizeHint().width(), 700);
  view.show();
  QApplication::processEvents();
  TimelineCanvas* canvas = view.canvas();
  session.setViewRange(0, 10000);
  int kernels = timeline_test::findTrack(*trace, TrackKind::GpuKernels, "kernelA");
  int api = timeline_test::findTrack(*trace, TrackKind::CudaApi, "cudaLaunchKernel_v7000");
  ASSERT_GE(kernels, 0);
  ASSERT_GE(api, 0);
  int gpuY = canvas->laneRect(static_cast<uint32_t>(kernels), 0).center().y();
  int cpuY = canvas->laneRect(static_cast<uint32_t>(api), 0).center().y();
  // Between kernelA's end (6000) and kernelB's start (6500) stream 7 ran nothing.
  int gapX = static_cast<int>(canvas->xForTime(6250));
  QImage plain = canvas->grab().toImage();
  canvas->setGpuShading(
      {{trace->track(static_cast<uint32_t>(kernels)).deviceId, 6000, 6500, GpuShadeSpan::Kind::Idle}});
  QImage shaded = canvas->grab().toImage();
  QColor before(plain.pixel(gapX, gpuY)), after(shaded.pixel(gapX, gpuY));
  EXPECT_NE(before, after);
  EXPECT_GT(after.red() - after.green(), before.red() - before.green()) << after.name().toStdString();
  EXPECT_EQ(plain.pixel(gapX, cpuY), shaded.pixel(gapX, cpuY));  // CPU rows stay as they were
  int outsideX = static_cast<int>(canvas->xForTime(7000));
  EXPECT_EQ(plain.pixel(outsideX + 40, gpuY), shaded.pixel(outsideX + 40, gpuY));
  session.setTrace(nullptr);
  EXPECT_TRUE(canvas->gpuShading().empty());
}

TEST(MainWindowAnalysis, LoadingATraceFillsTheAnalysisTabAndShadesTheTimeline) {
  QTemporaryDir dir;
  MainWindow window(std::make_unique<QSettings>(dir.filePath(QStringLiteral("settings.ini")), QSettings::IniFormat));
  QSignalSpy analyzed(&window, &MainWindow::analysisFinished);
  window.openFile(fixture("gpuscope/loader0.sqlite"));
  ASSERT_TRUE(analyzed.wait(kAnalysisTimeoutMs));
  EXPECT_FALSE(analyzed.at(0).at(1).toBool());
  EXPECT_GT(window.analysisPanel()->findingModel()->rowCount(), 0);
  EXPECT_EQ(window.analysisPanel()->report()->run.kind, BottleneckClass::Cpu);
  EXPECT_FALSE(window.analysisView()->timeline()->canvas()->gpuShading().empty());
}

}  // namespace
}  // namespace gpuscope::ui
