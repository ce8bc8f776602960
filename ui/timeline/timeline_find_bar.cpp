#include "ui/timeline/timeline_find_bar.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QTimer>
#include <QToolButton>

#include "core/error.h"

namespace gpuscope::ui {

TimelineFindBar::TimelineFindBar(TraceSession* session, QWidget* parent) : QWidget(parent), session_(session) {
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(6, 3, 6, 3);
  layout->setSpacing(6);
  layout->addWidget(new QLabel(tr("Find:"), this));
  field_ = new QLineEdit(this);
  field_->setPlaceholderText(tr("event name, e.g. transpose or ^cudaMemcpy"));
  field_->setClearButtonEnabled(true);
  field_->setMinimumWidth(260);
  layout->addWidget(field_, 1);
  regex_ = new QCheckBox(tr("Regex"), this);
  caseSensitive_ = new QCheckBox(tr("Match case"), this);
  layout->addWidget(regex_);
  layout->addWidget(caseSensitive_);
  previous_ = new QToolButton(this);
  previous_->setArrowType(Qt::UpArrow);
  previous_->setToolTip(tr("Previous match (Shift+Enter)"));
  next_ = new QToolButton(this);
  next_->setArrowType(Qt::DownArrow);
  next_->setToolTip(tr("Next match (Enter)"));
  layout->addWidget(previous_);
  layout->addWidget(next_);
  status_ = new QLabel(this);
  status_->setMinimumWidth(140);
  layout->addWidget(status_);
  auto* close = new QToolButton(this);
  close->setText(QStringLiteral("\u2715"));
  close->setToolTip(tr("Close (Escape)"));
  close->setAutoRaise(true);
  layout->addWidget(close);

  debounce_ = new QTimer(this);
  debounce_->setSingleShot(true);
  debounce_->setInterval(150);
  connect(debounce_, &QTimer::timeout, this, &TimelineFindBar::searchNow);
  connect(field_, &QLineEdit::textChanged, this, &TimelineFindBar::scheduleSearch);
  connect(regex_, &QCheckBox::toggled, this, &TimelineFindBar::scheduleSearch);
  connect(caseSensitive_, &QCheckBox::toggled, this, &TimelineFindBar::scheduleSearch);
  field_->installEventFilter(this);
  connect(next_, &QToolButton::clicked, this, &TimelineFindBar::findNext);
  connect(previous_, &QToolButton::clicked, this, &TimelineFindBar::findPrevious);
  connect(close, &QToolButton::clicked, this, [this] {
    hide();
    emit closed();
  });
  connect(session_, &TraceSession::traceChanged, this, [this] {
    result_ = {};
    current_.reset();
    scheduleSearch();
  });
  showStatus();
}

void TimelineFindBar::open() {
  show();
  field_->setFocus(Qt::ShortcutFocusReason);
  field_->selectAll();
}

void TimelineFindBar::setPattern(const QString& pattern, bool regex) {
  regex_->setChecked(regex);
  field_->setText(pattern);
  searchNow();
}

void TimelineFindBar::scheduleSearch() {
  pending_ = true;
  debounce_->start();
}

void TimelineFindBar::searchNow() {
  debounce_->stop();
  pending_ = false;
  result_ = {};
  current_.reset();
  error_.clear();
  const Trace* trace = session_->trace().get();
  QString text = field_->text();
  if (trace && !text.isEmpty()) {
    try {
      NamePattern pattern(text.toStdString(), regex_->isChecked() ? FindMode::Regex : FindMode::Substring,
                          caseSensitive_->isChecked());
      result_ = findEvents(*trace, pattern);
    } catch (const TraceError& error) {
      error_ = tr("Not a valid regular expression");
    }
  }
  showStatus();
}

void TimelineFindBar::findNext() {
  if (pending_) searchNow();
  if (result_.empty()) return;
  const Trace* trace = session_->trace().get();
  std::optional<size_t> at;
  if (const auto& selected = session_->selection(); selected && trace) {
    if (auto index = result_.indexOf(*selected, trace->start(*selected))) at = result_.next(*index);
  }
  if (!at && current_) at = result_.next(*current_);
  if (!at) at = result_.firstAtOrAfter(session_->viewStart());
  if (at) activate(*at);
}

void TimelineFindBar::findPrevious() {
  if (pending_) searchNow();
  if (result_.empty()) return;
  const Trace* trace = session_->trace().get();
  std::optional<size_t> at;
  if (const auto& selected = session_->selection(); selected && trace) {
    if (auto index = result_.indexOf(*selected, trace->start(*selected))) at = result_.previous(*index);
  }
  if (!at && current_) at = result_.previous(*current_);
  if (!at) at = result_.lastAtOrBefore(session_->viewEnd());
  if (at) activate(*at);
}

void TimelineFindBar::activate(size_t index) {
  current_ = index;
  showStatus();
  emit matchActivated(result_[index]);
}

QString TimelineFindBar::statusText() const { return status_->text(); }

void TimelineFindBar::showStatus() {
  if (!error_.isEmpty()) {
    status_->setText(error_);
  } else if (field_->text().isEmpty()) {
    status_->setText(QString());
  } else if (result_.empty()) {
    status_->setText(tr("No matches"));
  } else if (current_) {
    status_->setText(tr("%1 of %2").arg(*current_ + 1).arg(result_.size()));
  } else {
    status_->setText(tr("%n match(es)", nullptr, static_cast<int>(result_.size())));
  }
  previous_->setEnabled(!result_.empty());
  next_->setEnabled(!result_.empty());
}

bool TimelineFindBar::eventFilter(QObject* watched, QEvent* event) {
  if (watched == field_ && event->type() == QEvent::KeyPress) {
    auto* key = static_cast<QKeyEvent*>(event);
    if (key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter) {
      if (key->modifiers() & Qt::ShiftModifier) {
        findPrevious();
      } else {
        findNext();
      }
      return true;
    }
    if (key->key() == Qt::Key_Escape) {
      hide();
      emit closed();
      return true;
    }
  }
  return QWidget::eventFilter(watched, event);
}

void TimelineFindBar::keyPressEvent(QKeyEvent* event) {
  if (event->key() == Qt::Key_Escape) {
    hide();
    emit closed();
    event->accept();
    return;
  }
  QWidget::keyPressEvent(event);
}

}  // namespace gpuscope::ui
