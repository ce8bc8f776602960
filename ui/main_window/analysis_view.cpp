#include "ui/main_window/analysis_view.h"

#include <QHBoxLayout>
#include <QMenu>
#include <QSplitter>
#include <QTabWidget>
#include <algorithm>

#include "ui/details/details_panel.h"
#include "ui/samples/samples_panel.h"
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
      samples_(new SamplesPanel(session)),
      details_(new DetailsPanel(session)) {
  setObjectName(QStringLiteral("analysisView"));
  tables_->setObjectName(QStringLiteral("tables"));
  tables_->setDocumentMode(true);
  tables_->addTab(kernels_, tr("Kernels"));
  tables_->addTab(nvtx_, tr("NVTX GPU Projection"));
  tables_->addTab(stats_, tr("Stats Reports"));
  tables_->addTab(samples_, tr("CPU Samples"));

  // Timeline above the tables; the details of the selection on the right, as in Nsight Systems.
  auto* timelineAndTables = new QSplitter(Qt::Vertical);
  timelineAndTables->addWidget(timeline_);
  timelineAndTables->addWidget(tables_);
  timelineAndTables->setStretchFactor(0, 3);
  timelineAndTables->setStretchFactor(1, 1);
  timelineAndTables->setSizes({700, 260});

  // The details keep their width when the window resizes (placeDetails sets it); the timeline takes the rest.
  withDetails_ = new QSplitter(Qt::Horizontal);
  withDetails_->setObjectName(QStringLiteral("detailsSplitter"));
  withDetails_->addWidget(timelineAndTables);
  withDetails_->addWidget(details_);
  withDetails_->setStretchFactor(0, 1);
  withDetails_->setStretchFactor(1, 0);
  withDetails_->setCollapsible(0, false);
  withDetails_->setCollapsible(1, false);

  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(withDetails_);

  // A width the user drags the pane to is kept.
  connect(withDetails_, &QSplitter::splitterMoved, this, [this] { chosenDetailsWidth_ = details_->width(); });

  connect(timeline_->canvas(), &TimelineCanvas::eventMenuRequested, this,
          [this](EventRef event, QPoint at) { eventMenu(event)->exec(at); });
  connect(timeline_->canvas(), &TimelineCanvas::rangeMenuRequested, this, [this](QPoint at) { rangeMenu()->exec(at); });
}

int AnalysisView::detailsWidthFor(int width) const {
  if (chosenDetailsWidth_ > 0) return chosenDetailsWidth_;
  constexpr double kShare = 0.25;  // 320 px at 1280 wide; 480 at 1920 and wider
  return std::clamp(static_cast<int>(width * kShare), kLeastDetailsWidth, kMostDetailsWidth);
}

void AnalysisView::placeDetails() {
  // The splitter's own geometry is set before this view's resize event, its children's only after it.
  const int total = withDetails_->contentsRect().width() - withDetails_->handleWidth();
  if (total <= 0) return;
  const int details = std::min(detailsWidthFor(total), total / 2);
  withDetails_->setSizes({total - details, details});
}

void AnalysisView::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  placeDetails();
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
