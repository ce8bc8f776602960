#include "ui/roofline/roofline_chart_view.h"

#include <QChart>
#include <QFontMetricsF>
#include <QGraphicsSimpleTextItem>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QLineF>
#include <QLogValueAxis>
#include <QMouseEvent>
#include <QRubberBand>
#include <QToolTip>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

#include "core/details/kernel_roofline.h"
#include "core/roofline/roofline_range.h"
#include "ui/text.h"

namespace gpuscope::ui {
namespace {

constexpr double kWheelStep = 1.25;    // range factor per wheel notch
constexpr double kMinimumSpan = 1.01;  // the narrowest zoom, as max / min
constexpr int kLabelGap = 6;           // pixels between a y label and the plot area

}  // namespace

namespace {

// The first and last exponent of BASE's powers in [MIN, MAX] (a tick on an edge counts, within rounding).
std::pair<double, double> tickExponents(double min, double max, double base) {
  double logBase = std::log(base);
  return {std::ceil(std::log(min) / logBase - 1e-9), std::floor(std::log(max) / logBase + 1e-9)};
}

}  // namespace

double logTickBase(double min, double max, int maxCount) {
  if (!(min > 0) || !(max > min) || !std::isfinite(max)) return 10;
  double span = max / min;
  double base = span >= 100 ? 10 : span >= 4 ? 2 : std::pow(span, 1.0 / 5);
  // Where the powers would crowd, every k-th: a base of base^k keeps the ticks on the same values.
  double thinned = base;
  for (int k = 2;; ++k) {
    auto [first, last] = tickExponents(min, max, thinned);
    if (!std::isfinite(thinned) || last - first + 1 <= std::max(maxCount, 1)) return thinned;
    thinned = std::pow(base, k);
  }
}

std::vector<double> logTicks(double min, double max, int maxCount) {
  std::vector<double> ticks;
  if (!(min > 0) || !(max > min) || !std::isfinite(max)) return ticks;
  double base = logTickBase(min, max, maxCount);
  auto [first, last] = tickExponents(min, max, base);
  for (double n = first; n <= last && ticks.size() < 64; ++n) ticks.push_back(std::pow(base, n));
  return ticks;
}

RooflineChartView::RooflineChartView(QChart* chart, QWidget* parent) : QChartView(chart, parent) {
  setRubberBand(QChartView::RectangleRubberBand);
  setFocusPolicy(Qt::StrongFocus);
  setRenderHint(QPainter::Antialiasing);
  setMouseTracking(true);  // hovers without a button pressed, for the points' tooltips
  viewport()->setMouseTracking(true);
  // QGraphicsView takes every drag for its scene, whose items take none: a trace or report dropped on the
  // chart is refused. Without it, the drag goes up to the window, which opens the file.
  setAcceptDrops(false);
  viewport()->setAcceptDrops(false);
  connect(chart, &QChart::plotAreaChanged, this, [this] { updateTicks(); });
}

void RooflineChartView::clearAxes() {
  // The axes stay (replacing them leaves the old ones' labels painted); they hide until installAxes.
  for (auto* axis : {static_cast<QAbstractAxis*>(xAxis_), static_cast<QAbstractAxis*>(yAxis_)})
    if (axis) axis->setVisible(false);
  home_ = {};
  updateTicks();
}

void RooflineChartView::installAxes(const QString& xTitle, const QString& yTitle, double xMin, double xMax, double yMin,
                                    double yMax) {
  if (!xAxis_) {
    xAxis_ = new QLogValueAxis();
    xAxis_->setLabelFormat(kIntensityLabelFormat);
    yAxis_ = new QLogValueAxis();
    // Qt's own y labels only hold the space, as wide whatever the range ("1e+03 GFLOP/s", so the plot area
    // does not move as one zooms); the drawn ones are engineering text.
    yAxis_->setLabelFormat("%.0e GFLOP/s");
    yAxis_->setLabelsBrush(Qt::transparent);
    chart()->addAxis(xAxis_, Qt::AlignBottom);
    chart()->addAxis(yAxis_, Qt::AlignLeft);
    // Whatever zooms (rubber band, wheel, keys, reset), the tick base follows the range and the labels the ticks.
    for (auto* axis : {xAxis_, yAxis_})
      connect(axis, &QLogValueAxis::rangeChanged, this, [this] {
        updateTicks();
        emit rangeChanged();
      });
  }
  xAxis_->setTitleText(xTitle);
  yAxis_->setTitleText(yTitle);
  xAxis_->setVisible(true);
  yAxis_->setVisible(true);
  for (auto* series : chart()->series()) {
    if (!series->attachedAxes().contains(xAxis_)) series->attachAxis(xAxis_);
    if (!series->attachedAxes().contains(yAxis_)) series->attachAxis(yAxis_);
  }
  LogRange x = clampLogRange(xMin, xMax);
  LogRange y = clampLogRange(yMin, yMax);
  home_ = QRectF(QPointF(x.min, y.min), QPointF(x.max, y.max));
  setRanges(x.min, x.max, y.min, y.max);
}

bool RooflineChartView::hasAxes() const { return xAxis_ && yAxis_ && xAxis_->isVisible(); }

QRectF RooflineChartView::visibleRange() const {
  if (!hasAxes()) return {};
  return QRectF(QPointF(xAxis_->min(), yAxis_->min()), QPointF(xAxis_->max(), yAxis_->max()));
}

bool RooflineChartView::isZoomed() const {
  if (!hasAxes()) return false;
  auto near = [](double a, double b) { return std::abs(a - b) <= 1e-9 * std::max(std::abs(a), std::abs(b)); };
  QRectF now = visibleRange();
  return !(near(now.left(), home_.left()) && near(now.right(), home_.right()) && near(now.top(), home_.top()) &&
           near(now.bottom(), home_.bottom()));
}

void RooflineChartView::setRanges(double xMin, double xMax, double yMin, double yMax) {
  if (!hasAxes()) return;
  // Whatever asks (a zoom far out, a range from odd data), the axes stay finite and a dozen decades at most.
  LogRange x = clampLogRange(xMin, xMax);
  LogRange y = clampLogRange(yMin, yMax);
  xAxis_->setRange(x.min, x.max);
  yAxis_->setRange(y.min, y.max);
  updateTicks();
}

void RooflineChartView::resetZoom() {
  if (hasAxes()) setRanges(home_.left(), home_.right(), home_.top(), home_.bottom());
}

QPointF RooflineChartView::chartPosition(QPointF value) const {
  if (!hasAxes()) return {};
  QRectF plot = chart()->plotArea();
  auto fraction = [](double v, double min, double max) {
    return (std::log(v) - std::log(min)) / (std::log(max) - std::log(min));
  };
  return {plot.left() + fraction(value.x(), xAxis_->min(), xAxis_->max()) * plot.width(),
          plot.bottom() - fraction(value.y(), yAxis_->min(), yAxis_->max()) * plot.height()};
}

QPointF RooflineChartView::viewportPosition(QPointF value) const {
  if (!hasAxes()) return {};
  return mapFromScene(chart()->mapToScene(chartPosition(value)));
}

QPointF RooflineChartView::valueAt(QPointF viewportPosition) const {
  if (!hasAxes()) return {};
  QRectF plot = chart()->plotArea();
  QPointF inChart = chart()->mapFromScene(mapToScene(viewportPosition.toPoint()));
  auto value = [](double fraction, double min, double max) {
    return std::exp(std::log(min) + fraction * (std::log(max) - std::log(min)));
  };
  return {value((inChart.x() - plot.left()) / plot.width(), xAxis_->min(), xAxis_->max()),
          value((plot.bottom() - inChart.y()) / plot.height(), yAxis_->min(), yAxis_->max())};
}

void RooflineChartView::zoomAround(QPointF viewportPosition, double factor) {
  if (!hasAxes() || !(factor > 0)) return;
  QPointF centre = valueAt(viewportPosition);
  auto scaled = [factor](double c, double min, double max) {
    double lc = std::log(c), lmin = std::log(min), lmax = std::log(max);
    double newMin = lc - (lc - lmin) * factor, newMax = lc + (lmax - lc) * factor;
    if (newMax - newMin < std::log(kMinimumSpan)) return std::pair(min, max);  // as far in as it goes
    return std::pair(std::exp(newMin), std::exp(newMax));
  };
  auto [xMin, xMax] = scaled(centre.x(), xAxis_->min(), xAxis_->max());
  auto [yMin, yMax] = scaled(centre.y(), yAxis_->min(), yAxis_->max());
  setRanges(xMin, xMax, yMin, yMax);
  // New tick labels can move the plot area a pixel or two: pan the value back under the cursor.
  for (int pass = 0; pass < 2; ++pass) {
    QPointF now = valueAt(viewportPosition);
    double dx = std::log(centre.x() / now.x()), dy = std::log(centre.y() / now.y());
    if (std::abs(dx) < 1e-9 && std::abs(dy) < 1e-9) break;
    setRanges(xAxis_->min() * std::exp(dx), xAxis_->max() * std::exp(dx), yAxis_->min() * std::exp(dy),
              yAxis_->max() * std::exp(dy));
  }
}

QStringList RooflineChartView::yTickLabels() const {
  QStringList labels;
  for (const auto* item : yLabels_)
    if (item->isVisible()) labels << item->text();
  return labels;
}

std::vector<double> RooflineChartView::yTickPositions() const {
  std::vector<double> positions;
  for (const auto* item : yLabels_)
    if (item->isVisible()) positions.push_back(mapFromScene(item->mapToScene(item->boundingRect().center())).y());
  return positions;
}

int RooflineChartView::xLabelRoom() const {
  QFontMetricsF metrics(xAxis_->labelsFont());
  double label =
      std::max(metrics.horizontalAdvance(QStringLiteral("0.0001")), metrics.horizontalAdvance(QStringLiteral("1e+04")));
  return std::max(2, static_cast<int>(chart()->plotArea().width() / (label + kLabelGap * 2)));
}

int RooflineChartView::yLabelRoom() const {
  // A label's height and a half between two labels' centres: never touching, whatever the range.
  QFontMetricsF metrics(yAxis_->labelsFont());
  return std::max(2, static_cast<int>(chart()->plotArea().height() / (metrics.height() * 1.6)));
}

void RooflineChartView::updateTicks() {
  std::vector<double> ticks;
  if (hasAxes()) {
    // Qt's ticks and grid (and the x labels) follow the base; the y labels are the same ticks.
    xAxis_->setBase(logTickBase(xAxis_->min(), xAxis_->max(), xLabelRoom()));
    yAxis_->setBase(logTickBase(yAxis_->min(), yAxis_->max(), yLabelRoom()));
    ticks = logTicks(yAxis_->min(), yAxis_->max(), yLabelRoom());
  }
  while (yLabels_.size() < ticks.size()) {
    auto* item = new QGraphicsSimpleTextItem(chart());
    item->setZValue(10);
    yLabels_.push_back(item);
  }
  QRectF plot = chart()->plotArea();
  for (size_t i = 0; i < yLabels_.size(); ++i) {
    auto* item = yLabels_[i];
    item->setVisible(i < ticks.size());
    if (i >= ticks.size()) continue;
    // Ticks are in GFLOP/s.
    item->setText(engineeringLabel(ticks[i] * 1e9, "FLOP/s"));
    item->setFont(yAxis_->labelsFont());
    item->setBrush(palette().color(QPalette::Text));
    double fraction =
        (std::log(ticks[i]) - std::log(yAxis_->min())) / (std::log(yAxis_->max()) - std::log(yAxis_->min()));
    QRectF box = item->boundingRect();
    item->setPos(plot.left() - kLabelGap - box.width(), plot.bottom() - fraction * plot.height() - box.height() / 2);
  }
}

void RooflineChartView::wheelEvent(QWheelEvent* event) {
  if (!hasAxes() || !chart()->plotArea().contains(chart()->mapFromScene(mapToScene(event->position().toPoint())))) {
    event->ignore();
    return;
  }
  double notches = event->angleDelta().y() / 120.0;
  if (notches == 0) return;
  zoomAround(event->position(), std::pow(kWheelStep, -notches));
  event->accept();
}

void RooflineChartView::keyPressEvent(QKeyEvent* event) {
  QPointF centre = mapFromScene(chart()->mapToScene(chart()->plotArea().center()));
  switch (event->key()) {
    case Qt::Key_R:
      resetZoom();
      break;
    case Qt::Key_Plus:
    case Qt::Key_Equal:
      zoomAround(centre, 1 / kWheelStep);
      break;
    case Qt::Key_Minus:
      zoomAround(centre, kWheelStep);
      break;
    default:
      QChartView::keyPressEvent(event);
      return;
  }
  event->accept();
}

void RooflineChartView::mousePressEvent(QMouseEvent* event) {
  // A press on a point selects it on release (pointClicked); elsewhere it starts the rubber band.
  pressOnPoint_ = event->button() == Qt::LeftButton && pointHit_ && pointHit_(event->position());
  if (pressOnPoint_) {
    pressPosition_ = event->position();
    event->accept();
    return;
  }
  QChartView::mousePressEvent(event);
}

void RooflineChartView::mouseMoveEvent(QMouseEvent* event) {
  if (event->buttons() == Qt::NoButton) emit hovered(event->position());
  if (pressOnPoint_) {
    event->accept();
    return;
  }
  QChartView::mouseMoveEvent(event);
}

void RooflineChartView::mouseReleaseEvent(QMouseEvent* event) {
  if (pressOnPoint_) {
    pressOnPoint_ = false;
    event->accept();
    if (QLineF(pressPosition_, event->position()).length() <= 4) emit pointClicked(pressPosition_);
    return;
  }
  // A click (or a drag of a few pixels) on the background is not a zoom.
  auto* band = findChild<QRubberBand*>();
  if (event->button() == Qt::LeftButton && band && band->isVisible() && (band->width() < 5 || band->height() < 5)) {
    band->hide();
    event->accept();
    return;
  }
  QChartView::mouseReleaseEvent(event);
}

void RooflineChartView::mouseDoubleClickEvent(QMouseEvent* event) {
  if (event->button() == Qt::LeftButton && pointHit_ && pointHit_(event->position())) {
    event->accept();
    emit pointDoubleClicked(event->position());
    return;
  }
  QChartView::mouseDoubleClickEvent(event);
}

bool RooflineChartView::viewportEvent(QEvent* event) {
  if (event->type() != QEvent::ToolTip || !pointTip_) return QChartView::viewportEvent(event);
  auto* help = static_cast<QHelpEvent*>(event);
  QString text = pointTip_(help->pos());
  if (text.isEmpty())
    QToolTip::hideText();
  else
    QToolTip::showText(help->globalPos(), text, viewport());
  return true;
}

void RooflineChartView::resizeEvent(QResizeEvent* event) {
  QChartView::resizeEvent(event);
  updateTicks();
}

}  // namespace gpuscope::ui
