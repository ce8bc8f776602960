#pragma once
// TimelineNavigator: owns the timeline's view range and the gestures that move it. Zoom, pan, fit
// and reveal go through setView, which keeps the view within the trace; a mouse drag is tracked
// from press to release here, and the canvas acts on what the drag turned out to be.
#include <QPoint>

#include "ui/session/trace_session.h"
#include "ui/timeline/timeline_geometry.h"

namespace gpuscope::ui {

class TimelineNavigator {
 public:
  enum class Reveal { KeepZoom, Focus };
  // What a press became: a click not yet moved, a pan, a range picked on the ruler, a label click.
  enum class Drag { None, PendingClick, Pan, RulerRange, Label };

  explicit TimelineNavigator(TraceSession* session) : session_(session) {}

  // Sets the view to [start, start + span), clamped to the trace with half a view of margin.
  void setView(double start, double span);
  void zoomAround(const TimelineGeometry& g, double x, double factor);  // factor < 1 zooms in
  void panByPixels(const TimelineGeometry& g, double dx);
  void fitSelectionOrAll();
  // Zooms so that [start, end) fills most of the view, as a click on a folded block does.
  void zoomToBlock(TimeNs start, TimeNs end);
  // Brings [start, end) into view: KeepZoom pans only when it is off screen, Focus also zooms so
  // that it is comfortably wide.
  void showSpan(const TimelineGeometry& g, double start, double end, Reveal how);
  // The keys that only move the view (W S A D Home); false for any other key.
  bool navigateByKey(int key, const TimelineGeometry& g);
  void setHover(QPoint pos) { hover_ = pos; }

  // A mouse drag. press() starts one from POS (a left press decides its kind by where it is);
  // move() returns the vertical scroll a pan asks for, or -1; release() ends it and says what it was.
  void press(QPoint pos, Qt::MouseButton button, const TimelineGeometry& g, int scrollY, int rulerHeight);
  int move(QPoint pos, const TimelineGeometry& g);
  Drag release();

 private:
  double zoomAnchorX(const TimelineGeometry& g) const;

  TraceSession* session_;
  Drag drag_ = Drag::None;
  QPoint pressPos_;
  double pressViewStart_ = 0;
  double pressNsPerPixel_ = 1;
  int pressScroll_ = 0;
  TimeNs rangeAnchor_ = 0;
  QPoint hover_{-1, -1};
};

}  // namespace gpuscope::ui
