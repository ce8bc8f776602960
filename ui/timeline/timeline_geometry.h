#pragma once
// TimelineGeometry: where the view range of the timeline lands in pixels, for one frame or one
// input event. A value: the canvas makes one from the session's view range and its own size.
#include <QRect>
#include <algorithm>
#include <cmath>
#include <utility>

#include "core/query/draw_list.h"

namespace gpuscope::ui {

struct TimelineGeometry {
  static constexpr double kFoldPixels = 3.0;  // events narrower than this fold into blocks

  QRect area;  // the event area: right of the labels, below the ruler
  TimeNs viewStart = 0;
  TimeNs viewEnd = 0;

  double nsPerPixel() const {
    double span = static_cast<double>(viewEnd - viewStart);
    return std::max(span, 1.0) / area.width();
  }
  double xForTime(TimeNs t) const { return area.left() + static_cast<double>(t - viewStart) / nsPerPixel(); }
  TimeNs timeAtX(double x) const {
    return viewStart + static_cast<TimeNs>(std::llround((x - area.left()) * nsPerPixel()));
  }
  DrawView drawView() const { return DrawView{viewStart, viewEnd, nsPerPixel(), kFoldPixels}; }
};

// The pixel columns [left, right) of [x0, x1): at least one pixel wide.
inline std::pair<int, int> pixelSpan(double x0, double x1) {
  int left = static_cast<int>(std::floor(x0));
  int right = static_cast<int>(std::floor(x1));
  if (right <= left) right = left + 1;
  return {left, right};
}

}  // namespace gpuscope::ui
