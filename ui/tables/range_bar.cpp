#include "ui/tables/range_bar.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPalette>
#include <QToolButton>
#include <utility>

#include "ui/session/trace_session.h"
#include "ui/text.h"

namespace gpuscope::ui {

RangeBar::RangeBar(TraceSession* session, QString what, QWidget* parent)
    : QWidget(parent), session_(session), what_(std::move(what)), text_(new QLabel(this)) {
  setObjectName(QStringLiteral("rangeBar"));
  setAutoFillBackground(true);
  QPalette colours = palette();
  colours.setColor(QPalette::Window, QColor(255, 236, 179));
  colours.setColor(QPalette::WindowText, QColor(60, 40, 0));
  setPalette(colours);
  auto* clear = new QToolButton(this);
  clear->setObjectName(QStringLiteral("clearRange"));
  clear->setText(tr("Clear range"));
  clear->setToolTip(tr("Show the whole trace again (Escape on the timeline does it too)"));
  connect(clear, &QToolButton::clicked, this, [this] { session_->setRange(0, 0); });
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(6, 2, 6, 2);
  layout->addWidget(text_, 1);
  layout->addWidget(clear);
  hide();
}

TimeInterval RangeBar::sessionRange() const {
  if (!session_->hasTrace()) return {};
  TimeInterval range{session_->rangeStart(), session_->rangeEnd()};
  if (range.start > range.end) std::swap(range.start, range.end);
  return range;
}

void RangeBar::update() {
  TimeInterval range = sessionRange();
  if (!range.empty()) {
    TimeNs origin = session_->timeOrigin();
    text_->setText(tr("Only %1 in %2 – %3 (%4), the range picked on the ruler")
                       .arg(what_, durationText(range.start - origin), durationText(range.end - origin),
                            durationText(range.end - range.start)));
  }
  setVisible(!range.empty());
}

QString RangeBar::text() const { return text_->text(); }

}  // namespace gpuscope::ui
