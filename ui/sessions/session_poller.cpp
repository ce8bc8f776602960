#include "ui/sessions/session_poller.h"

#include <QtConcurrent/QtConcurrentRun>
#include <chrono>

namespace gpuscope::ui {
namespace {

constexpr int kPollIntervalMs = 1000;
// A session that takes longer to say its status is shown with that error, and the others are not held up
// for long.
constexpr std::chrono::milliseconds kStatusTimeout{2000};

}  // namespace

SessionPoller::SessionPoller(QObject* parent) : QObject(parent) {
  ticks_.setInterval(kPollIntervalMs);
  connect(&ticks_, &QTimer::timeout, this, &SessionPoller::pollUnlessBusy);
  connect(&watcher_, &QFutureWatcher<SessionsSnapshot>::finished, this, [this] {
    // Never wait here: a late signal of a poll left behind must not block on the next one's result.
    if (watcher_.future().isFinished()) emit polled(watcher_.result());
  });
}

SessionPoller::~SessionPoller() = default;

void SessionPoller::start() {
  ticks_.start();
  pollUnlessBusy();
}

void SessionPoller::stop() { ticks_.stop(); }

void SessionPoller::restart() { poll(); }

void SessionPoller::pollUnlessBusy() {
  if (!watcher_.isRunning()) poll();
}

// setFuture leaves the poll it followed: that one's result never comes to polled().
void SessionPoller::poll() {
  watcher_.setFuture(QtConcurrent::run([] { return pollSessions(kStatusTimeout); }));
}

}  // namespace gpuscope::ui
