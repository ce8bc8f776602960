#pragma once
// BackgroundAnalysis: runs analyzeTraceFile on a worker thread and hands the report to the GUI thread, as
// BackgroundTraceLoader does for loading: each analyze() supersedes the previous one, whose outcome is
// dropped by generation, and the worker touches nothing of the GUI.
#include <QFuture>
#include <QList>
#include <QObject>
#include <QString>
#include <memory>

#include "core/analysis/verdict/analysis_report.h"

namespace gpuscope::ui {

class BackgroundAnalysis : public QObject {
  Q_OBJECT
 public:
  explicit BackgroundAnalysis(QObject* parent = nullptr);
  ~BackgroundAnalysis() override;  // waits for the workers

  bool isRunning() const { return running_; }
  // Blocks until every worker has returned (tests, shutdown).
  void waitForWorkers();

 public slots:
  void analyze(const QString& path);
  // Drops the outcome of the analysis in progress.
  void cancel();

 signals:
  void started(const QString& path);
  void finished(const QString& path, std::shared_ptr<const gpuscope::AnalysisReport> report);
  void failed(const QString& path, const QString& message);

  void workerFinished(quint64 generation, const QString& path, std::shared_ptr<const gpuscope::AnalysisReport> report,
                      const QString& error, QPrivateSignal);

 private:
  void onWorkerFinished(quint64 generation, const QString& path, std::shared_ptr<const AnalysisReport> report,
                        const QString& error);

  quint64 generation_ = 0;
  bool running_ = false;
  QList<QFuture<void>> workers_;
};

}  // namespace gpuscope::ui
