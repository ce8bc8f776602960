#include "ui/sessions/session_table_model.h"

#include <QColor>
#include <QFileInfo>
#include <algorithm>

#include "ui/text.h"

namespace gpuscope::ui {
namespace {

// Room for "closed the connection without answering"; a longer sentence from a session is cut at its end.
constexpr qsizetype kShortErrorLength = 40;

QString stateText(const control::SessionStatus& status) {
  const QString state = QString::fromUtf8(control::stateName(status.state));
  return status.flightRecorder ? QObject::tr("%1 (flight recorder)").arg(state) : state;
}

// Nothing is being kept by a session that was launched without a flight recorder: no count to show.
bool keepsEvents(const control::SessionStatus& status) {
  return status.flightRecorder || status.state != control::SessionState::Launched;
}

QString lastFileOf(const control::SessionStatus& status) {
  return status.files.empty() ? QString() : QString::fromStdString(status.files.back());
}

QString statusCell(const control::SessionStatus& status, int column) {
  switch (static_cast<SessionTableModel::Column>(column)) {
    case SessionTableModel::Name:
      return QString::fromStdString(status.name);
    case SessionTableModel::Program:
      return QString::fromStdString(status.program);
    case SessionTableModel::Pid:
      return QString::number(status.pid);
    case SessionTableModel::State:
      return stateText(status);
    case SessionTableModel::Recording:
      return status.state == control::SessionState::Recording ? roundedDurationText(status.recordingSeconds * 1e9)
                                                              : QString();
    case SessionTableModel::Events:
      return keepsEvents(status) ? countText(status.events) : QString();
    case SessionTableModel::LastFile:
      return QFileInfo(lastFileOf(status)).fileName();
    case SessionTableModel::ColumnCount:
      break;
  }
  return {};
}

QString displayText(const SessionSnapshot& session, int column) {
  if (column == SessionTableModel::Name) return QString::fromStdString(session.name);
  if (session.status) return statusCell(*session.status, column);
  return column == SessionTableModel::State ? shortErrorText(session.error, session.name) : QString();
}

QString toolTipText(const SessionSnapshot& session, int column) {
  if (!session.status) return column == SessionTableModel::State ? QString::fromStdString(session.error) : QString();
  if (column == SessionTableModel::Program) return QString::fromStdString(session.status->program);
  if (column == SessionTableModel::LastFile) return lastFileOf(*session.status);
  return {};
}

bool isNumberColumn(int column) {
  return column == SessionTableModel::Pid || column == SessionTableModel::Recording ||
         column == SessionTableModel::Events;
}

}  // namespace

QString shortErrorText(const std::string& error, const std::string& session) {
  std::string gist = error;
  while (!gist.empty() && (gist.back() == '.' || gist.back() == ' ')) gist.pop_back();
  // "cannot reach session x: Connection refused": the cause comes last.
  if (const size_t colon = gist.rfind(": "); colon != std::string::npos) gist = gist.substr(colon + 2);
  // "session x is not running", "session x did not answer within 2 s": what follows the name.
  for (const std::string& prefix : {"session " + session + " is ", "session " + session + " "}) {
    if (gist.starts_with(prefix) && gist.size() > prefix.size()) {
      gist.erase(0, prefix.size());
      break;
    }
  }
  const QString text = QString::fromStdString(gist);
  return text.size() <= kShortErrorLength ? text : text.left(kShortErrorLength - 1).trimmed() + QChar(0x2026);
}

SessionTableModel::SessionTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void SessionTableModel::update(std::vector<SessionSnapshot> sessions) {
  // Both lists are sorted by name: one merge, removing, inserting and changing rows as it goes.
  size_t row = 0;
  for (auto& session : sessions) {
    while (row < rows_.size() && rows_[row].name < session.name) removeRowAt(row);
    if (row < rows_.size() && rows_[row].name == session.name)
      replaceRowAt(row, std::move(session));
    else
      insertRowAt(row, std::move(session));
    ++row;
  }
  while (row < rows_.size()) removeRowAt(row);
}

void SessionTableModel::removeRowAt(size_t row) {
  beginRemoveRows({}, static_cast<int>(row), static_cast<int>(row));
  rows_.erase(rows_.begin() + static_cast<std::ptrdiff_t>(row));
  endRemoveRows();
}

void SessionTableModel::insertRowAt(size_t row, SessionSnapshot session) {
  beginInsertRows({}, static_cast<int>(row), static_cast<int>(row));
  rows_.insert(rows_.begin() + static_cast<std::ptrdiff_t>(row), std::move(session));
  endInsertRows();
}

void SessionTableModel::replaceRowAt(size_t row, SessionSnapshot session) {
  rows_[row] = std::move(session);
  const int at = static_cast<int>(row);
  emit dataChanged(index(at, 0), index(at, ColumnCount - 1));
}

const SessionSnapshot* SessionTableModel::session(int row) const {
  if (row < 0 || row >= rowCount()) return nullptr;
  return &rows_[static_cast<size_t>(row)];
}

int SessionTableModel::rowOf(const std::string& name) const {
  const auto found =
      std::find_if(rows_.begin(), rows_.end(), [&name](const SessionSnapshot& row) { return row.name == name; });
  return found == rows_.end() ? -1 : static_cast<int>(found - rows_.begin());
}

int SessionTableModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int SessionTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant SessionTableModel::data(const QModelIndex& index, int role) const {
  const SessionSnapshot* row = index.isValid() ? session(index.row()) : nullptr;
  if (!row) return {};
  switch (role) {
    case Qt::DisplayRole:
      return displayText(*row, index.column());
    case Qt::ToolTipRole: {
      const QString tip = toolTipText(*row, index.column());
      return tip.isEmpty() ? QVariant() : QVariant(tip);
    }
    case Qt::TextAlignmentRole:
      return isNumberColumn(index.column()) ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
    case Qt::ForegroundRole:
      return !row->status && index.column() == State ? QVariant(QColor(Qt::red).darker(130)) : QVariant();
    default:
      return {};
  }
}

QVariant SessionTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (static_cast<Column>(section)) {
    case Name:
      return tr("Name");
    case Program:
      return tr("Program");
    case Pid:
      return tr("PID");
    case State:
      return tr("State");
    case Recording:
      return tr("Recording");
    case Events:
      return tr("Events");
    case LastFile:
      return tr("Last file");
    case ColumnCount:
      break;
  }
  return {};
}

}  // namespace gpuscope::ui
