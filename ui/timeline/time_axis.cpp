#include "ui/timeline/time_axis.h"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/model/time_math.h"

namespace gpuscope::ui {
namespace {

constexpr TimeNs kUnitNs[] = {1, 1000, 1000000, 1000000000};

TimeNs unitNs(TimeUnit unit) { return kUnitNs[static_cast<int>(unit)]; }

// VALUE / DIVISOR rounded towards minus infinity (DIVISOR > 0).
TimeNs floorDiv(TimeNs value, TimeNs divisor) { return value >= 0 ? value / divisor : -((-(value + 1)) / divisor) - 1; }

}  // namespace

const char* unitName(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::Ns:
      return "ns";
    case TimeUnit::Us:
      return "us";
    case TimeUnit::Ms:
      return "ms";
    case TimeUnit::S:
      return "s";
  }
  return "ns";
}

RulerScale chooseRulerScale(double nsPerPixel, double minPixels) {
  RulerScale scale;
  double wanted = std::max(1.0, nsPerPixel * minPixels);
  // Walk 1, 2, 5, 10, 20, 50, ... until the step is wide enough (at most about 60 steps).
  TimeNs power = 1;
  static constexpr int kMultipliers[] = {1, 2, 5};
  bool found = false;
  while (!found) {
    for (int m : kMultipliers) {
      double candidate = static_cast<double>(power) * m;
      if (candidate >= wanted || power > TimeNs{100000000000000000}) {
        scale.step = power * m;
        scale.minorPerMajor = m == 2 ? 4 : 5;
        found = true;
        break;
      }
    }
    if (!found) power *= 10;
  }
  scale.unit = TimeUnit::Ns;
  for (TimeUnit unit : {TimeUnit::Us, TimeUnit::Ms, TimeUnit::S}) {
    if (saturatingMul(scale.step, 10) >= unitNs(unit)) scale.unit = unit;
  }
  // Decimals: how many digits the step needs below the unit (step 0.5 ms -> 1, 2 ms -> 0).
  TimeNs u = unitNs(scale.unit);
  scale.decimals = 0;
  TimeNs resolution = u;
  while (scale.step % resolution != 0 && resolution > 1) {
    resolution /= 10;
    ++scale.decimals;
  }
  return scale;
}

std::string formatRulerLabel(TimeNs relative, const RulerScale& scale) {
  TimeNs u = unitNs(scale.unit);
  bool negative = relative < 0;
  uint64_t magnitude = negative ? static_cast<uint64_t>(-(relative + 1)) + 1 : static_cast<uint64_t>(relative);
  uint64_t whole = magnitude / static_cast<uint64_t>(u);
  uint64_t fraction = magnitude % static_cast<uint64_t>(u);
  char buffer[64];
  if (scale.decimals == 0) {
    std::snprintf(buffer, sizeof buffer, "%s%" PRIu64 " %s", negative ? "-" : "", whole, unitName(scale.unit));
  } else {
    // Keep the leading DECIMALS digits of the fraction (the step makes the rest zero).
    uint64_t divisor = static_cast<uint64_t>(u);
    for (int i = 0; i < scale.decimals; ++i) divisor /= 10;
    uint64_t digits = fraction / divisor;
    std::snprintf(buffer, sizeof buffer, "%s%" PRIu64 ".%0*" PRIu64 " %s", negative ? "-" : "", whole, scale.decimals,
                  digits, unitName(scale.unit));
  }
  return buffer;
}

TimeNs rulerAnchor(TimeNs firstTick, TimeNs lastTick, const RulerScale& scale) {
  constexpr TimeNs kLongestWhole = 10000;  // labels up to "9999.5 us" stay counted from the trace start
  TimeNs farthest = std::max(std::llabs(firstTick), std::llabs(lastTick));
  if (farthest / unitNs(scale.unit) < kLongestWhole) return 0;
  // A power of ten at or above ten steps: the anchor moves rarely while panning, and the ticks after it
  // reach a grain plus a screen of steps, a few digits.
  TimeNs grain = 1;
  while (grain < saturatingMul(scale.step, 10) && grain <= kInt64Max / 10) grain *= 10;
  return saturatingMul(floorDiv(firstTick, grain), grain);
}

std::string rulerTickLabel(TimeNs tick, TimeNs anchor, const RulerScale& scale) {
  if (anchor == 0) return formatRulerLabel(tick, scale);
  return "+" + formatRulerLabel(tick - anchor, scale);
}

std::string formatRulerAnchor(TimeNs anchor) {
  bool negative = anchor < 0;
  uint64_t magnitude = negative ? static_cast<uint64_t>(-(anchor + 1)) + 1 : static_cast<uint64_t>(anchor);
  constexpr uint64_t kSecond = 1000000000;
  std::string text = (negative ? "-" : "") + std::to_string(magnitude / kSecond);
  if (uint64_t fraction = magnitude % kSecond; fraction != 0) {
    char digits[16];
    std::snprintf(digits, sizeof digits, "%09" PRIu64, fraction);
    std::string kept(digits);
    kept.erase(kept.find_last_not_of('0') + 1);
    text += '.' + kept;
  }
  return text + " s";
}

RulerTicks rulerTicks(TimeNs first, TimeNs last, const RulerScale& scale) {
  constexpr size_t kMostTicks = 10000;  // a bound on the loop whatever the caller passes
  RulerTicks result;
  TimeNs tick = saturatingMul(floorDiv(first, scale.step), scale.step);
  result.anchor = rulerAnchor(tick, last, scale);
  for (; tick <= last && result.ticks.size() < kMostTicks; tick = saturatingAdd(tick, scale.step)) {
    result.ticks.push_back({tick, rulerTickLabel(tick, result.anchor, scale)});
    if (tick == kInt64Max) break;
  }
  return result;
}

}  // namespace gpuscope::ui
