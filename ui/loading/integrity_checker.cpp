#include "ui/loading/integrity_checker.h"

#include <QFile>

#include "core/open/open_trace.h"

namespace gpuscope::ui {

IntegrityChecker::IntegrityChecker(QObject* parent) : QObject(parent) {}

IntegrityChecker::~IntegrityChecker() { stop(); }

void IntegrityChecker::stop() {
  if (!thread_) return;
  cancel_->store(true);
  thread_->wait();
  delete thread_;
  thread_ = nullptr;
}

void IntegrityChecker::check(const QString& path) {
  stop();
  cancel_ = std::make_shared<std::atomic<bool>>(false);
  const quint64 generation = ++generation_;
  auto cancel = cancel_;
  std::string nativePath = QFile::encodeName(path).toStdString();
  thread_ = QThread::create([this, cancel, nativePath, path, generation] {
    QString problem = QString::fromStdString(traceIntegrityProblem(nativePath, cancel.get()));
    if (cancel->load()) return;
    // Back on the GUI thread: only the newest check reports, and its thread is then reaped.
    QMetaObject::invokeMethod(
        this,
        [this, path, problem, generation] {
          if (generation != generation_) return;
          stop();
          emit checked(path, problem);
        },
        Qt::QueuedConnection);
  });
  thread_->start(QThread::IdlePriority);  // SCHED_IDLE on Linux: it runs only where a core is free
}

}  // namespace gpuscope::ui
