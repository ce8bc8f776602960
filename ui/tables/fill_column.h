#pragma once
// FillColumn: one column of a table takes the width the other columns leave, as QHeaderView::Stretch does, but
// never less than its title needs; below that the table scrolls sideways. A stretched column shrinks to a few
// pixels when the table narrows and cuts its title ("angled n" for "Demangled name" beside the details pane
// at 1280 px).
#include <QObject>

class QTableView;

namespace gpuscope::ui {

class FillColumn : public QObject {
  Q_OBJECT
 public:
  FillColumn(QTableView* view, int column);

  // The column that fills (a logical index); the others keep the widths they have.
  void setColumn(int column);
  int column() const { return column_; }
  // Sizes the column now: the viewport's width less the other shown columns, at least its title's width.
  void fit();

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  QTableView* view_;
  int column_;
  bool fitting_ = false;  // resizing the column emits sectionResized, which must not fit again
};

}  // namespace gpuscope::ui
