#pragma once
// The home range of a log-log roofline chart: whole decades around every drawable point and the roofs,
// kept finite and at most kMaxRooflineDecades tall or wide whatever the data (a report matched to the wrong
// trace can give zeros, infinities and absurd rates). The single roofline and the compare roofline both use it.
#include <vector>

namespace gpuscope {

// The most decades a roofline axis spans: enough for any real kernel, few enough for one label per decade.
inline constexpr double kMaxRooflineDecades = 12;

// A log axis range, min < max, both finite and positive.
struct LogRange {
  double min = 1;
  double max = 10;
};

struct RooflineRange {
  LogRange x;  // arithmetic intensity, FLOP/byte
  LogRange y;  // performance, in the caller's unit (the views use GFLOP/s)
};

// A point of the chart (x intensity, y performance); one that is not finite and positive is not drawable.
struct RooflineXY {
  double x = 0;
  double y = 0;
};

// Whether a point can sit on log axes.
bool isDrawable(const RooflineXY& point);

// The home range for POINTS under roofs whose highest shown compute peak is PEAK (0: none) and whose shown
// memory bandwidths are BANDWIDTHS (y per x unit; non-positive ones ignored): a decade below the lowest
// drawable point, a decade beyond the highest intensity or ridge point (peak / bandwidth), and a third of a
// decade above the highest point or peak. With no drawable point: 0.01 to the ridge on x, 1 to the peak on y.
// When the data asks for more than kMaxRooflineDecades, the top of each axis (where the roofs are) is kept.
RooflineRange rooflineHomeRange(const std::vector<RooflineXY>& points, double peak,
                                const std::vector<double>& bandwidths);

// [MIN, MAX] made usable as a log axis range: finite, positive, ordered, at least a hair wide and at most
// kMaxRooflineDecades + 2 decades (a zoom-out stops there), inside [1e-300, 1e300].
LogRange clampLogRange(double min, double max);

}  // namespace gpuscope
