#include "ui/details/wrapped_text_delegate.h"

#include <QApplication>
#include <QHeaderView>
#include <QPainter>
#include <QTextLayout>
#include <QTreeView>
#include <algorithm>
#include <cmath>

namespace gpuscope::ui {
namespace {

// Lays LAYOUT's text out in lines of WIDTH pixels; the height of those lines.
qreal layOut(QTextLayout& layout, qreal width) {
  QTextOption option;
  option.setWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
  layout.setTextOption(option);
  layout.beginLayout();
  qreal height = 0;
  for (QTextLine line = layout.createLine(); line.isValid(); line = layout.createLine()) {
    line.setLineWidth(width);
    line.setPosition(QPointF(0, height));
    height += line.height();
  }
  layout.endLayout();
  return height;
}

// The gap the style leaves on each side of an item's text.
int textMargin(const QWidget* widget) {
  const QStyle* style = widget ? widget->style() : QApplication::style();
  return style->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, widget) + 1;
}

}  // namespace

WrappedTextDelegate::WrappedTextDelegate(QTreeView* view, int column)
    : QStyledItemDelegate(view), view_(view), column_(column) {
  // Row heights are measured when the tree lays its rows out: a new width for the column needs a new layout,
  // after the resize that gave it (once, however many resizes came).
  connect(view->header(), &QHeaderView::sectionResized, this, [this](int section, int oldSize, int newSize) {
    if (section != column_ || oldSize == newSize || relayoutQueued_) return;
    relayoutQueued_ = true;
    QMetaObject::invokeMethod(
        this,
        [this] {
          relayoutQueued_ = false;
          view_->doItemsLayout();
        },
        Qt::QueuedConnection);
  });
}

int WrappedTextDelegate::wrappedHeight(const QString& text, const QFont& font, int width) {
  QTextLayout layout(text, font);
  return static_cast<int>(std::ceil(layOut(layout, width)));
}

int WrappedTextDelegate::textWidth() const { return view_->header()->sectionSize(column_) - 2 * textMargin(view_); }

int WrappedTextDelegate::textWidthAt(const QModelIndex& index) const {
  if (index.column() != 0) return textWidth();
  int depth = view_->rootIsDecorated() ? 1 : 0;
  for (QModelIndex parent = index.parent(); parent.isValid(); parent = parent.parent()) ++depth;
  return textWidth() - depth * view_->indentation();
}

QSize WrappedTextDelegate::sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const {
  QSize size = QStyledItemDelegate::sizeHint(option, index);
  const int width = textWidthAt(index);
  if (index.column() != column_ || width <= 0) return size;
  QStyleOptionViewItem item = option;
  initStyleOption(&item, index);
  // The style's own padding above and below one line, kept around the wrapped lines.
  const int padding = std::max(0, size.height() - QFontMetrics(item.font).height());
  size.setHeight(std::max(size.height(), wrappedHeight(item.text, item.font, width) + padding));
  return size;
}

void WrappedTextDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const {
  if (index.column() != column_) {
    QStyledItemDelegate::paint(painter, option, index);
    return;
  }
  QStyleOptionViewItem item = option;
  initStyleOption(&item, index);
  const QString text = item.text;
  item.text.clear();  // the style paints the background, the selection and the focus; the lines are ours
  const QWidget* widget = item.widget;
  const QStyle* style = widget ? widget->style() : QApplication::style();
  style->drawControl(QStyle::CE_ItemViewItem, &item, painter, widget);

  const int margin = textMargin(widget);
  const QRect box = item.rect.adjusted(margin, 0, -margin, 0);
  QTextLayout layout(text, item.font);
  const qreal height = layOut(layout, box.width());
  const QPalette::ColorGroup group = !(item.state & QStyle::State_Enabled) ? QPalette::Disabled
                                     : (item.state & QStyle::State_Active) ? QPalette::Normal
                                                                           : QPalette::Inactive;
  const bool selected = item.state & QStyle::State_Selected;
  painter->save();
  painter->setClipRect(item.rect);
  painter->setPen(item.palette.color(group, selected ? QPalette::HighlightedText : QPalette::Text));
  layout.draw(painter, QPointF(box.left(), box.top() + std::max(0.0, (box.height() - height) / 2)));
  painter->restore();
}

}  // namespace gpuscope::ui
