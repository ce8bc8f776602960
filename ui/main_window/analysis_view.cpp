#include "ui/main_window/analysis_view.h"

#include <QHBoxLayout>
#include <QSplitter>
#include <QTabWidget>

#include "ui/details/details_panel.h"
#include "ui/tables/kernel_table_view.h"
#include "ui/tables/nvtx_projection_view.h"
#include "ui/tables/stats_reports_view.h"
#include "ui/timeline/timeline_view.h"

namespace gpuscope::ui {

AnalysisView::AnalysisView(TraceSession* session, QWidget* parent)
    : QWidget(parent),
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
}

}  // namespace gpuscope::ui
