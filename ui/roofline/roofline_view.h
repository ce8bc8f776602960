#pragma once
// RooflineView: the log-log roofline chart of the session's trace (kernel metrics from `import-ncu`): roofs
// with their values (memory levels and precisions each shown or hidden), points sized by time and coloured by
// the roof that bounds them, names that do not collide, the tooltip of the point under the mouse, a click that
// selects the kernel in the session, and zoom (rubber band, wheel around the cursor, R or the Reset button back).
#include <QPointF>
#include <QWidget>
#include <array>
#include <optional>
#include <unordered_map>
#include <vector>

#include "core/roofline/roofline_chart.h"

class QChart;
class QChartView;
class QCheckBox;
class QComboBox;
class QGraphicsSimpleTextItem;
class QGraphicsEllipseItem;
class QLabel;
class QPushButton;
class QScatterSeries;
class QToolButton;

namespace gpuscope::ui {

class RooflineChartView;
class TraceSession;

class RooflineView : public QWidget {
  Q_OBJECT
 public:
  explicit RooflineView(TraceSession* session, QWidget* parent = nullptr);

  QChart* chart() const { return chart_; }
  RooflineChartView* chartView() const { return chartView_; }
  QComboBox* levelBox() const { return levelBox_; }
  QComboBox* kindBox() const { return kindBox_; }
  // The checkable buttons that show or hide each memory level's roof and each precision's ceiling.
  QToolButton* levelToggle(MemoryLevel level) const { return levelToggles_[static_cast<size_t>(level)]; }
  QToolButton* precisionToggle(Precision precision) const { return precisionToggles_[static_cast<size_t>(precision)]; }
  QPushButton* resetZoomButton() const { return resetZoom_; }
  // Whether drawn points carry their names, and those names (in placed order, see timeDiscs): elided in the
  // middle, each shown only where it covers no other name and no other point's disc.
  QCheckBox* labelsBox() const { return labelsBox_; }
  const std::vector<QGraphicsSimpleTextItem*>& pointLabels() const { return labels_; }
  // Beside the Labels box, while names are on: how many drawn points got no name (no room), else hidden.
  QLabel* labelsNote() const { return labelsNote_; }
  // The details of the point last clicked, shown beside the chart (rich text).
  QString pointDetails() const;
  // The point under the mouse, whose details the tooltip shows.
  std::optional<size_t> hoveredPoint() const { return hovered_; }
  // The empty-state or note line under the chart.
  QString message() const;

  // The points of the current kind, and which of them a scatter series draws (by index into points()).
  const std::vector<RooflinePoint>& points() const { return points_; }
  const std::vector<size_t>& drawnPoints(const QScatterSeries* series) const;
  DeviceRoofs roofs() const { return roofs_; }
  MemoryLevel level() const;
  RooflineGrouping grouping() const;
  // The hover text of a point.
  QString pointDescription(size_t pointIndex) const;
  // Selects a point's kernel (its first kernel for a group) in the session, as a click does.
  void activatePoint(size_t pointIndex);
  // Selects and zooms to a point's kernel and asks for the timeline, as a double click or the details' link does.
  void showPointOnTimeline(size_t pointIndex);

 signals:
  // The user asked to see the selected kernel on the timeline (the window shows the Timeline tab).
  void showTimelineRequested();

 public:
  // The discs whose area shows each drawn point's time, in placed order (see drawnPoints).
  const std::vector<QGraphicsEllipseItem*>& timeDiscs() const { return discs_; }
  // The ring around the point that holds the session's selected kernel (empty when none does).
  QScatterSeries* selectionSeries() const { return selectionSeries_; }

 private:
  void reload();
  void rebuildPoints();
  // Redraws the chart; KEEP_ZOOM keeps the zoomed range (a roof toggled) instead of going home (new x values).
  void rebuildChart(bool keepZoom = false);
  void addRoofs(double xMin, double xMax);
  std::vector<MemoryLevel> shownLevels() const;
  std::vector<Precision> shownPrecisions() const;
  // The drawn point under a viewport position (within its marker), if any.
  std::optional<size_t> pointAtPosition(QPointF viewportPosition) const;
  void placeDiscs();
  void showHover(QPointF viewportPosition);
  void updateSelection();
  // The details beside the chart for a point: its description and a link to it on the timeline.
  void showPointDetails(size_t pointIndex);
  // The details' link "point:N" was clicked.
  void openDetailsLink(const QString& link);
  std::optional<size_t> pointAt(const QScatterSeries* series, QPointF value) const;

  TraceSession* session_;
  QComboBox* levelBox_;
  QComboBox* kindBox_;
  std::array<QToolButton*, 3> levelToggles_{};
  std::array<QToolButton*, 4> precisionToggles_{};
  QPushButton* resetZoom_;
  QChart* chart_;
  RooflineChartView* chartView_;
  QLabel* message_;
  QCheckBox* labelsBox_;
  QLabel* labelsNote_;
  QLabel* details_;
  RooflineChart data_;
  std::vector<RooflinePoint> points_;
  DeviceRoofs roofs_;
  std::unordered_map<const QScatterSeries*, std::vector<size_t>> drawn_;
  std::vector<std::pair<size_t, QPointF>> placed_;  // drawn point index and position
  std::vector<double> placedSizes_;                 // disc diameters of placed_, in pixels (area ~ time)
  std::vector<QGraphicsEllipseItem*> discs_;        // the discs, by placed_ index
  std::vector<QGraphicsSimpleTextItem*> labels_;    // the names, by placed_ index
  std::optional<size_t> hovered_;
  QScatterSeries* selectionSeries_ = nullptr;
};

}  // namespace gpuscope::ui
