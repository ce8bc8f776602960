#include "ui/loading/background_trace_loader.h"

#include <QFile>
#include <QFileInfo>
#include <QMetaType>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>
#include <new>
#include <utility>

#include "core/error.h"
#include "core/metrics/gpu_metrics.h"
#include "core/metrics/memory_usage.h"
#include "core/open/open_trace.h"

namespace gpuscope::ui {

struct BackgroundTraceLoader::Job {
  quint64 generation = 0;
  QString path;
  std::string nativePath;
  std::atomic<bool> cancel{false};
  std::atomic<int> lastPermille{-1};
};

namespace {

// Messages reach a dialog and one line of stderr: keep them to one line.
QString oneLine(const QString& message) { return message.simplified(); }

}  // namespace

BackgroundTraceLoader::BackgroundTraceLoader(QObject* parent) : QObject(parent) {
  qRegisterMetaType<std::shared_ptr<const gpuscope::Trace>>();
  connect(this, &BackgroundTraceLoader::workerProgress, this, &BackgroundTraceLoader::onWorkerProgress,
          Qt::QueuedConnection);
  connect(this, &BackgroundTraceLoader::workerFinished, this, &BackgroundTraceLoader::onWorkerFinished,
          Qt::QueuedConnection);
}

BackgroundTraceLoader::~BackgroundTraceLoader() {
  if (currentJob_) currentJob_->cancel = true;
  waitForWorkers();
}

void BackgroundTraceLoader::waitForWorkers() {
  for (QFuture<void>& worker : workers_) worker.waitForFinished();
  workers_.clear();
}

void BackgroundTraceLoader::load(const QString& path) {
  if (currentJob_) currentJob_->cancel = true;  // superseded: its outcome will be dropped
  pruneFinishedWorkers();

  auto job = std::make_shared<Job>();
  job->generation = ++generation_;
  job->path = path;
  job->nativePath = QFile::encodeName(path).toStdString();
  currentJob_ = job;
  currentPath_ = path;
  loading_ = true;
  clock_.start();
  emit started(path);
  emit progressChanged(0.0);
  workers_.append(QtConcurrent::run([this, job, checkIntegrity = !integrityDeferred_] { run(job, checkIntegrity); }));
}

void BackgroundTraceLoader::cancel() {
  if (!currentJob_) return;
  currentJob_->cancel = true;
  currentJob_.reset();
  loading_ = false;
  QString path = std::exchange(currentPath_, QString());
  emit cancelled(path);
}

// Runs on a pool thread: touches only the job and posts signals.
void BackgroundTraceLoader::run(const std::shared_ptr<Job>& job, bool checkIntegrity) {
  std::shared_ptr<const Trace> trace;
  QString error;
  try {
    LoadOptions options;
    options.cancel = &job->cancel;
    options.checkIntegrity = checkIntegrity;
    options.progress = [this, job](double fraction) {
      const int permille = static_cast<int>(std::clamp(fraction, 0.0, 1.0) * 1000.0);
      int previous = job->lastPermille.load(std::memory_order_relaxed);
      while (permille > previous) {
        if (job->lastPermille.compare_exchange_weak(previous, permille, std::memory_order_relaxed)) {
          emit workerProgress(job->generation, permille, QPrivateSignal());
          return;
        }
      }
    };
    trace = openTrace(job->nativePath).load(options);
    // The timeline's first layout reads the GPU metrics and memory usage (Trace::memo): read here, on the worker,
    // the GUI thread finds them made instead of stalling on a file with millions of samples.
    if (trace && !job->cancel.load()) {
      gpuMetrics(*trace);
      memoryUsage(*trace);
    }
  } catch (const LoadCancelled&) {
    // Dropped below: a cancelled job posts neither a trace nor an error.
  } catch (const TraceError& e) {
    error = oneLine(QString::fromStdString(e.what()));
  } catch (const std::bad_alloc&) {
    error = tr("There is not enough memory to load %1.").arg(QFileInfo(job->path).fileName());
  } catch (const std::exception& e) {
    error =
        oneLine(tr("Could not load %1: %2.").arg(QFileInfo(job->path).fileName(), QString::fromStdString(e.what())));
  }
  // A superseded trace is freed here rather than on the GUI thread.
  if (job->cancel.load()) {
    trace.reset();
    error.clear();
  }
  emit workerFinished(job->generation, std::move(trace), error, QPrivateSignal());
}

void BackgroundTraceLoader::onWorkerProgress(quint64 generation, int permille) {
  if (!currentJob_ || currentJob_->generation != generation) return;
  emit progressChanged(permille / 1000.0);
}

void BackgroundTraceLoader::onWorkerFinished(quint64 generation, std::shared_ptr<const gpuscope::Trace> trace,
                                             const QString& error) {
  pruneFinishedWorkers();
  if (!currentJob_ || currentJob_->generation != generation) return;  // superseded or cancelled
  const bool wasCancelled = currentJob_->cancel.load();
  currentJob_.reset();
  loading_ = false;
  const QString path = std::exchange(currentPath_, QString());
  if (wasCancelled) {
    emit cancelled(path);
  } else if (trace) {
    emit progressChanged(1.0);
    emit loaded(path, std::move(trace), clock_.elapsed());
  } else {
    emit failed(path, error.isEmpty() ? tr("Could not load %1.").arg(QFileInfo(path).fileName()) : error);
  }
}

void BackgroundTraceLoader::pruneFinishedWorkers() {
  workers_.erase(
      std::remove_if(workers_.begin(), workers_.end(), [](const QFuture<void>& worker) { return worker.isFinished(); }),
      workers_.end());
}

}  // namespace gpuscope::ui
