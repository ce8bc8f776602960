#include "ui/timeline/fold_density.h"

#include <algorithm>
#include <cmath>

#include "ui/timeline/timeline_palette.h"

namespace gpuscope::ui {

QColor FoldDensity::washOf(const QColor& fill) {
  // Mixed with the row background here rather than blended per pixel: an opaque fill is the raster
  // engine's fast path, and thousands of blocks are painted per frame when zoomed out.
  constexpr double kShare = 0.18;
  const QColor& under = timeline_colors::kBackground;
  auto mix = [](int a, int b) { return static_cast<int>(std::lround(kShare * a + (1.0 - kShare) * b)); };
  return QColor(mix(fill.red(), under.red()), mix(fill.green(), under.green()), mix(fill.blue(), under.blue()));
}

const LaneCoverage& FoldDensity::coverageOf(const Lane& lane) {
  auto it = coverage_.find(&lane);
  if (it == coverage_.end()) it = coverage_.emplace(&lane, LaneCoverage(lane)).first;
  return it->second;
}

double FoldDensity::paint(QPainter& p, const Lane& lane, const TimelineGeometry& g, const QRect& bar,
                          const QColor& fill) {
  const QRect& area = g.area;
  const int left = std::max(bar.left(), area.left());
  const int right = std::min(bar.left() + bar.width(), area.right() + 1);
  const LaneCoverage& coverage = coverageOf(lane);
  if (right <= left) return 0.0;
  p.fillRect(QRect(left, bar.top(), right - left, bar.height()), washOf(fill));
  // The folds of a lane come in time order within a frame: each search starts where the last one ended.
  if (&lane != cursorLane_) {
    cursorLane_ = &lane;
    cursor_ = 0;
  }
  coverage.fractions(g.timeAtX(left), g.nsPerPixel(), static_cast<size_t>(right - left), busy_, cursor_);
  // Neighbouring columns of one height are one rectangle.
  double busySum = 0.0;
  int runStart = left;
  int runHeight = -1;
  columns_.clear();
  auto flush = [&](int end) {
    if (runHeight > 0) columns_.emplace_back(runStart, bar.bottom() + 1 - runHeight, end - runStart, runHeight);
  };
  for (int x = left; x < right; ++x) {
    const double fraction = static_cast<double>(busy_[static_cast<size_t>(x - left)]);
    busySum += fraction;
    int height = static_cast<int>(std::lround(fraction * bar.height()));
    if (fraction > 0.0) height = std::max(height, 1);
    if (height != runHeight) {
      flush(x);
      runStart = x;
      runHeight = height;
    }
  }
  flush(right);
  // fillRect with a colour is the raster engine's fast path, and changes no painter state.
  for (const QRect& column : columns_) p.fillRect(column, fill);
  return busySum / (right - left);
}

}  // namespace gpuscope::ui
