#include "ui/timeline/timeline_canvas.h"

#include <QContextMenuEvent>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QMenu>
#include <QMouseEvent>
#include <QScrollBar>
#include <QToolTip>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

#include "ui/timeline/timeline_row_menu.h"
#include "ui/timeline/timeline_tooltips.h"

namespace gpuscope::ui {
namespace {

constexpr double kWheelZoomPerNotch = 0.8;  // one wheel notch in shows 80% of the span

}  // namespace

TimelineCanvas::TimelineCanvas(TraceSession* session, QScrollBar* verticalBar, QWidget* parent)
    : QWidget(parent), session_(session), verticalBar_(verticalBar), navigator_(session) {
  setFocusPolicy(Qt::StrongFocus);
  setMouseTracking(true);
  setAttribute(Qt::WA_OpaquePaintEvent);
  setMinimumSize(kLabelWidth + 120, kRulerHeight + 60);
  connect(session_, &TraceSession::traceChanged, this, &TimelineCanvas::onTraceChanged);
  connect(session_, &TraceSession::selectionChanged, this, &TimelineCanvas::onSelectionChanged);
  connect(session_, &TraceSession::viewRangeChanged, this, qOverload<>(&QWidget::update));
  connect(session_, &TraceSession::rangeChanged, this, qOverload<>(&QWidget::update));
  connect(session_, &TraceSession::timeBaseChanged, this, qOverload<>(&QWidget::update));
  connect(session_, &TraceSession::highlightedFunctionChanged, this, qOverload<>(&QWidget::update));
  connect(session_, &TraceSession::trackRevealRequested, this, &TimelineCanvas::revealTrack);
  if (verticalBar_) connect(verticalBar_, &QScrollBar::valueChanged, this, qOverload<>(&QWidget::update));
  onTraceChanged();
}

// ---------------------------------------------------------------------------------------------
// State

void TimelineCanvas::onTraceChanged() {
  layout_.clear();
  if (!gpuShading_.empty()) {
    gpuShading_.clear();
    emit gpuShadingChanged();
  }
  flowArrows_.clear();
  const Trace* trace = session_->trace().get();
  if (trace) layout_.build(*trace, kinds_);
  names_.reset(trace);
  kinds_.onTraceChanged(trace);
  fitPending_ = trace != nullptr;
  fitGpuOnce();
  updateScrollRange();
  setScrollY(0);
  update();
}

void TimelineCanvas::fitGpuOnce() {
  // The first height the canvas gets with a trace decides; later resizes leave the user's rows alone.
  if (!fitPending_ || !isVisible() || height() <= kRulerHeight) return;
  fitPending_ = false;
  layout_.fitGpuInView(height() - kRulerHeight);
  updateScrollRange();
}

void TimelineCanvas::setRowHidden(int row, bool hidden) {
  layout_.setHidden(row, hidden);
  updateScrollRange();
  update();
}

void TimelineCanvas::setRowPinned(int row, bool pinned) {
  layout_.setPinned(row, pinned);
  updateScrollRange();
  setScrollY(pinned ? 0 : scrollY());
  update();
}

void TimelineCanvas::showHiddenRows() {
  layout_.showHidden();
  updateScrollRange();
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

void TimelineCanvas::revealTrack(uint32_t track) {
  int row = layout_.rowOfTrack(track);
  if (row < 0) return;
  layout_.reveal(row);
  updateScrollRange();
  scrollRowIntoView(row);
  update();
}

void TimelineCanvas::selectEvent(std::optional<EventRef> event) {
  selectingHere_ = true;
  session_->select(event);
  selectingHere_ = false;
}

void TimelineCanvas::selectSample(std::optional<SampleRef> sample) {
  selectingHere_ = true;
  session_->selectSample(sample);
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
  verticalBar_->setSingleStep(TrackRowKind::kLaneHeight);
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

// ---------------------------------------------------------------------------------------------
// Geometry

QRect TimelineCanvas::eventArea() const {
  return QRect(kLabelWidth, kRulerHeight, std::max(1, width() - kLabelWidth), std::max(1, height() - kRulerHeight));
}

TimelineGeometry TimelineCanvas::geometry() const {
  return TimelineGeometry{eventArea(), session_->viewStart(), session_->viewEnd()};
}

double TimelineCanvas::nsPerPixel() const { return geometry().nsPerPixel(); }
double TimelineCanvas::xForTime(TimeNs t) const { return geometry().xForTime(t); }
TimeNs TimelineCanvas::timeAtX(double x) const { return geometry().timeAtX(x); }

QRect TimelineCanvas::laneRect(uint32_t track, uint32_t lane) const {
  int row = layout_.rowOfTrack(track);
  if (row < 0) return {};
  TimelineLayout::Placement placed = layout_.placementOf(row);
  if (placed.row != row) return {};
  int top = kRulerHeight + placed.top - scrollY() + TrackRowKind::laneTop(lane);
  QRect rect(kLabelWidth, top, eventArea().width(), TrackRowKind::kLaneHeight);
  return rect.intersects(eventArea()) ? rect : QRect();
}

double TimelineCanvas::eventEdgeY(EventRef event, bool bottom) const {
  int row = layout_.rowOfTrack(event.track);
  if (row < 0) return 0;
  TimelineLayout::Placement placed = layout_.placementOf(row);
  double top = kRulerHeight + placed.top - scrollY();
  if (placed.row != row) return bottom ? top + placed.height - 3 : top + 3;  // collapsed: its header
  double laneTop = top + TrackRowKind::laneTop(event.lane);
  return bottom ? laneTop + TrackRowKind::kLaneHeight - 1 : laneTop;
}

// ---------------------------------------------------------------------------------------------
// Navigation: the navigator moves the view; the canvas adds rows and selection.

void TimelineCanvas::zoomAround(double x, double factor) { navigator_.zoomAround(geometry(), x, factor); }
void TimelineCanvas::panByPixels(double dx) { navigator_.panByPixels(geometry(), dx); }
void TimelineCanvas::fitSelectionOrAll() { navigator_.fitSelectionOrAll(); }

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
  navigator_.showSpan(geometry(), static_cast<double>(trace->start(event)), static_cast<double>(trace->end(event)),
                      how);
}

// ---------------------------------------------------------------------------------------------
// Input

TimelineHit TimelineCanvas::hitTest(QPoint pos) const {
  return hitTestTimeline(session_->trace().get(), layout_, kinds_, geometry(), pos, scrollY(), kRulerHeight);
}

QString TimelineCanvas::tooltipAt(QPoint pos) const {
  const Trace* trace = session_->trace().get();
  if (!trace) return {};
  if (pos.y() < kRulerHeight && pos.x() >= kLabelWidth)
    return rulerTooltip(*trace, timeAtX(pos.x()), session_->timeBase());
  TimelineHit hit = hitTest(pos);
  if (hit.row < 0 || pos.x() < kLabelWidth) return {};
  const TimelineRow& row = layout_.row(hit.row);
  const TimelineGeometry g = geometry();
  const TimelineRowKind& kind = kinds_.of(row);
  QString text = kind.tooltip(row, hit, pos.x(), RowTooltipContext{*trace, g, names_, session_->timeBase()});
  // Off the bars of a GPU row, a shaded stretch says what it is.
  if (hit.item) return text;
  int64_t device = kind.gpuDevice(*trace, row);
  const GpuShadeSpan* shade =
      device == TimelineRowKind::kNoGpu ? nullptr : gpuShadeAt(gpuShading_, device, timeAtX(pos.x()));
  if (!shade) return text;
  return text.isEmpty() ? gpuShadeTooltip(*shade) : text + QStringLiteral("<br><br>") + gpuShadeTooltip(*shade);
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
  navigator_.press(event->position().toPoint(), event->button(), geometry(), scrollY(), kRulerHeight);
}

void TimelineCanvas::mouseMoveEvent(QMouseEvent* event) {
  int scroll = navigator_.move(event->position().toPoint(), geometry());
  if (scroll >= 0) setScrollY(scroll);
}

void TimelineCanvas::mouseReleaseEvent(QMouseEvent* event) {
  using Drag = TimelineNavigator::Drag;
  Drag drag = navigator_.release();
  if (event->button() != Qt::LeftButton || !session_->hasTrace()) return;
  QPoint pos = event->position().toPoint();
  if (drag == Drag::RulerRange) {
    if (session_->rangeStart() == session_->rangeEnd()) session_->setRange(0, 0);
  } else if (drag == Drag::Label) {
    int row = layout_.rowAt(pos.y() - kRulerHeight + scrollY());
    if (row >= 0 && layout_.row(row).isHeader()) toggleRow(row);
  } else if (drag == Drag::PendingClick) {
    clickAt(pos);
  }
}

void TimelineCanvas::clickAt(QPoint pos) {
  TimelineHit hit = hitTest(pos);
  if (hit.row >= 0 && layout_.row(hit.row).isHeader() && layout_.row(hit.row).collapsed) {
    toggleRow(hit.row);
  } else if (hit.sample) {
    selectSample(SampleRef{layout_.row(hit.row).globalTid, *hit.sample});
  } else if (hit.memoryEvent) {
    selectingHere_ = true;
    session_->selectMemoryEvent(*hit.memoryEvent);
    selectingHere_ = false;
  } else if (!hit.item) {
    selectEvent(std::nullopt);
  } else if (hit.item->isFold()) {
    navigator_.zoomToBlock(hit.item->start, hit.item->end);  // a folded block opens up
  } else {
    selectEvent(EventRef{hit.track, hit.lane, hit.item->first});
  }
}

void TimelineCanvas::mouseDoubleClickEvent(QMouseEvent* event) {
  TimelineHit hit = hitTest(event->position().toPoint());
  if (hit.item && !hit.item->isFold()) {
    EventRef ref{hit.track, hit.lane, hit.item->first};
    selectEvent(ref);
    revealEvent(ref, Reveal::Focus);
  }
}

void TimelineCanvas::contextMenuEvent(QContextMenuEvent* event) {
  const bool onRuler = event->pos().y() < kRulerHeight && event->pos().x() >= kLabelWidth;
  if (onRuler && session_->rangeStart() != session_->rangeEnd()) {
    emit rangeMenuRequested(event->globalPos());
    return;
  }
  if (event->pos().x() < kLabelWidth && event->pos().y() >= kRulerHeight) {
    int row = layout_.rowAt(event->pos().y() - kRulerHeight + scrollY());
    if (row >= 0) rowMenu(*this, row)->exec(event->globalPos());
    return;
  }
  TimelineHit hit = hitTest(event->pos());
  if (!hit.item || hit.item->isFold()) {
    event->ignore();
    return;
  }
  EventRef ref{hit.track, hit.lane, hit.item->first};
  selectEvent(ref);
  emit eventMenuRequested(ref, event->globalPos());
}

void TimelineCanvas::wheelEvent(QWheelEvent* event) {
  QPoint pos = event->position().toPoint();
  QPoint delta = event->angleDelta();
  bool scrollRows = pos.x() < kLabelWidth || (event->modifiers() & Qt::ShiftModifier);
  if (scrollRows) {
    int dy = delta.y() != 0 ? delta.y() : delta.x();
    setScrollY(scrollY() - dy * TrackRowKind::kLaneHeight * 3 / 120);
  } else {
    if (delta.y() != 0) zoomAround(pos.x(), std::pow(kWheelZoomPerNotch, delta.y() / 120.0));
    if (delta.x() != 0) panByPixels(-delta.x() * eventArea().width() / 1200.0);
  }
  event->accept();
}

void TimelineCanvas::keyPressEvent(QKeyEvent* event) {
  if (navigator_.navigateByKey(event->key(), geometry())) {
    event->accept();
    return;
  }
  switch (event->key()) {
    case Qt::Key_Escape:
      clearSelectionAndRange();
      break;
    case Qt::Key_J:
    case Qt::Key_Space:
      jumpToCorrelated();
      break;
    default:
      QWidget::keyPressEvent(event);
      return;
  }
  event->accept();
}

void TimelineCanvas::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  fitGpuOnce();
  updateScrollRange();
}

void TimelineCanvas::showEvent(QShowEvent* event) {
  QWidget::showEvent(event);
  fitGpuOnce();
}

void TimelineCanvas::setGpuShading(GpuShading shading) {
  gpuShading_ = std::move(shading);
  emit gpuShadingChanged();
  update();
}

}  // namespace gpuscope::ui
