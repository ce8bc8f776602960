#pragma once
// RooflineView: the log-log roofline chart of the session's trace (kernel metrics from `import-ncu`): roofs
// with their values, points sized by time and coloured by the roof that bounds them, hover details, and a
// click that selects the kernel in the session.
#include <QPointF>
#include <QWidget>
#include <optional>
#include <unordered_map>
#include <vector>

#include "core/roofline/roofline.h"
#include "core/stats/nvtx_ranges.h"

class QChart;
class QChartView;
class QComboBox;
class QLabel;
class QScatterSeries;

namespace gpuscope::ui {

class TraceSession;

class RooflineView : public QWidget {
  Q_OBJECT
 public:
  explicit RooflineView(TraceSession* session, QWidget* parent = nullptr);

  QChart* chart() const { return chart_; }
  QComboBox* levelBox() const { return levelBox_; }
  QComboBox* kindBox() const { return kindBox_; }
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
  // The ring around the point that holds the session's selected kernel (empty when none does).
  QScatterSeries* selectionSeries() const { return selectionSeries_; }

 private:
  void reload();
  void rebuildPoints();
  void rebuildChart();
  void addRoofs(double xMin, double xMax, const std::vector<Precision>& precisions);
  void updateSelection();
  std::optional<size_t> pointAt(const QScatterSeries* series, QPointF value) const;

  TraceSession* session_;
  QComboBox* levelBox_;
  QComboBox* kindBox_;
  QChart* chart_;
  QChartView* chartView_;
  QLabel* message_;
  std::vector<RooflineKernel> kernels_;
  std::vector<NvtxRange> ranges_;
  std::vector<RooflinePoint> points_;
  DeviceRoofs roofs_;
  std::unordered_map<const QScatterSeries*, std::vector<size_t>> drawn_;
  std::vector<std::pair<size_t, QPointF>> placed_;  // drawn point index and position
  QScatterSeries* selectionSeries_ = nullptr;
  std::unordered_map<uint64_t, EventRef> kernelEvents_;  // pid << 32 | correlationId -> kernel
};

}  // namespace gpuscope::ui
