#include "ui/timeline/fold_density.h"

#include <algorithm>
#include <cmath>

namespace gpuscope::ui {

QColor FoldDensity::washOf(const QColor& fill) {
  QColor wash = fill;
  wash.setAlpha(46);
  return wash;
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
  coverage.fractions(g.timeAtX(left), g.nsPerPixel(), static_cast<size_t>(right - left), busy_);
  // Neighbouring columns of one height are filled as one rectangle.
  double busySum = 0.0;
  int runStart = left;
  int runHeight = -1;
  auto flush = [&](int end) {
    if (runHeight > 0) p.fillRect(QRect(runStart, bar.bottom() + 1 - runHeight, end - runStart, runHeight), fill);
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
  return busySum / (right - left);
}

}  // namespace gpuscope::ui
