// MainWindow's Analysis tab: the panel, the background analysis after each load, and the timeline's GPU
// shading from its result.
#include <QTabWidget>

#include "ui/analysis/analysis_panel.h"
#include "ui/analysis/analysis_shading.h"
#include "ui/analysis/background_analysis.h"
#include "ui/main_window/analysis_view.h"
#include "ui/main_window/main_window.h"
#include "ui/roofline/roofline_view.h"
#include "ui/timeline/timeline_canvas.h"
#include "ui/timeline/timeline_view.h"

namespace gpuscope::ui {

void MainWindow::setupAnalysis() {
  analysisPanel_ = new AnalysisPanel(session_, views_);
  views_->addTab(analysisPanel_, tr("Analysis"));
  analyzer_ = new BackgroundAnalysis(this);
  connect(analyzer_, &BackgroundAnalysis::finished, this,
          [this](const QString& path, std::shared_ptr<const AnalysisReport> report) {
            if (path != currentFile_) return;
            analysis_->timeline()->canvas()->setGpuShading(gpuShadingOf(*report));
            analysisPanel_->setReport(std::move(report));
            emit analysisFinished(path, false);
          });
  connect(analyzer_, &BackgroundAnalysis::failed, this, [this](const QString& path, const QString& message) {
    if (path != currentFile_) return;
    analysisPanel_->setStatus(tr("The analysis failed: %1").arg(message));
    emit analysisFinished(path, true);
  });
  connect(analysisPanel_, &AnalysisPanel::showTimelineRequested, this, [this] { views_->setCurrentWidget(analysis_); });
  connect(roofline_, &RooflineView::showTimelineRequested, this, [this] { views_->setCurrentWidget(analysis_); });
}

void MainWindow::analyzeCurrentTrace() {
  if (!currentFile_.isEmpty() && session_->hasTrace()) analyzer_->analyze(currentFile_);
}

}  // namespace gpuscope::ui
