#pragma once
// RooflineChartView: a chart view for log-log roofline charts: rubber-band and wheel zoom around the cursor,
// R (or resetZoom) back to the home range, y tick labels in engineering units (GFLOP/s, TFLOP/s) that never
// overlap, and the tooltip of the point under the mouse. Files dragged onto it go to the window beneath.
#include <QChartView>
#include <QPointF>
#include <QRectF>
#include <QStringList>
#include <functional>
#include <vector>

class QGraphicsSimpleTextItem;
class QLogValueAxis;

namespace gpuscope::ui {

// The x axis' tick labels (FLOP/byte): plain numbers from 0.0001 to 1000000 ("10000", not "1e+04").
inline constexpr const char* kIntensityLabelFormat = "%.7g";

class RooflineChartView : public QChartView {
  Q_OBJECT
 public:
  // Tells whether a press at a viewport position is on a point: such a press selects, it starts no rubber band.
  using PointHitTest = std::function<bool(QPointF viewportPosition)>;
  // The tooltip text at a viewport position; empty where there is no point.
  using PointToolTip = std::function<QString(QPointF viewportPosition)>;

  explicit RooflineChartView(QChart* chart, QWidget* parent = nullptr);

  // Replaces the chart's axes with log axes titled X_TITLE and Y_TITLE (y values in GFLOP/s, labelled in
  // engineering units), attaches every series of the chart, and makes [X_MIN, X_MAX] x [Y_MIN, Y_MAX] the home
  // range shown now.
  void installAxes(const QString& xTitle, const QString& yTitle, double xMin, double xMax, double yMin, double yMax);
  // Removes the axes (a chart with no series).
  void clearAxes();
  QLogValueAxis* xAxis() const { return xAxis_; }
  QLogValueAxis* yAxis() const { return yAxis_; }
  bool hasAxes() const;                       // installed and not cleared since
  QRectF homeRange() const { return home_; }  // x: intensity, y: GFLOP/s
  QRectF visibleRange() const;                // the axes' ranges now
  bool isZoomed() const;

  void setPointHitTest(PointHitTest test) { pointHit_ = std::move(test); }
  // Answers the tooltip request of a mouse at rest (which would otherwise hide any tooltip: the scene has
  // no item tooltips) with TIP's text.
  void setPointToolTip(PointToolTip tip) { pointTip_ = std::move(tip); }

  // The position of a value (x intensity, y GFLOP/s) in the chart's item coordinates, in the viewport, and back.
  QPointF chartPosition(QPointF value) const;
  QPointF viewportPosition(QPointF value) const;
  QPointF valueAt(QPointF viewportPosition) const;

  // The y tick labels drawn (engineering units), bottom to top, and their viewport heights.
  QStringList yTickLabels() const;
  std::vector<double> yTickPositions() const;

 public slots:
  void resetZoom();
  // Scales both log ranges by FACTOR (< 1 zooms in) keeping the value under VIEWPORT_POSITION in place.
  void zoomAround(QPointF viewportPosition, double factor);

 signals:
  void rangeChanged();
  // A press and release on a point (as the hit test says), at VIEWPORT_POSITION.
  void pointClicked(QPointF viewportPosition);
  // A double click on a point (as the hit test says), at VIEWPORT_POSITION.
  void pointDoubleClicked(QPointF viewportPosition);
  // The mouse moved, no button pressed, to VIEWPORT_POSITION.
  void hovered(QPointF viewportPosition);

 protected:
  void wheelEvent(QWheelEvent* event) override;
  void keyPressEvent(QKeyEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  void mouseDoubleClickEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  bool viewportEvent(QEvent* event) override;

 private:
  void setRanges(double xMin, double xMax, double yMin, double yMax);
  // How many labels each axis has room for without overlap, at the plot's size now.
  int xLabelRoom() const;
  int yLabelRoom() const;
  void updateTicks();

  QLogValueAxis* xAxis_ = nullptr;
  QLogValueAxis* yAxis_ = nullptr;
  QRectF home_;
  PointHitTest pointHit_;
  PointToolTip pointTip_;
  bool pressOnPoint_ = false;
  QPointF pressPosition_;
  std::vector<QGraphicsSimpleTextItem*> yLabels_;
};

// Log-axis tick values in [MIN, MAX]: powers of 10 over 2 decades or more, powers of 2 over a factor of 4 or
// more, else 5 steps in between; at most MAX_COUNT of them (then every second, third... power, so that
// ticks stay where they were while one pans).
std::vector<double> logTicks(double min, double max, int maxCount = 64);
// The base of the log axis whose ticks logTicks gives.
double logTickBase(double min, double max, int maxCount = 64);

}  // namespace gpuscope::ui
