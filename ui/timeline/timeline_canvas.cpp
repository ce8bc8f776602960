#include "ui/timeline/timeline_canvas.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPolygonF>
#include <QRegularExpression>
#include <QScrollBar>
#include <QToolTip>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

#include "core/model/trace_summary.h"
#include "ui/timeline/timeline_palette.h"
#include "ui/timeline/timeline_pixels.h"

namespace gpuscope::ui {
namespace {

namespace colors = timeline_colors;

constexpr double kWheelZoomPerNotch = 0.8;  // one wheel notch in shows 80% of the span
constexpr double kKeyZoom = 0.8;
constexpr double kKeyPanFraction = 0.15;
constexpr int kDragThreshold = 4;
constexpr int kMinTextWidth = 28;        // a bar narrower than this gets no name
constexpr double kMinRulerSpacing = 90;  // pixels between labelled ticks, at least
constexpr TimeNs kMinSpan = 10;
constexpr int kIndent = 14;

QString durationText(TimeNs ns) { return QString::fromStdString(formatDuration(ns)); }

// The pixel columns [left, right) of [x0, x1): at least one pixel wide.
std::pair<int, int> pixelSpan(double x0, double x1) {
  int left = static_cast<int>(std::floor(x0));
  int right = static_cast<int>(std::floor(x1));
  if (right <= left) right = left + 1;
  return {left, right};
}

void drawTriangle(QPainter& p, int x, int yMid, bool open, const QColor& color) {
  QPolygonF tri;
  if (open) {
    tri << QPointF(x, yMid - 2.5) << QPointF(x + 8, yMid - 2.5) << QPointF(x + 4, yMid + 2.5);
  } else {
    tri << QPointF(x + 1.5, yMid - 4) << QPointF(x + 6.5, yMid) << QPointF(x + 1.5, yMid + 4);
  }
  p.setPen(Qt::NoPen);
  p.setBrush(color);
  p.drawPolygon(tri);
  p.setBrush(Qt::NoBrush);
}

}  // namespace

TimelineCanvas::TimelineCanvas(TraceSession* session, QScrollBar* verticalBar, QWidget* parent)
    : QWidget(parent), session_(session), verticalBar_(verticalBar) {
  setFocusPolicy(Qt::StrongFocus);
  setMouseTracking(true);
  setAttribute(Qt::WA_OpaquePaintEvent);
  setMinimumSize(kLabelWidth + 120, kRulerHeight + 60);
  connect(session_, &TraceSession::traceChanged, this, &TimelineCanvas::onTraceChanged);
  connect(session_, &TraceSession::selectionChanged, this, &TimelineCanvas::onSelectionChanged);
  connect(session_, &TraceSession::viewRangeChanged, this, qOverload<>(&QWidget::update));
  connect(session_, &TraceSession::rangeChanged, this, qOverload<>(&QWidget::update));
  if (verticalBar_) connect(verticalBar_, &QScrollBar::valueChanged, this, qOverload<>(&QWidget::update));
  onTraceChanged();
}

// ---------------------------------------------------------------------------------------------
// State

void TimelineCanvas::onTraceChanged() {
  layout_.clear();
  utilization_.clear();
  names_.clear();
  namesFilled_.clear();
  nameTexts_.clear();
  flowArrows_.clear();
  if (const Trace* trace = session_->trace().get()) {
    layout_.build(*trace);
    utilization_.reserve(trace->devices().size());
    for (const DeviceInfo& device : trace->devices()) {
      utilization_.push_back(DeviceUtilization::forDevice(*trace, device.id));
    }
    names_.resize(trace->stringCount());
    nameTexts_.resize(trace->stringCount());
    namesFilled_.assign(trace->stringCount(), false);
  }
  updateScrollRange();
  setScrollY(0);
  update();
}

void TimelineCanvas::onSelectionChanged() {
  // A selection made elsewhere (a table, the details panel) brings its row into view; one made
  // here is already on screen.
  if (!selectingHere_) {
    if (const auto& selected = session_->selection(); selected && session_->hasTrace()) {
      int row = layout_.rowOfTrack(selected->track);
      if (row >= 0) {
        layout_.reveal(row);
        updateScrollRange();
        scrollRowIntoView(row);
        showLaunchingCallToo(*selected, row);
      }
    }
  }
  update();
}

void TimelineCanvas::selectEvent(std::optional<EventRef> event) {
  selectingHere_ = true;
  session_->select(event);
  selectingHere_ = false;
}

int TimelineCanvas::scrollY() const { return verticalBar_ ? verticalBar_->value() : 0; }

void TimelineCanvas::setScrollY(int y) {
  if (verticalBar_) verticalBar_->setValue(y);
  update();
}

void TimelineCanvas::updateScrollRange() {
  if (!verticalBar_) return;
  int visible = std::max(0, height() - kRulerHeight);
  verticalBar_->setRange(0, std::max(0, layout_.contentHeight() - visible));
  verticalBar_->setPageStep(std::max(1, visible));
  verticalBar_->setSingleStep(TimelineLayout::kLaneHeight);
}

void TimelineCanvas::scrollRowIntoView(int row) {
  TimelineLayout::Placement placed = layout_.placementOf(row);
  if (placed.row < 0) return;
  int visible = std::max(0, height() - kRulerHeight);
  int scroll = scrollY();
  if (placed.top < scroll || placed.bottom() > scroll + visible) {
    setScrollY(std::max(0, placed.top - visible / 3));
  }
}

void TimelineCanvas::toggleRow(int row) {
  layout_.toggle(row);
  updateScrollRange();
  update();
}

const QString& TimelineCanvas::displayName(StringId id) const {
  static const QString kNone;
  if (id >= names_.size()) return kNone;
  if (!namesFilled_[id]) {
    QString name = QString::fromStdString(session_->trace()->string(id));
    // CUDA entry points carry their version ("cudaMalloc_v3020"); show the name people call.
    static const QRegularExpression kVersionSuffix(QStringLiteral("^(cu\\w+?)_v\\d+$"));
    if (name.startsWith(QLatin1String("cu"))) {
      auto match = kVersionSuffix.match(name);
      if (match.hasMatch()) name = match.captured(1);
    }
    names_[id] = std::move(name);
    namesFilled_[id] = true;
  }
  return names_[id];
}

const TimelineCanvas::NameText& TimelineCanvas::nameText(StringId id, const QFontMetrics& fm) const {
  static const NameText kNone;
  if (id >= nameTexts_.size()) return kNone;
  NameText& entry = nameTexts_[id];
  if (entry.width < 0) {
    const QString& name = displayName(id);
    entry.width = fm.horizontalAdvance(name);
    entry.text.setText(name);
    entry.text.setTextFormat(Qt::PlainText);
    entry.text.setPerformanceHint(QStaticText::AggressiveCaching);
    entry.text.prepare(QTransform(), font());
  }
  return entry;
}

// ---------------------------------------------------------------------------------------------
// Geometry

QRect TimelineCanvas::eventArea() const {
  return QRect(kLabelWidth, kRulerHeight, std::max(1, width() - kLabelWidth), std::max(1, height() - kRulerHeight));
}

double TimelineCanvas::nsPerPixel() const {
  double span = static_cast<double>(session_->viewEnd() - session_->viewStart());
  return std::max(span, 1.0) / eventArea().width();
}

double TimelineCanvas::xForTime(TimeNs t) const {
  return kLabelWidth + static_cast<double>(t - session_->viewStart()) / nsPerPixel();
}

TimeNs TimelineCanvas::timeAtX(double x) const {
  return session_->viewStart() + static_cast<TimeNs>(std::llround((x - kLabelWidth) * nsPerPixel()));
}

QRect TimelineCanvas::laneRect(uint32_t track, uint32_t lane) const {
  int row = layout_.rowOfTrack(track);
  if (row < 0) return {};
  TimelineLayout::Placement placed = layout_.placementOf(row);
  if (placed.row != row) return {};
  int top = kRulerHeight + placed.top - scrollY() + TimelineLayout::kTrackPadding +
            static_cast<int>(lane) * TimelineLayout::kLaneHeight;
  QRect rect(kLabelWidth, top, eventArea().width(), TimelineLayout::kLaneHeight);
  return rect.intersects(eventArea()) ? rect : QRect();
}

RulerScale TimelineCanvas::rulerScale() const {
  double npp = nsPerPixel();
  RulerScale scale = chooseRulerScale(npp, kMinRulerSpacing);
  if (!session_->hasTrace()) return scale;
  // Long labels (deep into a long trace) need more room: widen the spacing to fit them.
  QFontMetrics fm(font());
  TimeNs farthest = session_->viewEnd() - session_->trace()->startTime();
  int needed = fm.horizontalAdvance(QString::fromStdString(formatRulerLabel(farthest, scale))) + 24;
  if (needed > kMinRulerSpacing) scale = chooseRulerScale(npp, needed);
  return scale;
}

double TimelineCanvas::eventEdgeY(EventRef event, bool bottom) const {
  int row = layout_.rowOfTrack(event.track);
  if (row < 0) return 0;
  TimelineLayout::Placement placed = layout_.placementOf(row);
  double top = kRulerHeight + placed.top - scrollY();
  if (placed.row != row) return bottom ? top + placed.height - 3 : top + 3;  // collapsed: its header
  double laneTop = top + TimelineLayout::kTrackPadding + event.lane * TimelineLayout::kLaneHeight;
  return bottom ? laneTop + TimelineLayout::kLaneHeight - 1 : laneTop;
}

// ---------------------------------------------------------------------------------------------
// Navigation

void TimelineCanvas::setView(double start, double span) {
  const Trace* trace = session_->trace().get();
  if (!trace) return;
  double traceStart = static_cast<double>(trace->startTime());
  double traceEnd = static_cast<double>(std::max(trace->endTime(), trace->startTime() + 1));
  double traceSpan = traceEnd - traceStart;
  span = std::clamp(span, static_cast<double>(kMinSpan), std::max(traceSpan * 1.5, static_cast<double>(kMinSpan)));
  double margin = span / 2;
  start = std::clamp(start, traceStart - margin, traceEnd + margin - span);
  auto s = static_cast<TimeNs>(std::llround(start));
  session_->setViewRange(s, s + static_cast<TimeNs>(std::llround(span)));
}

void TimelineCanvas::zoomAround(double x, double factor) {
  if (!session_->hasTrace()) return;
  double npp = nsPerPixel();
  double anchor = static_cast<double>(session_->viewStart()) + (x - kLabelWidth) * npp;
  double span = static_cast<double>(session_->viewEnd() - session_->viewStart()) * factor;
  double newNpp = span / eventArea().width();
  setView(anchor - (x - kLabelWidth) * newNpp, span);
}

void TimelineCanvas::panByPixels(double dx) {
  if (!session_->hasTrace()) return;
  double span = static_cast<double>(session_->viewEnd() - session_->viewStart());
  setView(static_cast<double>(session_->viewStart()) + dx * nsPerPixel(), span);
}

void TimelineCanvas::fitSelectionOrAll() {
  const Trace* trace = session_->trace().get();
  if (!trace) return;
  double start = 0;
  double end = 0;
  if (session_->rangeEnd() > session_->rangeStart()) {
    start = static_cast<double>(session_->rangeStart());
    end = static_cast<double>(session_->rangeEnd());
  } else if (const auto& selected = session_->selection()) {
    start = static_cast<double>(trace->start(*selected));
    end = static_cast<double>(trace->end(*selected));
    if (end - start < 100) {
      start -= 50;
      end += 50;
    }
  } else {
    session_->fitAll();
    return;
  }
  double margin = (end - start) * 0.05;
  setView(start - margin, end - start + 2 * margin);
}

void TimelineCanvas::clearSelectionAndRange() {
  session_->setRange(0, 0);
  selectEvent(std::nullopt);
}

void TimelineCanvas::jumpToCorrelated() {
  const Trace* trace = session_->trace().get();
  const auto& selected = session_->selection();
  if (!trace || !selected) return;
  std::optional<EventRef> target;
  if (trace->track(selected->track).isGpu()) {
    target = trace->launchingCall(*selected);
  } else {
    auto work = trace->launchedWork(*selected);
    if (!work.empty()) target = work.front();
  }
  if (!target) return;
  selectEvent(*target);
  revealEvent(*target, Reveal::KeepZoom);
}

void TimelineCanvas::revealEvent(EventRef event, Reveal how) {
  const Trace* trace = session_->trace().get();
  if (!trace) return;
  int row = layout_.rowOfTrack(event.track);
  if (row >= 0) {
    layout_.reveal(row);
    updateScrollRange();
    scrollRowIntoView(row);
  }
  double start = static_cast<double>(trace->start(event));
  double end = static_cast<double>(trace->end(event));
  double duration = end - start;
  double viewStart = static_cast<double>(session_->viewStart());
  double span = static_cast<double>(session_->viewEnd() - session_->viewStart());
  double widthPx = duration / nsPerPixel();
  if (how == Reveal::Focus && (widthPx < 40 || duration > span * 0.6)) {
    double newSpan = std::max(duration * 2.5, 1000.0);
    setView((start + end) / 2 - newSpan / 2, newSpan);
    return;
  }
  if (start >= viewStart && end <= viewStart + span) return;
  if (duration > span * 0.9) {
    double newSpan = duration / 0.8;
    setView((start + end) / 2 - newSpan / 2, newSpan);
  } else {
    setView((start + end) / 2 - span / 2, span);
  }
}

double TimelineCanvas::zoomAnchorX() const {
  QRect area = eventArea();
  if (area.contains(hoverPos_)) return hoverPos_.x();
  return area.left() + area.width() / 2.0;
}

void TimelineCanvas::zoomFromKeys(double factor) { zoomAround(zoomAnchorX(), factor); }

// ---------------------------------------------------------------------------------------------
// Input

TimelineCanvas::Hit TimelineCanvas::hitTest(QPoint pos) const {
  Hit hit;
  const Trace* trace = session_->trace().get();
  if (!trace || pos.y() < kRulerHeight) return hit;
  int contentY = pos.y() - kRulerHeight + scrollY();
  hit.row = layout_.rowAt(contentY);
  if (hit.row < 0 || pos.x() < kLabelWidth) return hit;
  const TimelineRow& row = layout_.row(hit.row);
  if (row.kind != RowKind::Track) return hit;
  const Track& track = trace->track(row.track);
  TimelineLayout::Placement placed = layout_.placementOf(hit.row);
  int inRow = contentY - placed.top - TimelineLayout::kTrackPadding;
  if (inRow < 0) return hit;
  auto lane = static_cast<uint32_t>(inRow / TimelineLayout::kLaneHeight);
  if (lane >= track.lanes.size()) return hit;
  hit.track = row.track;
  hit.lane = lane;
  std::vector<DrawItem> items;
  QRect area = eventArea();
  buildDrawList(track.lanes[lane], DrawView{session_->viewStart(), session_->viewEnd(), nsPerPixel(), kFoldPixels},
                items);
  // The item under the pointer, or failing that the nearest within two pixels.
  double best = 3.0;
  for (const DrawItem& item : items) {
    auto [left, right] = pixelSpan(clampToArea(xForTime(item.start), area), clampToArea(xForTime(item.end), area));
    double x = pos.x() + 0.5;
    double distance = x < left ? left - x : (x > right ? x - right : 0.0);
    if (distance < best) {
      best = distance;
      hit.item = item;
      if (distance == 0.0) break;
    }
  }
  return hit;
}

QString TimelineCanvas::tooltipAt(QPoint pos) const {
  const Trace* trace = session_->trace().get();
  if (!trace) return {};
  if (pos.y() < kRulerHeight && pos.x() >= kLabelWidth) {
    return QStringLiteral("%1 from the trace start").arg(durationText(timeAtX(pos.x()) - trace->startTime()));
  }
  Hit hit = hitTest(pos);
  if (hit.row < 0) return {};
  const TimelineRow& row = layout_.row(hit.row);
  if (row.kind == RowKind::Utilization && pos.x() >= kLabelWidth) {
    const DeviceUtilization& util = utilization_[row.deviceIndex];
    TimeNs t0 = timeAtX(pos.x());
    TimeNs t1 = std::max(timeAtX(pos.x() + 1), t0 + 1);
    double busy = static_cast<double>(util.busyTime(t0, t1)) / static_cast<double>(t1 - t0);
    return QStringLiteral("GPU busy %1% under the pointer").arg(busy * 100.0, 0, 'f', 0);
  }
  if (!hit.item) return {};
  const Track& track = trace->track(hit.track);
  const Lane& lane = track.lanes[hit.lane];
  if (hit.item->isFold()) {
    return QStringLiteral("<b>%1 events</b><br>%2 span, %3 from the trace start<br><i>click to zoom in</i>")
        .arg(hit.item->count)
        .arg(durationText(hit.item->end - hit.item->start), durationText(hit.item->start - trace->startTime()));
  }
  uint32_t index = hit.item->first;
  QString name = displayName(lane.name[index]).toHtmlEscaped();
  TimeNs duration = lane.end[index] - lane.start[index];
  QString text = QStringLiteral("<b>%1</b><br>%2").arg(name, durationText(duration));
  if (track.kind == TrackKind::GpuMemory && !lane.style.empty()) {
    text += QStringLiteral(" &middot; %1").arg(memoryKindName(lane.style[index]));
  }
  text += QStringLiteral("<br>at %1 from the trace start").arg(durationText(lane.start[index] - trace->startTime()));
  return text;
}

bool TimelineCanvas::event(QEvent* event) {
  if (event->type() == QEvent::ToolTip) {
    auto* help = static_cast<QHelpEvent*>(event);
    QString text = tooltipAt(help->pos());
    if (text.isEmpty()) {
      QToolTip::hideText();
      event->ignore();
    } else {
      QToolTip::showText(help->globalPos(), text, this);
    }
    return true;
  }
  return QWidget::event(event);
}

void TimelineCanvas::mousePressEvent(QMouseEvent* event) {
  setFocus(Qt::MouseFocusReason);
  QPoint pos = event->position().toPoint();
  pressPos_ = pos;
  pressViewStart_ = static_cast<double>(session_->viewStart());
  pressNsPerPixel_ = nsPerPixel();
  pressScroll_ = scrollY();
  if (!session_->hasTrace()) return;
  if (event->button() == Qt::MiddleButton) {
    drag_ = Drag::Pan;
  } else if (event->button() == Qt::LeftButton) {
    if (pos.y() < kRulerHeight && pos.x() >= kLabelWidth) {
      drag_ = Drag::RulerRange;
      rangeAnchor_ = timeAtX(pos.x());
      session_->setRange(rangeAnchor_, rangeAnchor_);
    } else if (pos.x() < kLabelWidth) {
      drag_ = Drag::Label;
    } else {
      drag_ = Drag::PendingClick;
    }
  }
}

void TimelineCanvas::mouseMoveEvent(QMouseEvent* event) {
  QPoint pos = event->position().toPoint();
  hoverPos_ = pos;
  switch (drag_) {
    case Drag::RulerRange: {
      QRect area = eventArea();
      int x = std::clamp(pos.x(), area.left(), area.right() + 1);
      session_->setRange(rangeAnchor_, timeAtX(x));
      break;
    }
    case Drag::PendingClick:
    case Drag::Label:
      if ((pos - pressPos_).manhattanLength() < kDragThreshold) break;
      drag_ = Drag::Pan;
      [[fallthrough]];
    case Drag::Pan: {
      double span = static_cast<double>(session_->viewEnd() - session_->viewStart());
      setView(pressViewStart_ - (pos.x() - pressPos_.x()) * pressNsPerPixel_, span);
      setScrollY(pressScroll_ - (pos.y() - pressPos_.y()));
      break;
    }
    case Drag::None:
      break;
  }
}

void TimelineCanvas::mouseReleaseEvent(QMouseEvent* event) {
  Drag drag = drag_;
  drag_ = Drag::None;
  if (event->button() != Qt::LeftButton || !session_->hasTrace()) return;
  QPoint pos = event->position().toPoint();
  if (drag == Drag::RulerRange) {
    if (session_->rangeStart() == session_->rangeEnd()) session_->setRange(0, 0);
    return;
  }
  if (drag == Drag::Label) {
    int row = layout_.rowAt(pos.y() - kRulerHeight + scrollY());
    if (row >= 0 && layout_.row(row).isHeader()) toggleRow(row);
    return;
  }
  if (drag != Drag::PendingClick) return;
  Hit hit = hitTest(pos);
  if (hit.row >= 0 && layout_.row(hit.row).isHeader() && layout_.row(hit.row).collapsed) {
    toggleRow(hit.row);
    return;
  }
  if (!hit.item) {
    selectEvent(std::nullopt);
    return;
  }
  if (hit.item->isFold()) {
    // A folded block opens up: zoom to what it holds.
    double span = static_cast<double>(hit.item->end - hit.item->start);
    double padded = std::max(span * 1.2, 100.0);
    setView(static_cast<double>(hit.item->start) + span / 2 - padded / 2, padded);
    return;
  }
  selectEvent(EventRef{hit.track, hit.lane, hit.item->first});
}

void TimelineCanvas::mouseDoubleClickEvent(QMouseEvent* event) {
  Hit hit = hitTest(event->position().toPoint());
  if (hit.item && !hit.item->isFold()) {
    EventRef ref{hit.track, hit.lane, hit.item->first};
    selectEvent(ref);
    revealEvent(ref, Reveal::Focus);
  }
}

void TimelineCanvas::wheelEvent(QWheelEvent* event) {
  QPoint pos = event->position().toPoint();
  QPoint delta = event->angleDelta();
  bool scrollRows = pos.x() < kLabelWidth || (event->modifiers() & Qt::ShiftModifier);
  if (scrollRows) {
    int dy = delta.y() != 0 ? delta.y() : delta.x();
    setScrollY(scrollY() - dy * TimelineLayout::kLaneHeight * 3 / 120);
  } else {
    if (delta.y() != 0) zoomAround(pos.x(), std::pow(kWheelZoomPerNotch, delta.y() / 120.0));
    if (delta.x() != 0) panByPixels(-delta.x() * eventArea().width() / 1200.0);
  }
  event->accept();
}

void TimelineCanvas::keyPressEvent(QKeyEvent* event) {
  double width = eventArea().width();
  switch (event->key()) {
    case Qt::Key_W:
      zoomFromKeys(kKeyZoom);
      break;
    case Qt::Key_S:
      zoomFromKeys(1.0 / kKeyZoom);
      break;
    case Qt::Key_A:
      panByPixels(-width * kKeyPanFraction);
      break;
    case Qt::Key_D:
      panByPixels(width * kKeyPanFraction);
      break;
    case Qt::Key_F:
      fitSelectionOrAll();
      break;
    case Qt::Key_Escape:
      clearSelectionAndRange();
      break;
    case Qt::Key_J:
    case Qt::Key_Space:
      jumpToCorrelated();
      break;
    case Qt::Key_Home:
      session_->fitAll();
      break;
    default:
      QWidget::keyPressEvent(event);
      return;
  }
  event->accept();
}

void TimelineCanvas::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  updateScrollRange();
}

// ---------------------------------------------------------------------------------------------
// Painting

void TimelineCanvas::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.fillRect(rect(), colors::kBackground);
  frame_ = {};
  flowArrows_.clear();
  const Trace* trace = session_->trace().get();
  if (!trace) {
    p.setPen(palette().color(QPalette::PlaceholderText));
    p.drawText(rect(), Qt::AlignCenter, tr("Open a trace to see its timeline."));
    return;
  }
  QRect area = eventArea();
  RulerScale scale = rulerScale();
  paintRowBackgrounds(p, area);
  p.save();
  p.setClipRect(area);
  paintGrid(p, area, scale);
  paintRows(p, area);
  paintRange(p, area);
  paintSelection(p, area);
  p.restore();
  paintLabels(p);
  paintRuler(p, scale);
}

void TimelineCanvas::paintRowBackgrounds(QPainter& p, const QRect& area) const {
  const auto& shown = layout_.shown();
  int scroll = scrollY();
  for (size_t k = layout_.firstShownBelow(scroll); k < shown.size(); ++k) {
    int top = kRulerHeight + shown[k].top - scroll;
    if (top >= area.bottom() + 1) break;
    const TimelineRow& row = layout_.row(shown[k].row);
    QRect band(area.left(), top, area.width(), shown[k].height);
    if (row.isHeader()) {
      p.fillRect(band, row.collapsed ? colors::kRowAlternate : colors::kHeaderRow);
    } else if (k % 2 == 1) {
      p.fillRect(band, colors::kRowAlternate);
    }
  }
}

void TimelineCanvas::paintGrid(QPainter& p, const QRect& area, const RulerScale& scale) const {
  const Trace* trace = session_->trace().get();
  TimeNs origin = trace->startTime();
  TimeNs first = session_->viewStart() - origin;
  TimeNs tick = (first >= 0 ? first / scale.step : (first - scale.step + 1) / scale.step) * scale.step;
  p.setPen(colors::kGrid);
  for (; origin + tick <= session_->viewEnd(); tick += scale.step) {
    double x = xForTime(origin + tick);
    if (x < area.left()) continue;
    p.drawLine(QLineF(x, area.top(), x, area.bottom() + 1));
  }
}

void TimelineCanvas::paintRows(QPainter& p, const QRect& area) {
  const Trace* trace = session_->trace().get();
  const auto& shown = layout_.shown();
  int scroll = scrollY();
  for (size_t k = layout_.firstShownBelow(scroll); k < shown.size(); ++k) {
    int top = kRulerHeight + shown[k].top - scroll;
    if (top >= area.bottom() + 1) break;
    const TimelineRow& row = layout_.row(shown[k].row);
    ++frame_.rows;
    switch (row.kind) {
      case RowKind::Track:
        paintTrackLanes(p, trace->track(row.track), top, area);
        break;
      case RowKind::Utilization:
        paintUtilization(p, row.deviceIndex, top, row.height, area);
        break;
      default:
        if (row.collapsed) paintCollapsedSummary(p, row, top, area);
        break;
    }
  }
}

void TimelineCanvas::paintTrackLanes(QPainter& p, const Track& track, int top, const QRect& area) {
  QFontMetrics fm(font());
  const int barHeight = TimelineLayout::kLaneHeight - 2;
  const int baseline = (barHeight + fm.ascent() - fm.descent()) / 2;
  const DrawView view{session_->viewStart(), session_->viewEnd(), nsPerPixel(), kFoldPixels};
  const QColor fold = foldColor(track.kind);
  const QColor foldText = textColorOn(fold);
  // Counts are digits, and digits share one advance: measure once, not per block.
  const int digitWidth = fm.horizontalAdvance(QLatin1Char('0'));
  const QString eventsSuffix = QStringLiteral(" events");
  const int suffixWidth = fm.horizontalAdvance(eventsSuffix);
  const int textTop = (barHeight - fm.height()) / 2;
  for (size_t laneIndex = 0; laneIndex < track.lanes.size(); ++laneIndex) {
    int y = top + TimelineLayout::kTrackPadding + static_cast<int>(laneIndex) * TimelineLayout::kLaneHeight + 1;
    if (y > area.bottom() || y + barHeight < area.top()) continue;
    const Lane& lane = track.lanes[laneIndex];
    buildDrawList(lane, view, items_);
    frame_.items += items_.size();
    for (const DrawItem& item : items_) {
      double x0 = clampToArea(xForTime(item.start), area);
      double x1 = clampToArea(xForTime(item.end), area);
      auto [left, right] = pixelSpan(x0, x1);
      QRect bar(left, y, right - left, barHeight);
      if (item.isFold()) {
        ++frame_.folds;
        p.fillRect(bar, fold);
        if (bar.width() >= 4) p.fillRect(QRect(left, y, 1, barHeight), fold.darker(140));
        int visibleWidth = std::min(right, area.right() + 1) - std::max(left, area.left());
        int digits = 1;
        for (uint32_t c = item.count; c >= 10; c /= 10) ++digits;
        int countWidth = digits * digitWidth;
        if (visibleWidth >= countWidth + 6) {
          bool spelled = visibleWidth >= countWidth + suffixWidth + 8;
          QString text = QString::number(item.count);
          if (spelled) text += eventsSuffix;
          int textWidth = countWidth + (spelled ? suffixWidth : 0);
          int textX = std::max(left, area.left()) + (visibleWidth - textWidth) / 2;
          p.setPen(foldText);
          p.drawText(QPoint(textX, y + baseline), text);
          ++frame_.labels;
        }
        continue;
      }
      uint32_t style = lane.style.empty() ? 0 : lane.style[item.first];
      QColor fill = eventColor(track.kind, lane.name[item.first], style);
      p.fillRect(bar, fill);
      // A darker leading edge keeps back-to-back bars of one colour apart.
      if (bar.width() >= 4) p.fillRect(QRect(left, y, 1, barHeight), fill.darker(135));
      int textLeft = std::max(left, area.left()) + 3;
      int textRight = std::min(right, area.right() + 1) - 3;
      if (textRight - textLeft >= kMinTextWidth - 6) {
        const NameText& name = nameText(lane.name[item.first], fm);
        p.setPen(textColorOn(fill));
        if (name.width <= textRight - textLeft) {
          p.drawStaticText(QPoint(textLeft, y + textTop), name.text);
          ++frame_.labels;
        } else {
          QString text = fm.elidedText(displayName(lane.name[item.first]), Qt::ElideRight, textRight - textLeft);
          if (text.size() > 1) {
            p.drawText(QPoint(textLeft, y + baseline), text);
            ++frame_.labels;
          }
        }
      }
    }
  }
}

void TimelineCanvas::paintCollapsedSummary(QPainter& p, const TimelineRow& row, int top, const QRect& area) {
  // Every track below the header, depth 0 only, squeezed into one strip.
  const Trace* trace = session_->trace().get();
  const DrawView view{session_->viewStart(), session_->viewEnd(), nsPerPixel(), kFoldPixels};
  QRect strip(area.left(), top + 5, area.width(), row.height - 10);
  for (uint32_t trackIndex : row.tracks) {
    const Track& track = trace->track(trackIndex);
    if (track.lanes.empty()) continue;
    const Lane& lane = track.lanes.front();
    buildDrawList(lane, view, items_);
    frame_.items += items_.size();
    QColor fold = foldColor(track.kind);
    for (const DrawItem& item : items_) {
      auto [left, right] = pixelSpan(clampToArea(xForTime(item.start), area), clampToArea(xForTime(item.end), area));
      QColor fill = item.isFold() ? fold
                                  : eventColor(track.kind, lane.name[item.first],
                                               lane.style.empty() ? 0 : lane.style[item.first]);
      frame_.folds += item.isFold() ? 1 : 0;
      p.fillRect(QRect(left, strip.top(), right - left, strip.height()), fill);
    }
  }
}

void TimelineCanvas::paintUtilization(QPainter& p, uint32_t deviceIndex, int top, int height, const QRect& area) {
  if (deviceIndex >= utilization_.size()) return;
  const int pixels = area.width();
  utilization_[deviceIndex].fractions(session_->viewStart(), nsPerPixel(), static_cast<size_t>(pixels), busy_);
  const double bottom = top + height - 2;
  const double full = height - 5;
  QPolygonF outline;
  outline.reserve(2 * pixels + 2);
  outline << QPointF(area.left(), bottom);
  for (int i = 0; i < pixels; ++i) {
    // Any work at all shows as at least a sliver, so short bursts stay visible zoomed out.
    double fraction = static_cast<double>(busy_[static_cast<size_t>(i)]);
    double y = fraction > 0 ? bottom - std::max(2.0, full * fraction) : bottom;
    outline << QPointF(area.left() + i, y) << QPointF(area.left() + i + 1, y);
  }
  outline << QPointF(area.left() + pixels, bottom);
  p.setPen(Qt::NoPen);
  p.setBrush(colors::kUtilization);
  p.drawPolygon(outline);
  p.setBrush(Qt::NoBrush);
  p.setPen(colors::kGrid);
  p.drawLine(QLineF(area.left(), bottom + 0.5, area.right() + 1, bottom + 0.5));
}

void TimelineCanvas::paintRange(QPainter& p, const QRect& area) const {
  if (session_->rangeEnd() <= session_->rangeStart()) return;
  double x0 = clampToArea(xForTime(session_->rangeStart()), area);
  double x1 = clampToArea(xForTime(session_->rangeEnd()), area);
  p.fillRect(QRectF(x0, area.top(), std::max(1.0, x1 - x0), area.height()), colors::kRangeFill);
  p.setPen(colors::kRangeEdge);
  p.drawLine(QLineF(x0, area.top(), x0, area.bottom() + 1));
  p.drawLine(QLineF(x1, area.top(), x1, area.bottom() + 1));
}

void TimelineCanvas::paintLabels(QPainter& p) const {
  QRect column(0, kRulerHeight, kLabelWidth, height() - kRulerHeight);
  p.save();
  p.setClipRect(column);
  p.fillRect(column, colors::kLabelColumn);
  QFont normal = font();
  QFont bold = font();
  bold.setBold(true);
  QFontMetrics fmNormal(normal);
  QFontMetrics fmBold(bold);
  QColor detailColor(0x6b, 0x74, 0x80);
  const auto& shown = layout_.shown();
  int scroll = scrollY();
  for (size_t k = layout_.firstShownBelow(scroll); k < shown.size(); ++k) {
    int top = kRulerHeight + shown[k].top - scroll;
    if (top > height()) break;
    const TimelineRow& row = layout_.row(shown[k].row);
    int h = shown[k].height;
    if (row.isHeader()) p.fillRect(QRect(0, top, kLabelWidth, h), colors::kHeaderRow.darker(104));
    int x = 6 + row.depth * kIndent;
    int lineY = top + std::min(h, TimelineLayout::kHeaderHeight) / 2;
    if (row.isHeader()) {
      drawTriangle(p, x, lineY, !row.collapsed, colors::kLabelText);
      x += 12;
    }
    bool strong = row.kind == RowKind::Process || row.kind == RowKind::Device;
    const QFontMetrics& fm = strong ? fmBold : fmNormal;
    p.setFont(strong ? bold : normal);
    p.setPen(colors::kLabelText);
    int room = kLabelWidth - x - 6;
    QString label = fm.elidedText(row.label, Qt::ElideRight, room);
    int baseline = lineY + (fm.ascent() - fm.descent()) / 2;
    p.drawText(QPoint(x, baseline), label);
    x += fm.horizontalAdvance(label) + 6;
    QString detail = row.detail;
    if (row.kind == RowKind::Utilization && row.deviceIndex < utilization_.size()) {
      TimeNs span = session_->viewEnd() - session_->viewStart();
      double busy =
          static_cast<double>(utilization_[row.deviceIndex].busyTime(session_->viewStart(), session_->viewEnd())) /
          static_cast<double>(std::max<TimeNs>(span, 1));
      detail = busy > 0 && busy < 0.001
                   ? QStringLiteral("<0.1% busy in view")
                   : QStringLiteral("%1% busy in view").arg(busy * 100.0, 0, 'f', busy < 0.1 ? 1 : 0);
    }
    if (!detail.isEmpty() && kLabelWidth - x - 6 > 20) {
      p.setFont(normal);
      p.setPen(detailColor);
      p.drawText(QPoint(x, lineY + (fmNormal.ascent() - fmNormal.descent()) / 2),
                 fmNormal.elidedText(detail, Qt::ElideRight, kLabelWidth - x - 6));
    }
    p.setPen(colors::kGrid);
    p.drawLine(0, top + h - 1, kLabelWidth, top + h - 1);
  }
  p.restore();
  p.setPen(colors::kGrid.darker(115));
  p.drawLine(kLabelWidth - 1, kRulerHeight, kLabelWidth - 1, height());
}

void TimelineCanvas::paintRuler(QPainter& p, const RulerScale& scale) const {
  const Trace* trace = session_->trace().get();
  QRect ruler(0, 0, width(), kRulerHeight);
  p.fillRect(ruler, colors::kRuler);
  QFontMetrics fm(font());
  TimeNs origin = trace->startTime();
  TimeNs viewStart = session_->viewStart();
  TimeNs viewEnd = session_->viewEnd();

  // The corner over the labels: how much time the view shows.
  p.setPen(colors::kLabelText);
  p.drawText(QRect(6, 0, kLabelWidth - 12, kRulerHeight), Qt::AlignVCenter | Qt::AlignLeft,
             tr("View: %1").arg(durationText(viewEnd - viewStart)));

  p.save();
  p.setClipRect(QRect(kLabelWidth, 0, width() - kLabelWidth, kRulerHeight));
  // The picked range, under the ticks.
  if (session_->rangeEnd() > session_->rangeStart()) {
    QRect area = eventArea();
    double x0 = clampToArea(xForTime(session_->rangeStart()), area);
    double x1 = clampToArea(xForTime(session_->rangeEnd()), area);
    p.fillRect(QRectF(x0, 0, std::max(1.0, x1 - x0), kRulerHeight), colors::kRangeEdge.lighter(160));
  }
  TimeNs first = viewStart - origin;
  TimeNs tick = (first >= 0 ? first / scale.step : (first - scale.step + 1) / scale.step) * scale.step;
  double minorStep = static_cast<double>(scale.step) / scale.minorPerMajor;
  double minorPixels = minorStep / nsPerPixel();
  for (; origin + tick <= viewEnd; tick += scale.step) {
    double x = xForTime(origin + tick);
    p.setPen(colors::kLabelText);
    p.drawLine(QLineF(x, kRulerHeight - 10, x, kRulerHeight));
    // A label whose tick is left of the area would be cut by the label column: leave it out.
    if (x >= kLabelWidth) {
      p.drawText(QPointF(x + 3, kRulerHeight - 13), QString::fromStdString(formatRulerLabel(tick, scale)));
    }
    if (minorPixels >= 5) {
      p.setPen(colors::kLabelText.lighter(250));
      for (int m = 1; m < scale.minorPerMajor; ++m) {
        double mx = x + m * minorPixels;
        p.drawLine(QLineF(mx, kRulerHeight - 5, mx, kRulerHeight));
      }
    }
  }
  // The range's length, over the ticks, where it can be read.
  if (session_->rangeEnd() > session_->rangeStart()) {
    QRect area = eventArea();
    double x0 = clampToArea(xForTime(session_->rangeStart()), area);
    double x1 = clampToArea(xForTime(session_->rangeEnd()), area);
    QString length = durationText(session_->rangeEnd() - session_->rangeStart());
    int textWidth = fm.horizontalAdvance(length) + 12;
    double centre = std::clamp((x0 + x1) / 2, area.left() + textWidth / 2.0, area.right() - textWidth / 2.0);
    QRectF box(centre - textWidth / 2.0, 3, textWidth, fm.height() + 2);
    p.setRenderHint(QPainter::Antialiasing, true);
    p.setPen(Qt::NoPen);
    p.setBrush(colors::kRangeEdge);
    p.drawRoundedRect(box, 3, 3);
    p.setBrush(Qt::NoBrush);
    p.setRenderHint(QPainter::Antialiasing, false);
    p.setPen(Qt::white);
    p.drawText(box, Qt::AlignCenter, length);
  }
  p.restore();
  p.setPen(colors::kGrid.darker(130));
  p.drawLine(0, kRulerHeight - 1, width(), kRulerHeight - 1);
}

}  // namespace gpuscope::ui
