#include "ui/main_window/analysis_view.h"

#include <QHBoxLayout>
#include <QMenu>
#include <QSplitter>
#include <QTabWidget>

#include "ui/details/details_panel.h"
#include "ui/session/trace_session.h"
#include "ui/tables/event_menu.h"
#include "ui/tables/kernel_table_view.h"
#include "ui/tables/nvtx_projection_view.h"
#include "ui/tables/stats_reports_view.h"
#include "ui/timeline/timeline_canvas.h"
#include "ui/timeline/timeline_view.h"

namespace gpuscope::ui {

AnalysisView::AnalysisView(TraceSession* session, QWidget* parent)
    : QWidget(parent),
      session_(session),
      timeline_(new TimelineView(session)),
      tables_(new QTabWidget),
      kernels_(new KernelTableView(session)),
      nvtx_(new NvtxProjectionView(session)),
      stats_(new StatsReportsView(session)),
      details_(new DetailsPanel(session)) {
  setObjectName(QStringLiteral("analysisView"));
  tables_->setObjectName(QStringLiteral("tables"));
  tables_->setDocumentMode(true);
  tables_->addTab(kernels_, tr("Kernels"));
  tables_->addTab(nvtx_, tr("NVTX GPU Projection"));
  tables_->addTab(stats_, tr("Stats Reports"));

  // Timeline above the tables; the details of the selection on the right, as in Nsight Systems.
  auto* timelineAndTables = new QSplitter(Qt::Vertical);
  timelineAndTables->addWidget(timeline_);
  timelineAndTables->addWidget(tables_);
  timelineAndTables->setStretchFactor(0, 3);
  timelineAndTables->setStretchFactor(1, 1);
  timelineAndTables->setSizes({700, 260});

  auto* withDetails = new QSplitter(Qt::Horizontal);
  withDetails->addWidget(timelineAndTables);
  withDetails->addWidget(details_);
  withDetails->setStretchFactor(0, 4);
  withDetails->setStretchFactor(1, 1);
  withDetails->setSizes({1100, 500});

  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(withDetails);

  connect(timeline_->canvas(), &TimelineCanvas::eventMenuRequested, this,
          [this](EventRef event, QPoint at) { eventMenu(event)->exec(at); });
  connect(timeline_->canvas(), &TimelineCanvas::rangeMenuRequested, this, [this](QPoint at) { rangeMenu()->exec(at); });
}

std::unique_ptr<QMenu> AnalysisView::rangeMenu() {
  auto menu = std::make_unique<QMenu>(this);
  QAction* zoom = menu->addAction(tr("Zoom to range"));
  zoom->setObjectName(QStringLiteral("zoomToRange"));
  connect(zoom, &QAction::triggered, this, [this] {
    if (session_->rangeStart() < session_->rangeEnd())
      session_->setViewRange(session_->rangeStart(), session_->rangeEnd());
  });
  QAction* clear = menu->addAction(tr("Clear range"));
  clear->setObjectName(QStringLiteral("clearRange"));
  connect(clear, &QAction::triggered, this, [this] { session_->setRange(0, 0); });
  return menu;
}

std::unique_ptr<QMenu> AnalysisView::eventMenu(EventRef event) {
  EventMenuTargets targets;
  targets.session = session_;
  targets.filterToName = [this](const QString& name) {
    tables_->setCurrentWidget(kernels_);
    kernels_->setFilter(name, false);
  };
  targets.showInTable = [this](EventRef kernel) {
    tables_->setCurrentWidget(kernels_);
    kernels_->revealKernel(kernel);
  };
  return createEventMenu(targets, event, this);
}

}  // namespace gpuscope::ui
