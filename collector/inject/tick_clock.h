#pragma once
// TickClock: the session clock (CLOCK_MONOTONIC, in ns) read from the CPU's time-stamp counter.
//
// The recorder reads the clock twice per interposed OS-runtime call (nearly all of them far
// shorter than the 1 us threshold, timed only to be left out) and once per NVTX event. rdtsc costs
// about 9 ns where clock_gettime costs about 20 ns: this halves the interposer's own cost per call.
// Each thread anchors the counter to CLOCK_MONOTONIC (one clock_gettime) at most 1 ms before each
// reading, and converts the ticks since its anchor at a rate measured against CLOCK_MONOTONIC (first
// 20 ms after the start, then each time the span since the start has doubled): readings stay
// within a few ns of clock_gettime's, and never go back within a thread.
//
// The counter is used only on x86-64 where the kernel itself keeps time with it (clocksource "tsc":
// invariant, and synchronized across CPUs), and once the rate is known; until then, and elsewhere,
// now() is clock_gettime.
#include <cstdint>

namespace gpuscope::inject {

class TickClock {
 public:
  // Decides whether the counter can be used. Called once, at load time; reads sysfs with raw
  // system calls (open and read are interposed).
  static void initialize();
  // CLOCK_MONOTONIC now, in ns.
  static int64_t now();
};

}  // namespace gpuscope::inject
