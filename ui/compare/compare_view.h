#pragma once
// CompareView: two runs side by side: their timelines stacked and moving together through an alignment,
// the details of what is clicked in either, the alignment controls, a warning when the runs used different
// GPUs, and three tabs under them: the kernel or NVTX diff table of the aligned window, the summary of that
// window with both runs' verdicts, and the roofline of both runs.
#include <QWidget>
#include <memory>
#include <optional>

#include "core/diff/aligned_window.h"
#include "core/diff/run_alignment.h"
#include "core/diff/run_diff.h"
#include "ui/session/trace_session.h"

class QComboBox;
class QLabel;
class QStackedWidget;
class QTabWidget;
class QTreeView;

namespace gpuscope::ui {

class AlignmentBar;
class CompareRooflineView;
class CompareSummary;
class DetailsPanel;
class RunDiffModel;
class TableFilterProxy;
class TimelineView;

class CompareView : public QWidget {
  Q_OBJECT
 public:
  // A is the baseline, B the run compared with it; deltas are B - A. Opens aligned as defaultAnchors
  // says, on the aligned window, with each run's CPU rows collapsed so that its GPU rows show. Reading the
  // summary totals may throw TraceError for a damaged file.
  CompareView(std::shared_ptr<const Trace> a, std::shared_ptr<const Trace> b, QWidget* parent = nullptr);
  // Deletes the widgets before the sessions they observe.
  ~CompareView() override;

  TraceSession* sessionA() const { return sessionA_; }
  TraceSession* sessionB() const { return sessionB_; }
  TimelineView* timelineA() const { return timelineA_; }
  TimelineView* timelineB() const { return timelineB_; }
  RunDiffModel* diffModel() const { return model_; }
  TableFilterProxy* diffProxy() const { return proxy_; }
  QTreeView* diffTable() const { return table_; }
  // The tabs under the alignment: "Diff table", "Summary" and "Roofline".
  QTabWidget* tabs() const { return tabs_; }
  CompareRooflineView* rooflineView() const { return roofline_; }
  const RunDiff& diff() const { return diff_; }
  // The details of the selection in A and in B, and the one shown (that of the run last clicked).
  DetailsPanel* detailsA() const { return detailsA_; }
  DetailsPanel* detailsB() const { return detailsB_; }
  DetailsPanel* shownDetails() const;

  // Matches kernels or NVTX ranges; recomputes the table.
  void setDiffBy(DiffBy by);
  DiffBy diffBy() const { return diff_.by; }

  // Pins ANCHOR_A in A to ANCHOR_B in B, B shifted later by MANUAL_SHIFT; the controls show it. The anchors
  // share their kind and name (ANCHOR_A's); their indexes may differ. The summary and the diff table then
  // cover the window the anchors pin, and the timelines show it. Returns false (and keeps the previous
  // alignment) when an anchor is not in its run.
  bool setAlignment(const AlignmentAnchor& anchorA, const AlignmentAnchor& anchorB, TimeNs manualShift = 0);
  const RunAlignment& alignment() const { return alignment_; }
  // What the alignment line says, e.g. "B's start on A's start, B shifted +1.000 ms".
  QString alignmentText() const;
  // The stretch of each run the summary and the diff cover, and what the summary says of it, e.g.
  // "Aligned window: NVTX 'epoch 1', A 524.043 ms, B 322.162 ms".
  const AlignedWindow& window() const { return window_; }
  QString windowText() const;

  // Selects the source row ROW of the diff model: focuses the name's first instance in the run that has
  // it, selects the first instance in the other run, and fills both timelines' find bars with the name
  // so its instances can be stepped through.
  void showRow(int row);

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  // The Kernel (or Range) column takes the table's width that the numbers leave, at least its names' width
  // up to kNameColumnFloor: no empty strip right of the numbers, no name cut while there is room.
  void fitNameColumn();
  QWidget* buildTimelines();
  QWidget* buildDetails();
  void showDetailsOf(TraceSession* session);
  // The window of A (or B) that the summary and the diff cover: none for the whole run.
  std::optional<TimeInterval> windowOf(bool a) const;
  void showWindow();
  QWidget* buildDiffPage(QWidget* parent);
  QWidget* buildSummaryPage(QWidget* parent);
  void recomputeDiff();
  // Aligns as the alignment bar says, or says there why it cannot.
  void applyAlignmentControls();
  void syncFrom(TraceSession* source);
  // After a diff row's selection in both runs: the shared view widened to hold both selected instances.
  void showBothSelections();
  void highlightIn(TraceSession* session, TimelineView* view, const DiffRow& row, bool focus);

  std::shared_ptr<const Trace> a_;
  std::shared_ptr<const Trace> b_;
  TraceSession* sessionA_;
  TraceSession* sessionB_;
  TimelineView* timelineA_ = nullptr;
  TimelineView* timelineB_ = nullptr;
  RunDiff diff_;
  RunAlignment alignment_;
  AlignedWindow window_;
  AlignmentAnchor anchorA_;
  AlignmentAnchor anchorB_;
  TimeNs manualShift_ = 0;
  bool syncing_ = false;

  AlignmentBar* alignmentBar_ = nullptr;
  CompareSummary* summary_ = nullptr;
  QComboBox* byCombo_ = nullptr;
  QLabel* detailsTitle_ = nullptr;
  QStackedWidget* detailsStack_ = nullptr;
  DetailsPanel* detailsA_ = nullptr;
  DetailsPanel* detailsB_ = nullptr;
  QLabel* diffNote_ = nullptr;
  RunDiffModel* model_ = nullptr;
  TableFilterProxy* proxy_ = nullptr;
  QTreeView* table_ = nullptr;
  int nameContentWidth_ = 0;  // the name column's contents, measured when the diff was computed
  QTabWidget* tabs_ = nullptr;
  CompareRooflineView* roofline_ = nullptr;
  QList<int> tableSplitSizes_;  // the splitter's sizes while the diff table showed, restored on return
};

}  // namespace gpuscope::ui
