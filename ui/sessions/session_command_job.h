#pragma once
// SessionCommandJob: sends one Start, Stop, Cancel or Dump to a session on a pool thread (a stop can take as
// long as the session needs to write its file) and hands the reply to the GUI thread once.
#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <string>

#include "collector/control/control_protocol.h"

namespace gpuscope::ui {

class SessionCommandJob : public QObject {
  Q_OBJECT
 public:
  explicit SessionCommandJob(QObject* parent = nullptr);
  // A request on its way keeps nothing of this object; its reply is dropped.
  ~SessionCommandJob() override;

  // Sends REQUEST to the session SESSION listening at SOCKET_PATH; false (nothing sent) while one is on its way.
  bool send(const std::string& session, const std::string& socketPath, const control::Request& request);
  bool isRunning() const { return watcher_.isRunning(); }

 signals:
  // The session's reply, or one that is not ok and says why the session could not be reached.
  void replied(const QString& session, const gpuscope::control::Reply& reply);

 private:
  QFutureWatcher<control::Reply> watcher_;
  QString session_;
};

}  // namespace gpuscope::ui
