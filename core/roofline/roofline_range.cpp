#include "core/roofline/roofline_range.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace gpuscope {
namespace {

constexpr double kLowestExponent = -300;
constexpr double kHighestExponent = 300;
constexpr double kNarrowestDecades = 0.004;  // about 1 %: the narrowest zoom
constexpr double kWidestDecades = kMaxRooflineDecades + 2;

bool finitePositive(double value) { return std::isfinite(value) && value > 0; }

double power(double exponent) { return std::pow(10.0, std::clamp(exponent, kLowestExponent, kHighestExponent)); }

// Decades from LOW to HIGH (exponents), cut from below to kMaxRooflineDecades: the roofs sit at the top.
LogRange decades(double low, double high) {
  high = std::clamp(high, kLowestExponent + 1, kHighestExponent);
  low = std::clamp(low, high - kMaxRooflineDecades, high - 1);
  return {power(low), power(high)};
}

}  // namespace

bool isDrawable(const RooflineXY& point) { return finitePositive(point.x) && finitePositive(point.y); }

RooflineRange rooflineHomeRange(const std::vector<RooflineXY>& points, double peak,
                                const std::vector<double>& bandwidths) {
  constexpr double kInfinity = std::numeric_limits<double>::infinity();
  double xLow = kInfinity, xHigh = 0, yLow = kInfinity, yHigh = 0;
  for (const auto& point : points) {
    if (!isDrawable(point)) continue;
    xLow = std::min(xLow, point.x);
    xHigh = std::max(xHigh, point.x);
    yLow = std::min(yLow, point.y);
    yHigh = std::max(yHigh, point.y);
  }
  bool anyPoint = yHigh > 0;
  if (!finitePositive(peak)) peak = 0;
  for (double bandwidth : bandwidths) {
    double ridge = peak / bandwidth;
    if (finitePositive(bandwidth) && finitePositive(ridge)) xHigh = std::max(xHigh, ridge);
  }
  RooflineRange range;
  range.x = decades(anyPoint ? std::floor(std::log10(xLow)) - 1 : -2, std::ceil(std::log10(std::max(xHigh, 1.0))) + 1);
  range.y = decades(anyPoint ? std::floor(std::log10(yLow)) - 1 : 0,
                    std::ceil(std::log10(std::max({peak, yHigh, 1.0}))) + 0.3);
  return range;
}

LogRange clampLogRange(double min, double max) {
  bool usable = finitePositive(min) && finitePositive(max) && max > min;
  double low = usable ? std::log10(min) : kLowestExponent;
  double high = usable ? std::log10(max) : kHighestExponent;
  double span = high - low;
  if (usable && low >= kLowestExponent && high <= kHighestExponent && span >= kNarrowestDecades &&
      span <= kWidestDecades)
    return {min, max};
  // Too wide or too narrow: the same centre, the nearest allowed span, then moved inside the double range.
  double centre = usable ? (low + high) / 2 : 0;
  span = std::clamp(span, kNarrowestDecades, kWidestDecades);
  centre = std::clamp(centre, kLowestExponent + span / 2, kHighestExponent - span / 2);
  return {std::pow(10.0, centre - span / 2), std::pow(10.0, centre + span / 2)};
}

}  // namespace gpuscope
