#pragma once
// SessionTableModel: the Sessions window's table, one row per session of this user, refreshed in place so
// that the selection and the scroll position survive each refresh.
#include <QAbstractTableModel>
#include <string>
#include <vector>

#include "ui/sessions/session_poll.h"

namespace gpuscope::ui {

class SessionTableModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Column { Name, Program, Pid, State, Recording, Events, LastFile, ColumnCount };

  explicit SessionTableModel(QObject* parent = nullptr);

  // Takes SESSIONS (sorted by name) as the rows: a session still listed keeps its row and has it changed,
  // one gone has its row removed, a new one is inserted in name order.
  void update(std::vector<SessionSnapshot> sessions);
  // The session of ROW; null outside the rows.
  const SessionSnapshot* session(int row) const;
  // The row of the session named NAME; -1 when none.
  int rowOf(const std::string& name) const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 private:
  void removeRowAt(size_t row);
  void insertRowAt(size_t row, SessionSnapshot session);
  void replaceRowAt(size_t row, SessionSnapshot session);

  std::vector<SessionSnapshot> rows_;
};

// What the State cell says of SESSION when it gave no status: ERROR (one sentence) cut to its gist, a few
// words without the session's name, which the Name cell shows ("not running", "did not answer within 2 s",
// "Connection refused"). The whole sentence is the cell's tooltip.
QString shortErrorText(const std::string& error, const std::string& session);

}  // namespace gpuscope::ui
