#pragma once
// AnalysisView: the main working view: the timeline, the tables beneath it and the details beside it.
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
  // The menu a right click on EVENT in the timeline opens: Zoom to, Filter to this name, Copy name, Show in table.
  std::unique_ptr<QMenu> eventMenu(EventRef event);
  // The menu a right click on the ruler's picked range opens: Zoom to range (nsys's "filter and zoom in": the
  // tables already show the range) and Clear range.
  std::unique_ptr<QMenu> rangeMenu();

 private:
  TraceSession* session_;
  TimelineView* timeline_;
  QTabWidget* tables_;
  KernelTableView* kernels_;
  NvtxProjectionView* nvtx_;
  StatsReportsView* stats_;
  DetailsPanel* details_;
};

}  // namespace gpuscope::ui
