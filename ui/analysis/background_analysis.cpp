#include "ui/analysis/background_analysis.h"

#include <QFile>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>
#include <exception>

#include "core/error.h"

namespace gpuscope::ui {

BackgroundAnalysis::BackgroundAnalysis(QObject* parent) : QObject(parent) {
  qRegisterMetaType<std::shared_ptr<const gpuscope::AnalysisReport>>();
  connect(this, &BackgroundAnalysis::workerFinished, this, &BackgroundAnalysis::onWorkerFinished, Qt::QueuedConnection);
}

BackgroundAnalysis::~BackgroundAnalysis() { waitForWorkers(); }

void BackgroundAnalysis::waitForWorkers() {
  for (QFuture<void>& worker : workers_) worker.waitForFinished();
  workers_.clear();
}

void BackgroundAnalysis::analyze(const QString& path) {
  quint64 generation = ++generation_;
  running_ = true;
  emit started(path);
  std::string nativePath = QFile::encodeName(path).toStdString();
  // Finished workers are dropped here so the list does not grow with every trace opened.
  workers_.erase(
      std::remove_if(workers_.begin(), workers_.end(), [](const QFuture<void>& f) { return f.isFinished(); }),
      workers_.end());
  workers_.append(QtConcurrent::run([this, generation, path, nativePath] {
    std::shared_ptr<const AnalysisReport> report;
    QString error;
    try {
      report = std::make_shared<const AnalysisReport>(analyzeTraceFile(nativePath));
    } catch (const std::exception& e) {
      error = QString::fromUtf8(e.what()).simplified();
    }
    emit workerFinished(generation, path, report, error, QPrivateSignal());
  }));
}

void BackgroundAnalysis::cancel() {
  ++generation_;
  running_ = false;
}

void BackgroundAnalysis::onWorkerFinished(quint64 generation, const QString& path,
                                          std::shared_ptr<const AnalysisReport> report, const QString& error) {
  if (generation != generation_) return;  // superseded or cancelled
  running_ = false;
  if (report) {
    emit finished(path, std::move(report));
  } else {
    emit failed(path, error);
  }
}

}  // namespace gpuscope::ui
