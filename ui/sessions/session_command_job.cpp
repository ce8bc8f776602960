#include "ui/sessions/session_command_job.h"

#include <QtConcurrent/QtConcurrentRun>

#include "ui/sessions/session_poll.h"

namespace gpuscope::ui {

SessionCommandJob::SessionCommandJob(QObject* parent) : QObject(parent) {
  connect(&watcher_, &QFutureWatcher<control::Reply>::finished, this,
          [this] { emit replied(session_, watcher_.result()); });
}

SessionCommandJob::~SessionCommandJob() = default;

bool SessionCommandJob::send(const std::string& session, const std::string& socketPath,
                             const control::Request& request) {
  if (isRunning()) return false;
  session_ = QString::fromStdString(session);
  watcher_.setFuture(QtConcurrent::run([socketPath, request] { return askSession(socketPath, request); }));
  return true;
}

}  // namespace gpuscope::ui
