#pragma once
// FoldDensity: paints a folded run of short events by how busy each pixel column under it is (as Nsight
// Systems and Tracy do), so that a launch-bound stream 15% busy at a wide zoom does not read as 100% busy.
#include <QColor>
#include <QPainter>
#include <QRect>
#include <unordered_map>
#include <vector>

#include "core/query/lane_coverage.h"
#include "ui/timeline/timeline_geometry.h"

namespace gpuscope::ui {

class FoldDensity {
 public:
  // A new trace (or none): the lanes the coverage was built from are gone.
  void clear() { coverage_.clear(); }

  // Fills BAR (whose columns may extend past the event area G.area) with one column per pixel, each as tall
  // as the fraction of its time LANE is busy (at least one pixel where it is busy at all), bottom-aligned,
  // over a faint wash of FILL that marks the run's extent. Returns the run's busy fraction in [0, 1].
  double paint(QPainter& p, const Lane& lane, const TimelineGeometry& g, const QRect& bar, const QColor& fill);

  // The tint behind the columns: FILL faded into the row background.
  static QColor washOf(const QColor& fill);

 private:
  const LaneCoverage& coverageOf(const Lane& lane);

  // Built on the first fold painted in a lane; a lane's columns never move once the trace is loaded.
  std::unordered_map<const Lane*, LaneCoverage> coverage_;
  std::vector<float> busy_;           // reused per fold
  std::vector<QRect> columns_;        // reused per fold
  const Lane* cursorLane_ = nullptr;  // the lane whose last fold cursor_ ended in
  size_t cursor_ = 0;
};

}  // namespace gpuscope::ui
