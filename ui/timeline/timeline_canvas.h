#pragma once
// TimelineCanvas: the timeline widget. It lays out the rows of a trace, paints the ruler, the labels
// and the selection, and hands the rest to its parts: TimelineNavigator (the view range and the
// gestures that move it), TimelineRowKinds (one class per kind of row, owning what that kind decides),
// hitTestTimeline, the tooltip texts and TimelineNameCache.
#include <QLineF>
#include <QPointer>
#include <QString>
#include <QWidget>
#include <optional>
#include <vector>

#include "core/query/draw_list.h"
#include "ui/session/trace_session.h"
#include "ui/timeline/gpu_shading.h"
#include "ui/timeline/time_axis.h"
#include "ui/timeline/timeline_geometry.h"
#include "ui/timeline/timeline_hit_test.h"
#include "ui/timeline/timeline_layout.h"
#include "ui/timeline/timeline_name_cache.h"
#include "ui/timeline/timeline_navigator.h"
#include "ui/timeline/timeline_row_kinds.h"

class QScrollBar;

namespace gpuscope::ui {

class TimelineCanvas : public QWidget {
  Q_OBJECT
 public:
  static constexpr int kLabelWidth = 240;
  static constexpr int kRulerHeight = 30;
  static constexpr double kFoldPixels = TimelineGeometry::kFoldPixels;

  // VERTICAL_BAR scrolls the rows; the canvas sets its range and reads its value.
  TimelineCanvas(TraceSession* session, QScrollBar* verticalBar, QWidget* parent = nullptr);

  // Geometry, in canvas coordinates.
  QRect eventArea() const;            // right of the labels, below the ruler
  TimelineGeometry geometry() const;  // the view range in pixels, now
  double nsPerPixel() const;
  double xForTime(TimeNs t) const;
  TimeNs timeAtX(double x) const;
  // The strip of lane LANE of TRACK (the full width of the event area), or an empty rect when
  // the track's row is hidden or scrolled out.
  QRect laneRect(uint32_t track, uint32_t lane) const;
  // The ruler's ticks for the current view and width.
  RulerScale rulerScale() const;
  // The flow arrows of the last frame, from the API call to the GPU work it launched.
  const std::vector<QLineF>& flowArrows() const { return flowArrows_; }
  const TimelineLayout& layout() const { return layout_; }

  using FrameStats = TimelineFrameStats;
  const FrameStats& lastFrame() const { return frame_; }

  // Navigation, as the keys and the mouse do it.
  void zoomAround(double x, double factor);  // factor < 1 zooms in; the time at X stays put
  void panByPixels(double dx);
  void fitSelectionOrAll();
  void clearSelectionAndRange();
  void jumpToCorrelated();
  void toggleRow(int row);
  // The row menu's actions (timeline_row_menu.h): hide a row, pin it to the top, show the hidden ones.
  void setRowHidden(int row, bool hidden);
  void setRowPinned(int row, bool pinned);
  void showHiddenRows();
  using Reveal = TimelineNavigator::Reveal;
  // Shows EVENT: expands and scrolls to its row; KeepZoom pans only when it is off screen, Focus
  // also zooms so that it is comfortably wide.
  void revealEvent(EventRef event, Reveal how);
  // Selects EVENT through the session, as a click does.
  void selectEvent(std::optional<EventRef> event);
  // Selects the CPU sample SAMPLE through the session, as a click on its tick does.
  void selectSample(std::optional<SampleRef> sample);
  // Stretches to shade on the GPU rows (gpu_shading.h); cleared when the trace changes.
  void setGpuShading(GpuShading shading);
  const GpuShading& gpuShading() const { return gpuShading_; }

 signals:
  // A right click on an event (it is selected first): whoever shows the event menu shows it at GLOBAL_POS.
  void eventMenuRequested(EventRef event, QPoint globalPos);
  // The GPU shading was set or cleared.
  void gpuShadingChanged();
  // A right click on the ruler while a range is picked: whoever shows the range menu shows it at GLOBAL_POS.
  void rangeMenuRequested(QPoint globalPos);

 protected:
  void paintEvent(QPaintEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  void showEvent(QShowEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  void mouseDoubleClickEvent(QMouseEvent* event) override;
  void contextMenuEvent(QContextMenuEvent* event) override;
  void wheelEvent(QWheelEvent* event) override;
  void keyPressEvent(QKeyEvent* event) override;
  bool event(QEvent* event) override;

 private:
  void onTraceChanged();
  // Once per trace, at the first height the canvas has with it: TimelineLayout::fitGpuInView.
  void fitGpuOnce();
  void onSelectionChanged();
  // Brings track TRACK's row into view (opening its group), as a selection elsewhere does for its event's.
  void revealTrack(uint32_t track);
  void updateScrollRange();
  int scrollY() const;
  void setScrollY(int y);
  void scrollRowIntoView(int row);
  // With GPU work selected elsewhere, scrolls its launching call's row into view too when both fit.
  void showLaunchingCallToo(EventRef work, int workRow);
  TimelineHit hitTest(QPoint pos) const;
  QString tooltipAt(QPoint pos) const;
  void clickAt(QPoint pos);

  // Painting, one pass each (timeline_canvas_paint.cpp, timeline_canvas_selection.cpp).
  void paintRowBackgrounds(QPainter& p, const QRect& area) const;
  void paintGrid(QPainter& p, const QRect& area, const RulerScale& scale) const;
  void paintRows(QPainter& p, const TimelineGeometry& g);
  void paintRange(QPainter& p, const QRect& area) const;
  void paintSelection(QPainter& p, const QRect& area);
  void paintSelectedSample(QPainter& p, const Trace& trace) const;
  void paintSelectedMemoryEvent(QPainter& p, const Trace& trace, const QRect& area) const;
  void paintLabels(QPainter& p) const;
  void paintRuler(QPainter& p, const RulerScale& scale) const;
  // Y of the top (or bottom) edge of EVENT's bar as drawn now, following collapsed rows.
  double eventEdgeY(EventRef event, bool bottom) const;

  TraceSession* session_;
  QPointer<QScrollBar> verticalBar_;
  TimelineLayout layout_;
  TimelineNavigator navigator_;
  TimelineNameCache names_;
  TimelineRowKinds kinds_;
  std::vector<DrawItem> items_;  // reused per lane
  std::vector<QLineF> flowArrows_;
  FrameStats frame_;
  bool selectingHere_ = false;
  bool fitPending_ = false;
  GpuShading gpuShading_;
};

}  // namespace gpuscope::ui
