#pragma once
// SessionsWindow: File > Sessions…, the recording sessions of this user (`gpuscope launch --session`) in a
// table refreshed every second while the window is shown, with Start, Stop, Dump and Cancel for the session
// selected, the one sentence of the last reply, and the files the sessions write handed to the main window
// to open.
#include <QWidget>
#include <optional>

#include "collector/control/control_protocol.h"
#include "ui/sessions/session_actions.h"
#include "ui/sessions/written_file_log.h"

class QCheckBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableView;

namespace gpuscope::ui {

class SessionCommandJob;
class SessionPoller;
class SessionTableModel;

class SessionsWindow : public QWidget {
  Q_OBJECT
 public:
  explicit SessionsWindow(QWidget* parent = nullptr);
  ~SessionsWindow() override;

  SessionTableModel* model() const { return model_; }
  QTableView* table() const { return table_; }
  // The session selected in the table; null when none.
  const SessionSnapshot* selectedSession() const;
  // Selects the session named NAME; false when the table has no such row.
  bool selectSession(const QString& name);

 public slots:
  // Looks at the sessions now, without waiting for the next second.
  void refresh();

 signals:
  // A session wrote PATH (a Stop's or Dump's reply named it, or a recording ended by itself) while "Open
  // each file when it is written" was checked.
  void openFileRequested(const QString& path);
  // The table shows a new look at the sessions.
  void refreshed();
  // The reply to a Start, Stop, Cancel or Dump has been shown.
  void commandAnswered();

 protected:
  void showEvent(QShowEvent* event) override;
  void hideEvent(QHideEvent* event) override;

 private:
  QWidget* makeControls();
  void placeOverParent();
  void onPolled(const SessionsSnapshot& snapshot);
  void keepSelectionOn(const std::string& name);
  void onReplied(const QString& session, const control::Reply& reply);
  void send(control::Verb verb);
  void announce(const std::string& file);
  void updateButtons();
  void updateHint(const std::string& listingProblem);
  void showStatus(const QString& sentence, bool isError);

  SessionTableModel* model_;
  SessionPoller* poller_;
  SessionCommandJob* command_;
  WrittenFileLog writtenFiles_;
  std::optional<control::Verb> verbOnItsWay_;
  bool placed_ = false;               // placed over the main window when first shown
  bool offeredFirstSession_ = false;  // the first refresh with sessions selected one
  QTableView* table_ = nullptr;
  QLabel* hint_ = nullptr;
  QLineEdit* output_ = nullptr;
  QPushButton* start_ = nullptr;
  QPushButton* stop_ = nullptr;
  QPushButton* dump_ = nullptr;
  QPushButton* cancel_ = nullptr;
  QCheckBox* openWritten_ = nullptr;
  QLabel* status_ = nullptr;
};

}  // namespace gpuscope::ui
