#include "ui/timeline/timeline_bench.h"

#include <QElapsedTimer>
#include <QImage>
#include <QPainter>
#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

#include "core/error.h"
#include "core/metrics/gpu_metric_names.h"
#include "core/metrics/metric_series.h"
#include "core/model/trace_summary.h"
#include "core/open/open_trace.h"
#include "ui/session/trace_session.h"
#include "ui/timeline/counter_row_kind.h"
#include "ui/timeline/timeline_canvas.h"
#include "ui/timeline/timeline_view.h"

namespace gpuscope::ui {
namespace {

double percentile(std::vector<double> values, double p) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  double rank = p * static_cast<double>(values.size() - 1);
  auto lo = static_cast<size_t>(std::floor(rank));
  auto hi = static_cast<size_t>(std::ceil(rank));
  return values[lo] + (values[hi] - values[lo]) * (rank - static_cast<double>(lo));
}

double millisecondsSince(const QElapsedTimer& timer) { return static_cast<double>(timer.nsecsElapsed()) / 1e6; }

}  // namespace

void runCounterRowBench(std::FILE* out, const TimelineBenchOptions& options) {
  // 10M samples 100 us apart (10 kHz for 1000 s), a wave with noise, as one GPU metric row.
  constexpr size_t kSamples = 10'000'000;
  constexpr TimeNs kPeriod = 100'000;
  QElapsedTimer build;
  build.start();
  std::vector<TimeNs> time(kSamples);
  std::vector<int64_t> value(kSamples);
  uint64_t noise = 0x9e3779b97f4a7c15ull;
  for (size_t i = 0; i < kSamples; ++i) {
    noise ^= noise << 13;
    noise ^= noise >> 7;
    noise ^= noise << 17;
    time[i] = static_cast<TimeNs>(i + 1) * kPeriod;
    double wave = 50 + 40 * std::sin(static_cast<double>(i) / 20000.0);
    value[i] = std::clamp<int64_t>(static_cast<int64_t>(wave) + static_cast<int64_t>(noise % 21) - 10, 0, 100);
  }
  MetricSeries series(std::string(gpu_metric::kSmsActive), std::move(time), std::move(value));
  double buildMs = millisecondsSince(build);
  const int width = options.width - 240;  // the event area beside the labels
  QImage image(width, CounterRowKind::kHeight, QImage::Format_ARGB32_Premultiplied);
  std::vector<SeriesStats> scratch;
  CounterPaint how;
  how.rect = QRectF(0, 2, width, CounterRowKind::kHeight - 4);
  how.period = kPeriod;
  how.scaleMax = CounterRowKind::scaleOf(series);
  const TimeNs start = series.times().front() - kPeriod;
  const double traceSpan = static_cast<double>(series.times().back() - start);
  std::fprintf(out,
               "\n  counter row, synthetic: %zu samples at 10 kHz over %s, one %d px row (series built in %.0f ms)\n",
               series.size(), formatDuration(static_cast<TimeNs>(traceSpan)).c_str(), width, buildMs);
  std::fprintf(out, "  %-12s %7s %9s %9s %9s %10s %12s\n", "view span", "frames", "p50 ms", "p99 ms", "max ms",
               "bin p50", "samples/px");
  for (double span = traceSpan; span >= 1e5; span /= 10) {
    std::vector<double> times;
    std::vector<double> binning;  // of which binning the samples (counterColumns)
    int pans = span >= traceSpan ? 4 : options.pansPerLevel;
    for (int k = 0; k < pans; ++k) {
      double offset = pans == 1 || span >= traceSpan ? 0 : (traceSpan - span) * k / (pans - 1);
      how.viewStart = start + static_cast<TimeNs>(std::llround(offset));
      how.nsPerPixel = span / width;
      image.fill(Qt::white);
      QElapsedTimer timer;
      timer.start();
      {
        QPainter painter(&image);
        CounterRowKind::paintSeries(painter, series, how, scratch);
      }
      times.push_back(millisecondsSince(timer));
      timer.restart();
      counterColumns(series, how, static_cast<size_t>(width), scratch);
      binning.push_back(millisecondsSince(timer));
    }
    std::fprintf(out, "  %-12s %7zu %9.3f %9.3f %9.3f %10.3f %12.1f\n",
                 formatDuration(static_cast<TimeNs>(span)).c_str(), times.size(), percentile(times, 0.5),
                 percentile(times, 0.99), *std::max_element(times.begin(), times.end()), percentile(binning, 0.5),
                 span / static_cast<double>(kPeriod) / width);
  }
}

int runTimelineBench(const QString& file, std::FILE* out, const TimelineBenchOptions& options) {
  QElapsedTimer total;
  total.start();
  std::shared_ptr<const Trace> trace;
  try {
    trace = std::shared_ptr<const Trace>(openTrace(file.toStdString()).load().release());
  } catch (const TraceError& error) {
    std::fprintf(out, "%s\n", error.what());
    return 1;
  }
  double loadMs = millisecondsSince(total);

  TraceSession session;
  TimelineView view(&session);
  view.setAttribute(Qt::WA_DontShowOnScreen);
  view.resize(options.width, options.height);
  view.show();  // polishes and lays out; never on screen
  // A zoom or pan repaints the canvas only (the scroll bar and find bar do not change), so that is
  // what a frame is; the first frame paints the whole view.
  QImage image(view.size(), QImage::Format_ARGB32_Premultiplied);
  TimelineCanvas* canvas = view.canvas();
  auto paint = [&] {
    QPainter painter(&image);
    canvas->render(&painter);
  };
  auto paintAll = [&] {
    QPainter painter(&image);
    view.render(&painter);
  };
  QElapsedTimer first;
  first.start();
  session.setTrace(trace);
  paintAll();
  double firstPaintMs = millisecondsSince(first);
  double firstFrameMs = millisecondsSince(total);

  const TimeNs start = trace->startTime();
  const TimeNs end = std::max(trace->endTime(), start + 1);
  const double traceSpan = static_cast<double>(end - start);
  std::fprintf(out, "gpuscope timeline benchmark: %s\n", file.toLocal8Bit().constData());
  std::fprintf(out, "  %zu events in %zu tracks over %s; offscreen %dx%d\n", trace->counts().total(),
               trace->tracks().size(), formatDuration(end - start).c_str(), options.width, options.height);
  std::fprintf(out, "  load %.1f ms + first paint %.1f ms = time to first frame %.1f ms\n\n", loadMs, firstPaintMs,
               firstFrameMs);
  std::fprintf(out, "  %-12s %7s %9s %9s %9s %10s %8s\n", "view span", "frames", "p50 ms", "p99 ms", "max ms",
               "items/frm", "folds");

  std::vector<double> all;
  bool allMet = true;
  double span = traceSpan;
  const double narrowest = std::min<double>(static_cast<double>(options.narrowestSpanNs), traceSpan);
  for (bool last = false; !last;) {
    if (span <= narrowest * 1.0001) {
      span = narrowest;
      last = true;
    }
    std::vector<double> times;
    double items = 0;
    double folds = 0;
    int pans = span >= traceSpan ? 1 : options.pansPerLevel;
    // Each position is painted twice: the first frame after a jump, then a repaint of it.
    for (int k = 0; k < pans; ++k) {
      double offset = pans == 1 ? 0 : (traceSpan - span) * k / (pans - 1);
      auto s = start + static_cast<TimeNs>(std::llround(offset));
      session.setViewRange(s, s + std::max<TimeNs>(1, static_cast<TimeNs>(std::llround(span))));
      for (int repeat = 0; repeat < 2; ++repeat) {
        QElapsedTimer timer;
        timer.start();
        paint();
        times.push_back(millisecondsSince(timer));
        items += static_cast<double>(canvas->lastFrame().items);
        folds += static_cast<double>(canvas->lastFrame().folds);
      }
    }
    double p99 = percentile(times, 0.99);
    allMet = allMet && p99 <= options.targetP99Ms;
    std::fprintf(out, "  %-12s %7zu %9.2f %9.2f %9.2f %10.0f %8.0f\n",
                 formatDuration(static_cast<TimeNs>(span)).c_str(), times.size(), percentile(times, 0.5), p99,
                 *std::max_element(times.begin(), times.end()), items / static_cast<double>(times.size()),
                 folds / static_cast<double>(times.size()));
    all.insert(all.end(), times.begin(), times.end());
    span /= options.zoomStep;
  }
  runCounterRowBench(out, options);
  double p99 = percentile(all, 0.99);
  std::fprintf(out, "\n  all %zu frames: p50 %.2f ms, p99 %.2f ms, max %.2f ms (target p99 <= %.0f ms: %s)\n",
               all.size(), percentile(all, 0.5), p99, *std::max_element(all.begin(), all.end()), options.targetP99Ms,
               allMet ? "met" : "missed");
  return allMet ? 0 : 2;
}

}  // namespace gpuscope::ui
