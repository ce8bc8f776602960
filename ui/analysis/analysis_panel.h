#pragma once
// AnalysisPanel: the Analysis tab. The verdict first, in one sentence with its numbers; the findings below,
// most severe first; the explanation, suggestion, evidence and places of the finding picked; and the
// verdict of each NVTX range; in a trace of several ranks, the verdict of each rank above the findings, which are
// each rank's (found on its processes in its judged window) with the rank in their first column. Picking a
// finding zooms the shared session (and so the timeline) to its first place and selects the event there; the places in
// the details jump to the others.
#include <QWidget>
#include <memory>
#include <optional>

#include "core/analysis/verdict/analysis_report.h"
#include "ui/session/trace_session.h"

class QLabel;
class QTableView;
class QTextBrowser;
class QUrl;

namespace gpuscope::ui {

class FindingListModel;
class RangeVerdictModel;
class RankVerdictModel;

class AnalysisPanel : public QWidget {
  Q_OBJECT
 public:
  explicit AnalysisPanel(TraceSession* session, QWidget* parent = nullptr);

  // Shows REPORT (null: none, with STATUS such as "Analyzing..." or an error in its place).
  void setReport(std::shared_ptr<const AnalysisReport> report);
  void setStatus(const QString& status);
  const std::shared_ptr<const AnalysisReport>& report() const { return report_; }

  QLabel* verdictLabel() const { return verdict_; }
  // The judged window (a link that zooms the timeline to it), the start-up line and the three figures.
  QLabel* windowLabel() const { return window_; }
  QTableView* findingsView() const { return findingsView_; }
  QTextBrowser* detailsView() const { return details_; }
  QTableView* rangesView() const { return rangesView_; }
  FindingListModel* findingModel() const { return findings_; }
  RangeVerdictModel* rangeModel() const { return ranges_; }
  QTableView* ranksView() const { return ranksView_; }
  RankVerdictModel* rankModel() const { return ranks_; }

  // Picks finding ROW: shows its details and focuses a place of it.
  // PLACE: a position in the finding's ranges; -1, the first of placesPreferring (finding_focus.h).
  void pickFinding(int row, int place = -1);
  // The window the verdict judged for the finding in FINDING_ROW: its rank's, else the run's.
  std::optional<TimeInterval> judgedWindowOf(int findingRow) const;
  // Picks NVTX range verdict ROW: zooms to the span from its first instance's start to its last's end.
  void pickRange(int row);
  // Picks rank verdict ROW: zooms to the window its verdict judged and shows the rank's first finding.
  void pickRank(int row);
  // Zooms the timeline to the window the run's verdict judged.
  void showJudgedWindow();

 signals:
  // A finding, an NVTX range or a rank verdict was double-clicked, or a place or the judged window's link clicked: the
  // window shows the timeline, which the session has been zoomed to.
  void showTimelineRequested();

 private:
  void showDetails(const Finding& finding, int row);
  void onPlaceLink(const QUrl& link);

  TraceSession* session_;
  std::shared_ptr<const AnalysisReport> report_;
  QLabel* verdict_;
  QLabel* window_;
  QTableView* findingsView_;
  QTextBrowser* details_;
  QTableView* rangesView_;
  FindingListModel* findings_;
  RangeVerdictModel* ranges_;
  QTableView* ranksView_;
  RankVerdictModel* ranks_;
};

// "<b>CPU bound</b>: the GPU was busy ..." for the label: the sentence with its class in bold.
QString verdictHtml(const Verdict& verdict);
// A trace of ranks: each rank's class in bold first, then the verdict of all ranks together, greyed.
QString ranksVerdictHtml(const AnalysisReport& report);
// The lines under it: "Judged window: <a>...</a>", "Start-up set apart: ...", "Three figures ...".
QString judgedWindowHtml(const AnalysisReport& report);

}  // namespace gpuscope::ui
