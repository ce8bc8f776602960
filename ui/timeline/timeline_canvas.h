#pragma once
// TimelineCanvas: paints the ruler, the row labels and the rows of a trace, and turns mouse and
// keys into zoom, pan, selection and range picks on the shared TraceSession.
#include <QLineF>
#include <QPointer>
#include <QStaticText>
#include <QString>
#include <QWidget>
#include <optional>
#include <vector>

#include "core/query/draw_list.h"
#include "core/query/utilization.h"
#include "ui/session/trace_session.h"
#include "ui/timeline/time_axis.h"
#include "ui/timeline/timeline_layout.h"

class QScrollBar;

namespace gpuscope::ui {

class TimelineCanvas : public QWidget {
  Q_OBJECT
 public:
  static constexpr int kLabelWidth = 240;
  static constexpr int kRulerHeight = 30;
  static constexpr double kFoldPixels = 3.0;

  // VERTICAL_BAR scrolls the rows; the canvas sets its range and reads its value.
  TimelineCanvas(TraceSession* session, QScrollBar* verticalBar, QWidget* parent = nullptr);

  // Geometry, in canvas coordinates.
  QRect eventArea() const;  // right of the labels, below the ruler
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

  struct FrameStats {
    int rows = 0;       // rows painted
    size_t items = 0;   // bars and folded blocks
    size_t folds = 0;   // of which folded blocks
    size_t labels = 0;  // names drawn inside bars
  };
  const FrameStats& lastFrame() const { return frame_; }

  // Navigation, as the keys and the mouse do it.
  void zoomAround(double x, double factor);  // factor < 1 zooms in; the time at X stays put
  void panByPixels(double dx);
  void fitSelectionOrAll();
  void clearSelectionAndRange();
  void jumpToCorrelated();
  void toggleRow(int row);
  enum class Reveal { KeepZoom, Focus };
  // Shows EVENT: expands and scrolls to its row; KeepZoom pans only when it is off screen, Focus
  // also zooms so that it is comfortably wide.
  void revealEvent(EventRef event, Reveal how);
  // Selects EVENT through the session, as a click does.
  void selectEvent(std::optional<EventRef> event);

 protected:
  void paintEvent(QPaintEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  void mouseDoubleClickEvent(QMouseEvent* event) override;
  void wheelEvent(QWheelEvent* event) override;
  void keyPressEvent(QKeyEvent* event) override;
  bool event(QEvent* event) override;

 private:
  struct Hit {
    int row = -1;
    uint32_t track = TimelineRow::kNoTrack;
    uint32_t lane = 0;
    std::optional<DrawItem> item;
  };

  void onTraceChanged();
  void onSelectionChanged();
  void updateScrollRange();
  int scrollY() const;
  void setScrollY(int y);
  void scrollRowIntoView(int row);
  // With GPU work selected elsewhere, scrolls its launching call's row into view too when both fit.
  void showLaunchingCallToo(EventRef work, int workRow);
  // Sets the view to [start, start + span), clamped to the trace with half a view of margin.
  void setView(double start, double span);
  Hit hitTest(QPoint pos) const;
  QString tooltipAt(QPoint pos) const;
  const QString& displayName(StringId id) const;
  // The display name laid out once in the bar font, and its width, for drawing without shaping.
  struct NameText {
    int width = -1;  // -1: not laid out yet
    QStaticText text;
  };
  const NameText& nameText(StringId id, const QFontMetrics& fm) const;
  double zoomAnchorX() const;
  void zoomFromKeys(double factor);

  // Painting, one pass each.
  void paintRowBackgrounds(QPainter& p, const QRect& area) const;
  void paintGrid(QPainter& p, const QRect& area, const RulerScale& scale) const;
  void paintRows(QPainter& p, const QRect& area);
  void paintTrackLanes(QPainter& p, const Track& track, int top, const QRect& area);
  void paintCollapsedSummary(QPainter& p, const TimelineRow& row, int top, const QRect& area);
  void paintUtilization(QPainter& p, uint32_t deviceIndex, int top, int height, const QRect& area);
  void paintRange(QPainter& p, const QRect& area) const;
  void paintSelection(QPainter& p, const QRect& area);
  void paintLabels(QPainter& p) const;
  void paintRuler(QPainter& p, const RulerScale& scale) const;
  // Y of the top (or bottom) edge of EVENT's bar as drawn now, following collapsed rows.
  double eventEdgeY(EventRef event, bool bottom) const;

  TraceSession* session_;
  QPointer<QScrollBar> verticalBar_;
  TimelineLayout layout_;
  std::vector<DeviceUtilization> utilization_;  // by device index
  mutable std::vector<QString> names_;          // display names by StringId, filled on first use
  mutable std::vector<bool> namesFilled_;
  mutable std::vector<NameText> nameTexts_;
  std::vector<DrawItem> items_;  // reused per lane
  std::vector<float> busy_;      // reused per utilization row
  std::vector<QLineF> flowArrows_;
  FrameStats frame_;

  enum class Drag { None, PendingClick, Pan, RulerRange, Label };
  Drag drag_ = Drag::None;
  QPoint pressPos_;
  double pressViewStart_ = 0;
  double pressNsPerPixel_ = 1;
  int pressScroll_ = 0;
  TimeNs rangeAnchor_ = 0;
  QPoint hoverPos_{-1, -1};
  bool selectingHere_ = false;
};

}  // namespace gpuscope::ui
