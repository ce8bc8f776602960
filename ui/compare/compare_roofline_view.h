#pragma once
// CompareRooflineView: the roofline of two runs in one chart: A's and B's points (kernels by name) in their
// own shapes and colours, and an arrow from A's point to B's for each kernel name both runs measured. The
// title names each run's GPU, and a line warns when they differ.
#include <QPointF>
#include <QWidget>
#include <array>
#include <memory>
#include <vector>

#include "core/diff/roofline_pairs.h"
#include "core/model/trace.h"
#include "core/roofline/roofline.h"

class QChart;
class QComboBox;
class QGraphicsPolygonItem;
class QLabel;
class QLineSeries;
class QPushButton;
class QScatterSeries;
class QToolButton;

namespace gpuscope::ui {

class RooflineChartView;

class CompareRooflineView : public QWidget {
  Q_OBJECT
 public:
  CompareRooflineView(std::shared_ptr<const Trace> a, std::shared_ptr<const Trace> b, QWidget* parent = nullptr);

  QChart* chart() const { return chart_; }
  RooflineChartView* chartView() const { return chartView_; }
  QComboBox* levelBox() const { return levelBox_; }
  QPushButton* resetZoomButton() const { return resetZoom_; }
  // The checkable buttons that show or hide each precision's ceiling.
  QToolButton* precisionToggle(Precision precision) const { return precisionToggles_[static_cast<size_t>(precision)]; }
  MemoryLevel level() const;
  QString message() const;
  // The line that warns when A and B ran on different GPUs (hidden when they did not).
  QLabel* gpuWarning() const { return gpuWarning_; }

  // Kernels by name of each run, the pairs of names both runs can draw, and what draws them: the points of
  // A and B (by index into their points, in drawn order), and one arrow line and head per pair.
  const std::vector<RooflinePoint>& pointsA() const { return pointsA_; }
  const std::vector<RooflinePoint>& pointsB() const { return pointsB_; }
  const std::vector<RooflinePair>& pairs() const { return pairs_; }
  QScatterSeries* seriesA() const { return seriesA_; }
  QScatterSeries* seriesB() const { return seriesB_; }
  const std::vector<size_t>& drawnA() const { return drawnA_; }
  const std::vector<size_t>& drawnB() const { return drawnB_; }
  const std::vector<QLineSeries*>& arrowLines() const { return arrowLines_; }
  const std::vector<QGraphicsPolygonItem*>& arrowHeads() const { return arrowHeads_; }

  // The colour of the arrows.
  static QColor arrowColour();

 private:
  void rebuild();
  void placeArrowHeads();
  // The tooltip of the point at a viewport position; empty where there is none.
  QString toolTipAt(QPointF viewportPosition) const;

  std::shared_ptr<const Trace> a_;
  std::shared_ptr<const Trace> b_;
  QComboBox* levelBox_;
  QPushButton* resetZoom_;
  QChart* chart_;
  RooflineChartView* chartView_;
  QLabel* message_;
  QLabel* gpuWarning_ = nullptr;
  std::array<QToolButton*, 4> precisionToggles_{};
  std::vector<RooflinePoint> pointsA_;
  std::vector<RooflinePoint> pointsB_;
  DeviceRoofs roofsA_;
  DeviceRoofs roofsB_;
  std::vector<RooflinePair> pairs_;
  QScatterSeries* seriesA_ = nullptr;
  QScatterSeries* seriesB_ = nullptr;
  std::vector<size_t> drawnA_;
  std::vector<size_t> drawnB_;
  std::vector<QLineSeries*> arrowLines_;
  std::vector<QGraphicsPolygonItem*> arrowHeads_;
  QStringList loadProblems_;
};

}  // namespace gpuscope::ui
