#include "ui/samples/flame_graph_view.h"

#include <QContextMenuEvent>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <functional>

#include "core/samples/frame_names.h"
#include "core/samples/function_shares.h"
#include "ui/text.h"

namespace gpuscope::ui {
namespace {

constexpr double kMinimumWidth = 0.5;  // narrower frames are not drawn (their parent's width shows them)

QString percentOf(int64_t part, int64_t whole) {
  return QString::number(whole == 0 ? 0.0 : 100.0 * static_cast<double>(part) / static_cast<double>(whole), 'f', 1) +
         QLatin1Char('%');
}

}  // namespace

FlameGraphView::FlameGraphView(QWidget* parent) : QWidget(parent) {
  setMouseTracking(true);
  setFocusPolicy(Qt::ClickFocus);
  setMinimumHeight(kRowHeight * 4);
}

void FlameGraphView::setSamples(std::shared_ptr<const CpuSamples> samples) {
  samples_ = std::move(samples);
  tree_ = samples_ ? callTree(*samples_, TreeDirection::TopDown) : CallTree{};
  focus_ = 0;
  selected_ = -1;
  layOut();
  fitHeight();
}

void FlameGraphView::setSelectedNode(int32_t node) {
  if (node < 0 || static_cast<size_t>(node) >= tree_.nodes.size()) node = -1;
  selected_ = node;
  // A frame the zoom hides (outside the focused frame's subtree): zoom out to its caller, or to it where its
  // caller leaves it too narrow to draw.
  if (node > 0 && nodeRect(node).isEmpty()) {
    focusOn(std::max(tree_.nodes[static_cast<size_t>(node)].parent, 0));
    if (nodeRect(node).isEmpty()) focusOn(node);
  }
  update();
}

QString FlameGraphView::functionOf(int32_t node) const {
  if (!samples_ || node <= 0 || static_cast<size_t>(node) >= tree_.nodes.size()) return {};
  return QString::fromStdString(functionLabel(samples_->name(tree_.nodes[static_cast<size_t>(node)].symbol)));
}

void FlameGraphView::focusOn(int32_t node) {
  if (node < 0 || static_cast<size_t>(node) >= tree_.nodes.size()) node = 0;
  focus_ = node;
  layOut();
  fitHeight();
}

void FlameGraphView::fitHeight() {
  // Tall enough for every row, so that a scroll area around it reaches the deepest frames.
  setMinimumHeight(kRowHeight * std::max(depth_ + 1, 4));
  updateGeometry();
  update();
}

QSize FlameGraphView::sizeHint() const { return {600, kRowHeight * std::max(depth_, 6)}; }

void FlameGraphView::ensureLayout() const {
  if (laidOutWidth_ != width()) layOut();
}

void FlameGraphView::layOut() const {
  laidOutWidth_ = width();
  placed_.clear();
  depth_ = 0;
  if (tree_.nodes.empty() || tree_.root().total == 0) return;
  // The focused frame's callers above it, each full width, then the focused frame and its callees.
  std::vector<int32_t> path;
  for (int32_t at = focus_; at >= 0; at = tree_.nodes[static_cast<size_t>(at)].parent) path.insert(path.begin(), at);
  auto width = static_cast<double>(this->width());
  for (size_t depth = 0; depth < path.size(); ++depth)
    placed_.push_back({path[depth], QRectF(0, static_cast<double>(depth) * kRowHeight, width, kRowHeight)});
  placeChildren(focus_, 0, width, static_cast<int>(path.size()));
  for (const Placed& p : placed_) depth_ = std::max(depth_, static_cast<int>(p.rect.bottom()) / kRowHeight);
}

void FlameGraphView::placeChildren(int32_t node, double x, double width, int depth) const {
  const CallTreeNode& parent = tree_.nodes[static_cast<size_t>(node)];
  if (parent.total == 0) return;
  double scale = width / static_cast<double>(parent.total);
  for (int32_t child : parent.children) {
    double childWidth = static_cast<double>(tree_.nodes[static_cast<size_t>(child)].total) * scale;
    if (childWidth >= kMinimumWidth) {
      placed_.push_back({child, QRectF(x, static_cast<double>(depth) * kRowHeight, childWidth, kRowHeight)});
      placeChildren(child, x, childWidth, depth + 1);
    }
    x += childWidth;
  }
}

int32_t FlameGraphView::nodeAt(QPointF position) const {
  ensureLayout();
  for (auto it = placed_.rbegin(); it != placed_.rend(); ++it)
    if (it->rect.contains(position)) return it->node;
  return -1;
}

QRectF FlameGraphView::nodeRect(int32_t node) const {
  ensureLayout();
  for (const Placed& p : placed_)
    if (p.node == node) return p.rect;
  return {};
}

QString FlameGraphView::toolTipFor(int32_t node) const {
  if (!samples_ || node < 0) return {};
  const CallTreeNode& n = tree_.nodes[static_cast<size_t>(node)];
  int64_t all = tree_.root().total;
  if (node == 0) return tr("All %1 samples of the scope").arg(countText(static_cast<uint64_t>(all)));
  return tr("%1\n%2\nTotal: %3 samples (%4)\nSelf: %5 samples (%6)")
      .arg(QString::fromStdString(frameLabel(samples_->name(n.symbol))),
           QString::fromStdString(std::string(samples_->name(n.module))), countText(static_cast<uint64_t>(n.total)),
           percentOf(n.total, all), countText(static_cast<uint64_t>(n.self)), percentOf(n.self, all));
}

QColor FlameGraphView::colorOf(int32_t node) const {
  if (node == 0) return QColor(0xb0, 0xb0, 0xb0);
  std::string_view name = samples_->name(tree_.nodes[static_cast<size_t>(node)].symbol);
  auto hash = static_cast<unsigned>(std::hash<std::string_view>{}(name));
  if (isPythonFrame(name)) return QColor::fromHsv(200 + static_cast<int>(hash % 30), 110, 235);      // Python: blue
  return QColor::fromHsv(static_cast<int>(hash % 50), 140 + static_cast<int>(hash / 50 % 60), 240);  // native: warm
}

void FlameGraphView::paintEvent(QPaintEvent*) {
  ensureLayout();
  QPainter painter(this);
  painter.fillRect(rect(), palette().base());
  if (placed_.empty()) {
    painter.setPen(palette().color(QPalette::PlaceholderText));
    painter.drawText(rect(), Qt::AlignCenter, tr("No CPU samples in this scope"));
    return;
  }
  const QFontMetrics metrics(font());
  for (const Placed& p : placed_) {
    QRectF box = p.rect.adjusted(0, 0, -0.5, -1);
    painter.fillRect(box, colorOf(p.node));
    if (box.width() < 24) continue;
    QString text =
        p.node == 0
            ? tr("all samples")
            : QString::fromStdString(frameLabel(samples_->name(tree_.nodes[static_cast<size_t>(p.node)].symbol)));
    painter.setPen(Qt::black);
    painter.drawText(box.adjusted(3, 0, -3, 0), Qt::AlignVCenter | Qt::AlignLeft,
                     metrics.elidedText(text, Qt::ElideRight, static_cast<int>(box.width()) - 6));
  }
  // The selected frame: outlined in the selection colour, over its neighbours.
  for (const Placed& p : placed_) {
    if (p.node != selected_ || selected_ <= 0) continue;
    painter.setPen(QPen(palette().color(QPalette::Highlight), 2));
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(p.rect.adjusted(1, 1, -1.5, -2));
  }
}

void FlameGraphView::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  layOut();
}

bool FlameGraphView::event(QEvent* event) {
  if (event->type() == QEvent::ToolTip) {
    auto* help = static_cast<QHelpEvent*>(event);
    QString text = toolTipFor(nodeAt(help->pos()));
    if (text.isEmpty()) {
      QToolTip::hideText();
    } else {
      QToolTip::showText(help->globalPos(), text, this);
    }
    return true;
  }
  return QWidget::event(event);
}

void FlameGraphView::mouseMoveEvent(QMouseEvent* event) {
  setCursor(nodeAt(event->position()) >= 0 ? Qt::PointingHandCursor : Qt::ArrowCursor);
  QWidget::mouseMoveEvent(event);
}

void FlameGraphView::mousePressEvent(QMouseEvent* event) {
  if (event->button() != Qt::LeftButton) return QWidget::mousePressEvent(event);
  int32_t node = nodeAt(event->position());
  if (node < 0) return;
  focusOn(node);
  selected_ = node > 0 ? node : -1;
  update();
  emit nodeClicked(node);
}

void FlameGraphView::contextMenuEvent(QContextMenuEvent* event) {
  int32_t node = nodeAt(event->pos());
  if (node > 0) emit contextMenuRequested(node, event->globalPos());
}

void FlameGraphView::keyPressEvent(QKeyEvent* event) {
  if (event->key() == Qt::Key_Escape) {
    focusOn(0);
    return;
  }
  QWidget::keyPressEvent(event);
}

}  // namespace gpuscope::ui
