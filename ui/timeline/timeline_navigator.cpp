#include "ui/timeline/timeline_navigator.h"

#include <algorithm>
#include <cmath>

namespace gpuscope::ui {
namespace {

constexpr double kKeyZoom = 0.8;
constexpr double kKeyPanFraction = 0.15;
constexpr int kDragThreshold = 4;
constexpr TimeNs kMinSpan = 10;
constexpr double kEdgeMargin = 0.05;  // of the view, the most it shows before the trace start or after its end

}  // namespace

void TimelineNavigator::setView(double start, double span) {
  const Trace* trace = session_->trace().get();
  if (!trace) return;
  double traceStart = static_cast<double>(trace->startTime());
  double traceEnd = static_cast<double>(std::max(trace->endTime(), trace->startTime() + 1));
  double traceSpan = traceEnd - traceStart;
  // Zooming out stops a little past the whole trace and panning stops at its ends (5% of the view beyond
  // each): a view that is mostly time before the trace start reads as "negative time" on the ruler.
  double widest = std::max(traceSpan / (1 - 2 * kEdgeMargin), static_cast<double>(kMinSpan));
  span = std::clamp(span, static_cast<double>(kMinSpan), widest);
  double margin = span * kEdgeMargin;
  double lowest = traceStart - margin;
  double highest = traceEnd + margin - span;
  start = highest < lowest ? (lowest + highest) / 2 : std::clamp(start, lowest, highest);
  auto s = static_cast<TimeNs>(std::llround(start));
  session_->setViewRange(s, s + static_cast<TimeNs>(std::llround(span)));
}

void TimelineNavigator::zoomAround(const TimelineGeometry& g, double x, double factor) {
  if (!session_->hasTrace()) return;
  double npp = g.nsPerPixel();
  double anchor = static_cast<double>(g.viewStart) + (x - g.area.left()) * npp;
  double span = static_cast<double>(g.viewEnd - g.viewStart) * factor;
  double newNpp = span / g.area.width();
  setView(anchor - (x - g.area.left()) * newNpp, span);
}

void TimelineNavigator::panByPixels(const TimelineGeometry& g, double dx) {
  if (!session_->hasTrace()) return;
  double span = static_cast<double>(g.viewEnd - g.viewStart);
  setView(static_cast<double>(g.viewStart) + dx * g.nsPerPixel(), span);
}

void TimelineNavigator::fitSelectionOrAll() {
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

void TimelineNavigator::zoomToBlock(TimeNs start, TimeNs end) {
  double span = static_cast<double>(end - start);
  double padded = std::max(span * 1.2, 100.0);
  setView(static_cast<double>(start) + span / 2 - padded / 2, padded);
}

void TimelineNavigator::showSpan(const TimelineGeometry& g, double start, double end, Reveal how) {
  double duration = end - start;
  double viewStart = static_cast<double>(g.viewStart);
  double span = static_cast<double>(g.viewEnd - g.viewStart);
  double widthPx = duration / g.nsPerPixel();
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

double TimelineNavigator::zoomAnchorX(const TimelineGeometry& g) const {
  if (g.area.contains(hover_)) return hover_.x();
  return g.area.left() + g.area.width() / 2.0;
}

bool TimelineNavigator::navigateByKey(int key, const TimelineGeometry& g) {
  double width = g.area.width();
  switch (key) {
    case Qt::Key_W:
      zoomAround(g, zoomAnchorX(g), kKeyZoom);
      return true;
    case Qt::Key_S:
      zoomAround(g, zoomAnchorX(g), 1.0 / kKeyZoom);
      return true;
    case Qt::Key_A:
      panByPixels(g, -width * kKeyPanFraction);
      return true;
    case Qt::Key_D:
      panByPixels(g, width * kKeyPanFraction);
      return true;
    case Qt::Key_F:
      fitSelectionOrAll();
      return true;
    case Qt::Key_Home:
      session_->fitAll();
      return true;
    default:
      return false;
  }
}

void TimelineNavigator::press(QPoint pos, Qt::MouseButton button, const TimelineGeometry& g, int scrollY,
                              int rulerHeight) {
  pressPos_ = pos;
  pressViewStart_ = static_cast<double>(g.viewStart);
  pressNsPerPixel_ = g.nsPerPixel();
  pressScroll_ = scrollY;
  if (!session_->hasTrace()) return;
  if (button == Qt::MiddleButton) {
    drag_ = Drag::Pan;
  } else if (button == Qt::LeftButton) {
    if (pos.y() < rulerHeight && pos.x() >= g.area.left()) {
      drag_ = Drag::RulerRange;
      rangeAnchor_ = g.timeAtX(pos.x());
      session_->setRange(rangeAnchor_, rangeAnchor_);
    } else if (pos.x() < g.area.left()) {
      drag_ = Drag::Label;
    } else {
      drag_ = Drag::PendingClick;
    }
  }
}

int TimelineNavigator::move(QPoint pos, const TimelineGeometry& g) {
  hover_ = pos;
  switch (drag_) {
    case Drag::RulerRange: {
      int x = std::clamp(pos.x(), g.area.left(), g.area.right() + 1);
      session_->setRange(rangeAnchor_, g.timeAtX(x));
      return -1;
    }
    case Drag::PendingClick:
    case Drag::Label:
      if ((pos - pressPos_).manhattanLength() < kDragThreshold) return -1;
      drag_ = Drag::Pan;
      [[fallthrough]];
    case Drag::Pan: {
      double span = static_cast<double>(g.viewEnd - g.viewStart);
      setView(pressViewStart_ - (pos.x() - pressPos_.x()) * pressNsPerPixel_, span);
      return std::max(0, pressScroll_ - (pos.y() - pressPos_.y()));
    }
    case Drag::None:
      break;
  }
  return -1;
}

TimelineNavigator::Drag TimelineNavigator::release() {
  Drag drag = drag_;
  drag_ = Drag::None;
  return drag;
}

}  // namespace gpuscope::ui
