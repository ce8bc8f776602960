#include "ui/sessions/sessions_window.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScreen>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>

#include "ui/sessions/session_command_job.h"
#include "ui/sessions/session_poller.h"
#include "ui/sessions/session_table_model.h"

namespace gpuscope::ui {
namespace {

QString onItsWayText(control::Verb verb, const QString& session) {
  switch (verb) {
    case control::Verb::Start:
      return QObject::tr("Starting a recording of %1…").arg(session);
    case control::Verb::Stop:
      return QObject::tr("Stopping the recording of %1…").arg(session);
    case control::Verb::Cancel:
      return QObject::tr("Cancelling the recording of %1…").arg(session);
    case control::Verb::Dump:
      return QObject::tr("Writing the flight recorder of %1…").arg(session);
    case control::Verb::Status:
      break;
  }
  return QObject::tr("Asking %1…").arg(session);
}

// Only a Stop or a Dump ends in a file.
bool writesFile(control::Verb verb) { return verb == control::Verb::Stop || verb == control::Verb::Dump; }

QPushButton* makeVerbButton(const QString& text, const QString& name, const QString& tip, QWidget* parent) {
  auto* button = new QPushButton(text, parent);
  button->setObjectName(name);
  button->setToolTip(tip);
  button->setEnabled(false);
  return button;
}

void setUpTable(QTableView* table) {
  table->setObjectName(QStringLiteral("sessionsTable"));
  table->setSelectionBehavior(QAbstractItemView::SelectRows);
  table->setSelectionMode(QAbstractItemView::SingleSelection);
  table->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table->setWordWrap(false);
  table->verticalHeader()->hide();
  QHeaderView* header = table->horizontalHeader();
  header->setSectionResizeMode(QHeaderView::ResizeToContents);
  // The command line takes what the other columns leave; its whole text is in the tooltip.
  header->setSectionResizeMode(SessionTableModel::Program, QHeaderView::Stretch);
  header->setHighlightSections(false);
}

}  // namespace

SessionsWindow::SessionsWindow(QWidget* parent)
    : QWidget(parent, Qt::Window),
      model_(new SessionTableModel(this)),
      poller_(new SessionPoller(this)),
      command_(new SessionCommandJob(this)) {
  setObjectName(QStringLiteral("sessionsWindow"));
  setWindowTitle(tr("Sessions"));
  table_ = new QTableView(this);
  table_->setModel(model_);
  setUpTable(table_);
  hint_ = new QLabel(this);
  hint_->setObjectName(QStringLiteral("sessionsHint"));
  hint_->setWordWrap(true);
  hint_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  status_ = new QLabel(this);
  status_->setObjectName(QStringLiteral("sessionStatusLine"));
  status_->setWordWrap(true);
  status_->setTextInteractionFlags(Qt::TextSelectableByMouse);

  auto* layout = new QVBoxLayout(this);
  layout->addWidget(table_, 1);
  layout->addWidget(hint_);
  layout->addWidget(makeControls());
  layout->addWidget(status_);
  resize(960, 360);

  connect(poller_, &SessionPoller::polled, this, &SessionsWindow::onPolled);
  connect(command_, &SessionCommandJob::replied, this, &SessionsWindow::onReplied);
  connect(table_->selectionModel(), &QItemSelectionModel::selectionChanged, this, &SessionsWindow::updateButtons);
  connect(model_, &QAbstractItemModel::dataChanged, this, &SessionsWindow::updateButtons);
  hint_->setText(tr("Looking for sessions…"));
}

SessionsWindow::~SessionsWindow() = default;

QWidget* SessionsWindow::makeControls() {
  auto* controls = new QWidget(this);
  auto* row = new QHBoxLayout(controls);
  row->setContentsMargins(0, 0, 0, 0);
  auto* outputLabel = new QLabel(tr("Start writes to:"), controls);
  output_ = new QLineEdit(controls);
  output_->setObjectName(QStringLiteral("sessionOutput"));
  output_->setPlaceholderText(tr("the session's own file name"));
  output_->setClearButtonEnabled(true);
  outputLabel->setBuddy(output_);
  start_ = makeVerbButton(tr("&Start"), QStringLiteral("startSession"),
                          tr("Start recording the selected session (to the file named on the left, if any)"), controls);
  stop_ = makeVerbButton(tr("S&top"), QStringLiteral("stopSession"), tr("Stop recording and write the trace file"),
                         controls);
  dump_ = makeVerbButton(tr("&Dump"), QStringLiteral("dumpSession"),
                         tr("Write the flight recorder's last seconds to a trace file"), controls);
  cancel_ = makeVerbButton(tr("&Cancel"), QStringLiteral("cancelSession"),
                           tr("Stop recording and drop what was recorded"), controls);
  openWritten_ = new QCheckBox(tr("&Open each file when it is written"), controls);
  openWritten_->setObjectName(QStringLiteral("openWrittenFiles"));
  openWritten_->setChecked(true);
  row->addWidget(outputLabel);
  row->addWidget(output_, 1);
  for (QPushButton* button : {start_, stop_, dump_, cancel_}) row->addWidget(button);
  row->addSpacing(12);
  row->addWidget(openWritten_);
  connect(start_, &QPushButton::clicked, this, [this] { send(control::Verb::Start); });
  connect(stop_, &QPushButton::clicked, this, [this] { send(control::Verb::Stop); });
  connect(dump_, &QPushButton::clicked, this, [this] { send(control::Verb::Dump); });
  connect(cancel_, &QPushButton::clicked, this, [this] { send(control::Verb::Cancel); });
  return controls;
}

const SessionSnapshot* SessionsWindow::selectedSession() const {
  const QModelIndexList rows = table_->selectionModel()->selectedRows();
  return rows.isEmpty() ? nullptr : model_->session(rows.front().row());
}

bool SessionsWindow::selectSession(const QString& name) {
  const int row = model_->rowOf(name.toStdString());
  if (row < 0) return false;
  table_->selectRow(row);
  return true;
}

void SessionsWindow::refresh() { poller_->restart(); }

void SessionsWindow::showEvent(QShowEvent* event) {
  QWidget::showEvent(event);
  if (!placed_) placeOverParent();
  poller_->start();
}

// A window of its own is placed by the window manager, often in a corner and partly off the screen; it opens
// over the main window instead, as a dialog would, and stays where the user moves it afterwards.
void SessionsWindow::placeOverParent() {
  placed_ = true;
  QWidget* parent = parentWidget();
  if (!parent) return;
  QRect frame = frameGeometry();
  frame.moveCenter(parent->frameGeometry().center());
  if (const QScreen* screen = parent->screen()) {
    const QRect available = screen->availableGeometry();
    frame.moveLeft(
        std::clamp(frame.left(), available.left(), std::max(available.left(), available.right() - frame.width())));
    frame.moveTop(
        std::clamp(frame.top(), available.top(), std::max(available.top(), available.bottom() - frame.height())));
  }
  move(frame.topLeft());
}

// Nobody looks: no socket traffic until the window is shown again.
void SessionsWindow::hideEvent(QHideEvent* event) {
  poller_->stop();
  QWidget::hideEvent(event);
}

void SessionsWindow::onPolled(const SessionsSnapshot& snapshot) {
  const SessionSnapshot* selected = selectedSession();
  const std::string selectedName = selected ? selected->name : std::string();
  model_->update(snapshot.sessions);
  keepSelectionOn(selectedName);
  // The buttons say at once what the first session allows; later refreshes never move the selection.
  if (!offeredFirstSession_ && model_->rowCount() > 0) {
    offeredFirstSession_ = true;
    if (!selected) table_->selectRow(0);
  }
  updateHint(snapshot.problem);
  for (const std::string& file : writtenFiles_.update(snapshot.sessions)) announce(file);
  updateButtons();
  emit refreshed();
}

// The view moves the selection of a removed row to its neighbour; a button must never act on a session the
// user did not pick, so a session that went away takes the selection with it.
void SessionsWindow::keepSelectionOn(const std::string& name) {
  if (name.empty()) return;
  const int row = model_->rowOf(name);
  if (row >= 0) {
    const SessionSnapshot* selected = selectedSession();
    if (!selected || selected->name != name) table_->selectRow(row);
    return;
  }
  table_->selectionModel()->clear();
}

void SessionsWindow::send(control::Verb verb) {
  const SessionSnapshot* session = selectedSession();
  if (!session || command_->isRunning() || !actionsFor(session->status).allows(verb)) return;
  control::Request request{verb, {}};
  if (verb == control::Verb::Start) request.output = output_->text().trimmed().toStdString();
  if (writesFile(verb)) writtenFiles_.asking(session->name);
  verbOnItsWay_ = verb;
  command_->send(session->name, session->socketPath, request);
  showStatus(onItsWayText(verb, QString::fromStdString(session->name)), false);
  updateButtons();
}

void SessionsWindow::onReplied(const QString& session, const control::Reply& reply) {
  const control::Verb verb = verbOnItsWay_.value_or(control::Verb::Status);
  verbOnItsWay_.reset();
  showStatus(QString::fromStdString(reply.ok ? reply.message : reply.error), !reply.ok);
  // The file named was for that recording: the next Start, of this session or another, must not overwrite it.
  if (verb == control::Verb::Start && reply.ok) output_->clear();
  if (writesFile(verb) && writtenFiles_.replied(session.toStdString(), reply.ok ? reply.file : std::string()))
    announce(reply.file);
  // A look taken before this reply is older than it: show the session as the reply left it.
  poller_->restart();
  updateButtons();
  emit commandAnswered();
}

void SessionsWindow::announce(const std::string& file) {
  if (openWritten_->isChecked()) emit openFileRequested(QString::fromStdString(file));
}

void SessionsWindow::updateButtons() {
  const SessionSnapshot* session = selectedSession();
  // One request at a time: nothing is offered while one is on its way.
  const SessionActions actions = session && !command_->isRunning() ? actionsFor(session->status) : SessionActions{};
  start_->setEnabled(actions.start);
  stop_->setEnabled(actions.stop);
  dump_->setEnabled(actions.dump);
  cancel_->setEnabled(actions.cancel);
}

void SessionsWindow::updateHint(const std::string& listingProblem) {
  if (!listingProblem.empty()) {
    hint_->setText(QString::fromStdString(listingProblem));
  } else if (model_->rowCount() == 0) {
    hint_->setText(tr("No sessions are running. Start one with gpuscope launch --session NAME -- COMMAND."));
  } else {
    hint_->clear();
  }
  hint_->setVisible(!hint_->text().isEmpty());
}

void SessionsWindow::showStatus(const QString& sentence, bool isError) {
  status_->setText(sentence);
  status_->setStyleSheet(isError ? QStringLiteral("color: #b00020;") : QString());
}

}  // namespace gpuscope::ui
