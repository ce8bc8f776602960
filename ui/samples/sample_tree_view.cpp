#include "ui/samples/sample_tree_view.h"

#include <QScrollBar>

namespace gpuscope::ui {

void SampleTreeView::scrollTo(const QModelIndex& index, ScrollHint hint) {
  const int across = horizontalScrollBar()->value();
  QTreeView::scrollTo(index, hint);
  horizontalScrollBar()->setValue(across);
}

}  // namespace gpuscope::ui
