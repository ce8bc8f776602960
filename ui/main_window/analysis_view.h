#pragma once
// AnalysisView: the main working view: the timeline, the tables beneath it and the details beside it. The details
// pane is narrow while nothing is selected (it only says how to select) and about a quarter of the width when
// something is, or as wide as the user last dragged it.
#include <QWidget>
#include <memory>

#include "core/model/trace.h"

class QMenu;

class QSplitter;
class QTabWidget;

namespace gpuscope::ui {

class DetailsPanel;
class KernelTableView;
class NvtxProjectionView;
class SamplesPanel;
class StatsReportsView;
class TimelineView;
class TraceSession;

class AnalysisView : public QWidget {
  Q_OBJECT
 public:
  explicit AnalysisView(TraceSession* session, QWidget* parent = nullptr);

  TimelineView* timeline() const { return timeline_; }
  DetailsPanel* details() const { return details_; }
  QTabWidget* tables() const { return tables_; }
  KernelTableView* kernels() const { return kernels_; }
  SamplesPanel* samples() const { return samples_; }
  // The menu a right click on EVENT in the timeline opens: Zoom to, Filter to this name, Copy name, Show in table.
  std::unique_ptr<QMenu> eventMenu(EventRef event);
  // The menu a right click on the ruler's picked range opens: Zoom to range (nsys's "filter and zoom in": the
  // tables already show the range) and Clear range.
  std::unique_ptr<QMenu> rangeMenu();

  // The bounds of the details pane's width. It is one width, selection or none, so that the timeline does not
  // jump when the first event is picked.
  static constexpr int kLeastDetailsWidth = 300;
  static constexpr int kMostDetailsWidth = 480;

 protected:
  void resizeEvent(QResizeEvent* event) override;

 private:
  // The details pane's width in a view WIDTH pixels wide: the width the user dragged it to, else a share of WIDTH.
  int detailsWidthFor(int width) const;
  void placeDetails();

  TraceSession* session_;
  TimelineView* timeline_;
  QTabWidget* tables_;
  KernelTableView* kernels_;
  NvtxProjectionView* nvtx_;
  StatsReportsView* stats_;
  SamplesPanel* samples_;
  DetailsPanel* details_;
  QSplitter* withDetails_ = nullptr;
  int chosenDetailsWidth_ = 0;  // the width the user dragged the pane to; 0: none yet
};

}  // namespace gpuscope::ui
