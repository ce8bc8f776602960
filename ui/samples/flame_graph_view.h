#pragma once
// FlameGraphView: the samples' top-down call tree as a flame graph drawn downwards (an icicle: callers on top,
// each function as wide as its share of the samples). Hovering names a frame with its counts; a click selects
// a frame (outlined, and told by nodeClicked so that the call tree follows) and zooms into it, so that it
// fills the width; a click on a caller above it, or Escape, zooms back out. A right click asks for the
// frame's menu (contextMenuRequested).
#include <QRectF>
#include <QWidget>
#include <memory>
#include <vector>

#include "core/samples/call_tree.h"
#include "core/samples/cpu_samples.h"

namespace gpuscope::ui {

class FlameGraphView : public QWidget {
  Q_OBJECT
 public:
  static constexpr int kRowHeight = 18;

  explicit FlameGraphView(QWidget* parent = nullptr);

  void setSamples(std::shared_ptr<const CpuSamples> samples);
  const CallTree& tree() const { return tree_; }

  int32_t focusNode() const { return focus_; }
  void focusOn(int32_t node);
  // The frame under a widget position, -1 for none; its rectangle as last laid out.
  int32_t nodeAt(QPointF position) const;
  QRectF nodeRect(int32_t node) const;
  QString toolTipFor(int32_t node) const;
  // The label of NODE's function (functionLabel); empty for the root and for none.
  QString functionOf(int32_t node) const;

  // The selected frame (-1: none), outlined; selecting one that the zoom hides zooms out to show it.
  int32_t selectedNode() const { return selected_; }
  void setSelectedNode(int32_t node);

  QSize sizeHint() const override;

 signals:
  // The user clicked frame NODE (it is selected and zoomed into).
  void nodeClicked(int32_t node);
  void contextMenuRequested(int32_t node, QPoint globalPosition);

 protected:
  void paintEvent(QPaintEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void keyPressEvent(QKeyEvent* event) override;
  void contextMenuEvent(QContextMenuEvent* event) override;
  bool event(QEvent* event) override;

 private:
  struct Placed {
    int32_t node;
    QRectF rect;
  };
  // Lays the frames out again where the width changed since (a hidden widget gets no resize event).
  void ensureLayout() const;
  void fitHeight();
  void layOut() const;
  void placeChildren(int32_t node, double x, double width, int depth) const;
  QColor colorOf(int32_t node) const;

  std::shared_ptr<const CpuSamples> samples_;
  CallTree tree_;
  int32_t focus_ = 0;
  int32_t selected_ = -1;
  mutable std::vector<Placed> placed_;  // in drawing order, parents before children
  mutable int depth_ = 0;               // rows the layout used
  mutable int laidOutWidth_ = -1;
};

}  // namespace gpuscope::ui
