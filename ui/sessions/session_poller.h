#pragma once
// SessionPoller: looks at every session of this user once a second while it runs, on a pool thread
// (pollSessions blocks on sockets), and hands each look to the GUI thread once.
#include <QFutureWatcher>
#include <QObject>
#include <QTimer>

#include "ui/sessions/session_poll.h"

namespace gpuscope::ui {

class SessionPoller : public QObject {
  Q_OBJECT
 public:
  explicit SessionPoller(QObject* parent = nullptr);
  // A poll still under way keeps nothing of this object; its result is dropped.
  ~SessionPoller() override;

  // Polls now and then every second until stop(). A tick that comes while a poll is under way is skipped:
  // a session slow to answer never piles polls up.
  void start();
  void stop();
  bool isPolling() const { return watcher_.isRunning(); }

 public slots:
  // Polls now, dropping the result of a poll under way: what it saw may be older than what the caller just
  // learnt (a reply).
  void restart();

 signals:
  void polled(const gpuscope::ui::SessionsSnapshot& snapshot);

 private:
  void pollUnlessBusy();
  void poll();

  QTimer ticks_;
  QFutureWatcher<SessionsSnapshot> watcher_;  // follows the newest poll only
};

}  // namespace gpuscope::ui
