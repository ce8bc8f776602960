#pragma once
// The timeline benchmark behind `gpuscope-ui --bench FILE`: time to first frame, then frame times
// over a sweep of zoom levels and pans, offscreen at 1920x1080, printed as a table.
#include <QString>
#include <cstdio>

namespace gpuscope::ui {

struct TimelineBenchOptions {
  int width = 1920;
  int height = 1080;
  int pansPerLevel = 16;             // view positions per zoom level, spread over the trace
  double zoomStep = 4.0;             // each level shows 1/zoomStep of the previous span
  long long narrowestSpanNs = 1000;  // the last level: 1 us
  double targetP99Ms = 16.0;
};

// Loads FILE, paints a TimelineView of it into an offscreen 1920x1080 image and prints to OUT the
// time to first frame (load + first paint) and p50/p99/max frame times per zoom level, from the
// whole trace down to 1 us, with pans at each level. Needs a QApplication. Returns 0 when every
// level meets the p99 target, 2 when one misses it, 1 (with one sentence on OUT) when the file
// cannot be read.
// One GPU metric counter row (CounterRowKind::paintSeries) over a synthetic series of 10M samples, painted at
// each zoom level from the whole series down to 100 us, pans at each: the paint time per frame, printed to OUT.
// runTimelineBench runs it after its own sweep.
void runCounterRowBench(std::FILE* out, const TimelineBenchOptions& options = {});

int runTimelineBench(const QString& file, std::FILE* out = stdout, const TimelineBenchOptions& options = {});

}  // namespace gpuscope::ui
