#pragma once
// IntegrityChecker: SQLite's check of a whole trace file, run after the viewer has shown the trace.
//
// The viewer loads without the check (it reads the whole file: 1.4 s of one core for a 0.8 GB,
// 10M-event trace, as much as a third of the load's CPU) and runs it here once its panes are filled,
// on a thread of idle priority, so that it never delays the window and still reports damage within
// seconds. Only the newest check reports; a new check or the destructor cancels the one running.
#include <QObject>
#include <QString>
#include <QThread>
#include <atomic>
#include <memory>

namespace gpuscope::ui {

class IntegrityChecker : public QObject {
  Q_OBJECT
 public:
  explicit IntegrityChecker(QObject* parent = nullptr);
  ~IntegrityChecker() override;

  // Checks PATH in the background, cancelling the check in progress, if any.
  void check(const QString& path);
  // Cancels the check in progress, which then reports nothing: before the file is rewritten, whose writer
  // would otherwise read to the check as damage ("database is locked").
  void cancel() { stop(); }
  bool isChecking() const { return thread_ != nullptr; }

 signals:
  // PROBLEM: the one sentence naming the damage; empty when the file is sound.
  void checked(const QString& path, const QString& problem);

 private:
  void stop();

  QThread* thread_ = nullptr;
  std::shared_ptr<std::atomic<bool>> cancel_;
  quint64 generation_ = 0;
};

}  // namespace gpuscope::ui
