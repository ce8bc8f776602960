#pragma once
// Pixel helpers the timeline canvas's painting files share.
#include <QRect>
#include <algorithm>

namespace gpuscope::ui {

// Keeps a coordinate far from int overflow and from the raster engine's limits.
inline double clampToArea(double x, const QRect& area) {
  return std::clamp(x, static_cast<double>(area.left() - 4000), static_cast<double>(area.right() + 4000));
}

}  // namespace gpuscope::ui
