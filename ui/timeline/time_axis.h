#pragma once
// TimeAxis: the ruler's tick spacing and labels, adapted to the zoom; times count from the trace start.
#include <string>

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

// Where the ruler's labels count from: the trace start (0) while labels stay short, else a round time (a
// multiple of 1000 steps) at or before FIRST_TICK, so that deep into a long trace the ticks read "+1.5 us"
// rather than "13235761.5 us". FIRST_TICK and LAST_TICK count from the trace start.
TimeNs rulerAnchor(TimeNs firstTick, TimeNs lastTick, const RulerScale& scale);
// TICK's label: formatRulerLabel from the trace start, or "+1.5 us" from a non-zero ANCHOR.
std::string rulerTickLabel(TimeNs tick, TimeNs anchor, const RulerScale& scale);
// ANCHOR exactly, in seconds with the digits after the point in groups of three: "13.235 76 s".
std::string formatRulerAnchor(TimeNs anchor);

const char* unitName(TimeUnit unit);

}  // namespace gpuscope::ui
