#include "ui/tables/fill_column.h"

#include <QEvent>
#include <QHeaderView>
#include <QScopedValueRollback>
#include <QTableView>
#include <algorithm>

namespace gpuscope::ui {

FillColumn::FillColumn(QTableView* view, int column) : QObject(view), view_(view), column_(column) {
  QHeaderView* header = view_->horizontalHeader();
  header->setStretchLastSection(false);
  view_->viewport()->installEventFilter(this);
  connect(header, &QHeaderView::sectionResized, this, [this](int logical) {
    if (logical != column_) fit();
  });
  connect(header, &QHeaderView::sectionCountChanged, this, &FillColumn::fit);
}

void FillColumn::setColumn(int column) {
  column_ = column;
  fit();
}

void FillColumn::fit() {
  QHeaderView* header = view_->horizontalHeader();
  if (fitting_ || column_ < 0 || column_ >= header->count() || header->isSectionHidden(column_)) return;
  QScopedValueRollback guard(fitting_, true);
  header->setSectionResizeMode(column_, QHeaderView::Interactive);
  int others = 0;
  for (int logical = 0; logical < header->count(); ++logical)
    if (logical != column_ && !header->isSectionHidden(logical)) others += header->sectionSize(logical);
  const int title = header->sectionSizeHint(column_);
  header->resizeSection(column_, std::max(title, view_->viewport()->width() - others));
}

bool FillColumn::eventFilter(QObject* watched, QEvent* event) {
  if (watched == view_->viewport() && event->type() == QEvent::Resize) fit();
  return QObject::eventFilter(watched, event);
}

}  // namespace gpuscope::ui
