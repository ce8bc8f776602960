#pragma once
// TimeAxis: the ruler's tick spacing and labels, adapted to the zoom; times count from the trace start.
// As in Perfetto and Tracy, one zoom level writes every label in one unit (s, ms, us or ns) with few
// digits: deep into a long trace the ticks count from an anchor shown once ("+1.5 us" after 13.23576 s).
#include <string>
#include <vector>

#include "core/model/trace_types.h"

namespace gpuscope::ui {

enum class TimeUnit { Ns, Us, Ms, S };

struct RulerScale {
  TimeNs step = 1;        // nanoseconds between labelled ticks: 1, 2 or 5 times a power of ten
  int minorPerMajor = 5;  // minor ticks per step (5 for steps of 1 and 5 * 10^k, 4 for 2 * 10^k)
  TimeUnit unit = TimeUnit::Ns;
  int decimals = 0;  // digits after the point so that every step shows
};

// The smallest step of 1, 2 or 5 * 10^k ns that puts ticks at least MIN_PIXELS apart at
// NS_PER_PIXEL, and the unit to write it in: the largest of ns, us, ms, s in which the step is
// at least 0.1 (so 100 ns is written 0.1 us, 50 ns stays 50 ns).
RulerScale chooseRulerScale(double nsPerPixel, double minPixels);

// "1.5 ms": RELATIVE (nanoseconds from the trace start) in the scale's unit and decimals.
std::string formatRulerLabel(TimeNs relative, const RulerScale& scale);

// Where the ruler's labels count from: the trace start (0) while every label from FIRST_TICK to LAST_TICK
// stays under 10000 units, else the multiple of a round grain (the power of ten at or above ten steps) at or
// before FIRST_TICK, so that the ticks after it stay a few digits long ("+12.5 us", never "+12840 us").
// FIRST_TICK and LAST_TICK count from the trace start.
TimeNs rulerAnchor(TimeNs firstTick, TimeNs lastTick, const RulerScale& scale);
// TICK's label: formatRulerLabel from the trace start, or "+1.5 us" from a non-zero ANCHOR.
std::string rulerTickLabel(TimeNs tick, TimeNs anchor, const RulerScale& scale);
// ANCHOR exactly, in seconds as one plain number, trailing zeros dropped: "13.23576 s", "2 s", "-0.5 s".
std::string formatRulerAnchor(TimeNs anchor);

struct RulerTick {
  TimeNs time = 0;  // from the trace start
  std::string label;
};

// Everything the ruler writes for a view from FIRST to LAST (both from the trace start) at SCALE: the
// anchor (0: none, labels count from the trace start) and every labelled tick from the one at or before
// FIRST to the last at or before LAST, in time order.
struct RulerTicks {
  TimeNs anchor = 0;
  std::vector<RulerTick> ticks;
};
RulerTicks rulerTicks(TimeNs first, TimeNs last, const RulerScale& scale);

const char* unitName(TimeUnit unit);

}  // namespace gpuscope::ui
