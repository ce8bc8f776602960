#pragma once
// WrappedTextDelegate: draws one column of a tree view wrapped to the column's width, at word boundaries where
// it can and anywhere where a word is longer than the column (a CUDA API or kernel name), so that a value is
// read whole instead of cut with an ellipsis; the row is as tall as its lines. QTreeView's own word wrap
// neither breaks long words nor sizes rows by the column's width.
#include <QStyledItemDelegate>

class QTreeView;

namespace gpuscope::ui {

class WrappedTextDelegate : public QStyledItemDelegate {
  Q_OBJECT
 public:
  // Wraps column COLUMN of VIEW (the other columns draw as usual); relayouts the rows when the column's width changes.
  WrappedTextDelegate(QTreeView* view, int column);

  void paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const override;
  QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override;

  // The height TEXT takes in FONT wrapped to WIDTH pixels, as this delegate wraps it.
  static int wrappedHeight(const QString& text, const QFont& font, int width);
  // The width the text of a cell of the wrapped column has (the column's width less the item's margins).
  int textWidth() const;

 private:
  // textWidth() less, in the tree's first column, the indentation in front of INDEX's text.
  int textWidthAt(const QModelIndex& index) const;

  QTreeView* view_;
  int column_;
  bool relayoutQueued_ = false;
};

}  // namespace gpuscope::ui
