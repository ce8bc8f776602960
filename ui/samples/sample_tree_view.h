#pragma once
// SampleTreeView: the CPU Samples tab's tree. Its counts come first and its function names after them, as wide
// as the longest; Qt's scrollTo, which a click or an arrow key calls, would scroll across to a name's left
// edge and take the counts off-screen. This view scrolls only up and down by itself: across is the user's
// scroll bar, or SamplesPanel's when it brings a deep row's name into view.
#include <QTreeView>

namespace gpuscope::ui {

class SampleTreeView : public QTreeView {
  Q_OBJECT
 public:
  using QTreeView::QTreeView;
  void scrollTo(const QModelIndex& index, ScrollHint hint = EnsureVisible) override;
};

}  // namespace gpuscope::ui
