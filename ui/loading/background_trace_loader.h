#pragma once
// BackgroundTraceLoader: loads one trace at a time on a worker thread and hands it to the GUI thread.
#include <QElapsedTimer>
#include <QFuture>
#include <QList>
#include <QObject>
#include <QString>
#include <atomic>
#include <memory>

#include "core/model/trace.h"

namespace gpuscope::ui {

// Each load() starts a job with its own cancel flag and generation number. The worker owns nothing
// GUI; it posts its outcome back through queued signals, and the GUI thread drops any outcome whose
// generation is no longer current, so a superseded or cancelled load never reaches the window.
class BackgroundTraceLoader : public QObject {
  Q_OBJECT
 public:
  explicit BackgroundTraceLoader(QObject* parent = nullptr);
  // Cancels what is running and waits for the workers, which hold no pointer into the GUI.
  ~BackgroundTraceLoader() override;

  bool isLoading() const { return loading_; }
  // true: loads skip the file's integrity check, which the owner then runs itself (an IntegrityChecker)
  // and reports; false (the default): a damaged file fails the load.
  void setIntegrityCheckDeferred(bool deferred) { integrityDeferred_ = deferred; }
  // The file being loaded; empty when idle.
  const QString& currentPath() const { return currentPath_; }
  // Blocks until every worker, including superseded ones still unwinding, has returned.
  void waitForWorkers();

 public slots:
  // Starts loading PATH, superseding (and cancelling) any load in progress.
  void load(const QString& path);
  // Cancels the load in progress, if any; its result will be dropped.
  void cancel();

 signals:
  void started(const QString& path);
  // Fraction done in [0, 1], throttled to steps of 0.1%.
  void progressChanged(double fraction);
  void loaded(const QString& path, std::shared_ptr<const gpuscope::Trace> trace, qint64 elapsedMs);
  // MESSAGE is the one sentence the loader gave.
  void failed(const QString& path, const QString& message);
  void cancelled(const QString& path);

  // Posted by workers; connected queued to the handlers below.
  void workerProgress(quint64 generation, int permille, QPrivateSignal);
  void workerFinished(quint64 generation, std::shared_ptr<const gpuscope::Trace> trace, const QString& error,
                      QPrivateSignal);

 private:
  struct Job;
  void onWorkerProgress(quint64 generation, int permille);
  void onWorkerFinished(quint64 generation, std::shared_ptr<const gpuscope::Trace> trace, const QString& error);
  void run(const std::shared_ptr<Job>& job, bool checkIntegrity);
  void pruneFinishedWorkers();

  quint64 generation_ = 0;
  bool loading_ = false;
  bool integrityDeferred_ = false;
  QString currentPath_;
  std::shared_ptr<Job> currentJob_;
  QElapsedTimer clock_;
  QList<QFuture<void>> workers_;
};

}  // namespace gpuscope::ui
