#include "ui/timeline/thread_state_row_kind.h"

#include <algorithm>
#include <cmath>

#include "core/samples/frame_names.h"
#include "core/samples/function_shares.h"
#include "ui/session/trace_session.h"
#include "ui/text.h"
#include "ui/timeline/timeline_palette.h"
#include "ui/timeline/timeline_tooltips.h"

namespace gpuscope::ui {
namespace {

namespace colors = timeline_colors;

// Bottom to top in a mixed column, and the legend's order.
constexpr ThreadActivity kStackOrder[] = {ThreadActivity::Running,   ThreadActivity::Preempted,
                                          ThreadActivity::BlockedIo, ThreadActivity::Sleeping,
                                          ThreadActivity::OffCpu,    ThreadActivity::Terminated};

size_t indexOf(ThreadActivity activity) { return static_cast<size_t>(activity); }

// The one state that holds (nearly) all of a column's observed time, if there is one.
std::optional<ThreadActivity> pureState(const ActivityTimes& times, int64_t total) {
  for (ThreadActivity a : kStackOrder)
    if (times[indexOf(a)] * 100 >= total * 99) return a;
  return std::nullopt;
}

QString escaped(const std::string& text) { return QString::fromStdString(text).toHtmlEscaped(); }

}  // namespace

void ThreadStateRowKind::onTraceChanged(const Trace* trace) {
  trace_ = trace;
  times_.clear();
  counts_.clear();
  highlighted_.clear();
  highlightedTrace_ = nullptr;
  highlightedSamples_.clear();
}

const ThreadActivityColumns* ThreadStateRowKind::columnsOf(const TimelineRow& row) const {
  return trace_ ? hostActivity(*trace_).thread(row.globalTid) : nullptr;
}

void ThreadStateRowKind::paint(QPainter& p, const TimelineRow& row, int top, RowPaintContext& context) {
  const ThreadActivityColumns* thread = hostActivity(context.trace).thread(row.globalTid);
  if (!thread) return;
  paintStates(p, *thread, top, context.geometry);
  QString label = TraceSession::highlightedFunctionOf(&context.trace);
  if (label.isEmpty()) {
    paintTicks(p, *thread, top, context.geometry);
  } else {
    samplesOf(context.trace, label);
    paintHighlightedTicks(p, *thread, top, context.geometry);
  }
  ++context.stats.items;
}

const std::vector<bool>& ThreadStateRowKind::samplesOf(const Trace& trace, const QString& label) {
  if (label == highlighted_ && highlightedTrace_ == &trace) return highlightedSamples_;
  highlighted_ = label;
  highlightedTrace_ = &trace;
  const CpuSamples& samples = hostActivity(trace).samples();
  const std::string text = label.toStdString();
  // Each name judged once, then each sample by its frames' names.
  std::vector<bool> nameMatches(samples.names.size());
  for (size_t n = 0; n < samples.names.size(); ++n) nameMatches[n] = functionLabel(samples.names[n]) == text;
  highlightedSamples_.assign(samples.size(), false);
  for (size_t s = 0; s < samples.size(); ++s)
    for (const SampleFrame& frame : samples.stackOf(s))
      if (nameMatches[frame.symbol]) {
        highlightedSamples_[s] = true;
        break;
      }
  return highlightedSamples_;
}

void ThreadStateRowKind::paintStates(QPainter& p, const ThreadActivityColumns& thread, int top,
                                     const TimelineGeometry& g) {
  const QRect& area = g.area;
  const int pixels = area.width();
  if (!thread.hasStates() || pixels <= 0) return;
  thread.timePerColumn(g.viewStart, g.nsPerPixel(), static_cast<size_t>(pixels), times_);
  const int stripTop = top + kStripTop;
  // Runs of columns in one state are one rectangle; a mixed column is a stack of its states' shares.
  int runStart = 0;
  std::optional<ThreadActivity> runState;
  auto closeRun = [&](int end) {
    if (runState && end > runStart)
      p.fillRect(QRect(area.left() + runStart, stripTop, end - runStart, kStripHeight), threadActivityColor(*runState));
  };
  for (int x = 0; x < pixels; ++x) {
    const ActivityTimes& times = times_[static_cast<size_t>(x)];
    int64_t total = 0;
    for (int64_t t : times) total += t;
    std::optional<ThreadActivity> pure = total > 0 ? pureState(times, total) : std::nullopt;
    if (pure != runState || total == 0 || !pure) {
      closeRun(x);
      runStart = x;
      runState = pure;
    }
    if (total == 0 || pure) continue;
    double y = stripTop + kStripHeight;
    for (ThreadActivity a : kStackOrder) {
      int64_t t = times[indexOf(a)];
      if (t == 0) continue;
      double h = kStripHeight * static_cast<double>(t) / static_cast<double>(total);
      p.fillRect(QRectF(area.left() + x, y - h, 1, h), threadActivityColor(a));
      y -= h;
    }
  }
  closeRun(pixels);
}

void ThreadStateRowKind::paintTicks(QPainter& p, const ThreadActivityColumns& thread, int top,
                                    const TimelineGeometry& g) {
  const QRect& area = g.area;
  const int pixels = area.width();
  if (thread.sampleTime.empty() || pixels <= 0) return;
  thread.samplesPerColumn(g.viewStart, g.nsPerPixel(), static_cast<size_t>(pixels), counts_);
  uint32_t most = *std::max_element(counts_.begin(), counts_.end());
  if (most == 0) return;
  const int tickBottom = top + kTickTop + kTickHeight;
  // One sample per column: a full tick each. Several: a histogram of how many fell in each column.
  for (int x = 0; x < pixels; ++x) {
    uint32_t count = counts_[static_cast<size_t>(x)];
    if (count == 0) continue;
    int h = most <= 1 ? kTickHeight
                      : std::max(2, static_cast<int>(std::lround(kTickHeight * static_cast<double>(count) / most)));
    p.fillRect(QRect(area.left() + x, tickBottom - h, 1, h), colors::kSampleTick);
  }
}

void ThreadStateRowKind::paintHighlightedTicks(QPainter& p, const ThreadActivityColumns& thread, int top,
                                               const TimelineGeometry& g) {
  const QRect& area = g.area;
  const int pixels = area.width();
  if (thread.sampleTime.empty() || pixels <= 0) return;
  // Every sample a faint tick; those of the highlighted function a full one in the highlight colour.
  QColor faint = colors::kSampleTick;
  faint.setAlpha(60);
  const int tickTop = top + kTickTop;
  const double nsPerPixel = g.nsPerPixel();
  auto [first, last] = thread.samplesIn(g.viewStart, g.viewEnd);
  counts_.assign(static_cast<size_t>(pixels), 0);  // 1: a sample, 2: a highlighted one
  for (size_t i = first; i < last; ++i) {
    auto column =
        static_cast<int64_t>(std::floor(static_cast<double>(thread.sampleTime[i] - g.viewStart) / nsPerPixel));
    if (column < 0 || column >= pixels) continue;
    uint32_t mark = highlightedSamples_[thread.sampleIndex[i]] ? 2 : 1;
    counts_[static_cast<size_t>(column)] = std::max(counts_[static_cast<size_t>(column)], mark);
  }
  for (int x = 0; x < pixels; ++x) {
    uint32_t mark = counts_[static_cast<size_t>(x)];
    if (mark != 0)
      p.fillRect(QRect(area.left() + x, tickTop, 1, kTickHeight), mark == 2 ? highlightTickColor() : faint);
  }
}

TimelineHit ThreadStateRowKind::hitTest(const Trace& trace, const TimelineRow& row, const TimelineGeometry& g,
                                        QPoint pos, int yInRow) const {
  TimelineHit hit;
  if (yInRow < kStripTop + kStripHeight) return hit;  // the state strip picks no sample
  const ThreadActivityColumns* thread = hostActivity(trace).thread(row.globalTid);
  if (!thread) return hit;
  // The middle of the pixel clicked: a tick fills the column its sample's time falls in.
  auto reach = static_cast<TimeNs>(std::ceil(kSampleReachPixels * g.nsPerPixel()));
  if (auto nearest = thread->nearestSample(g.timeAtX(pos.x() + 0.5), reach)) hit.sample = thread->sampleIndex[*nearest];
  return hit;
}

void ThreadStateRowKind::paintSelectedSample(QPainter& p, const Trace& trace, const TimelineRow& row, uint32_t sample,
                                             int top, const TimelineGeometry& g) {
  const CpuSamples& samples = hostActivity(trace).samples();
  if (sample >= samples.size() || hostActivity(trace).thread(row.globalTid) == nullptr) return;
  double x = g.xForTime(samples.start[sample]);
  if (x < g.area.left() - kSelectedTickWidth || x > g.area.right() + kSelectedTickWidth) return;
  // Centred on the column the sample's own tick fills, from the strip's top to the ticks' bottom.
  int column = static_cast<int>(std::floor(x));
  p.fillRect(
      QRect(column - kSelectedTickWidth / 2, top + kStripTop, kSelectedTickWidth, kTickTop + kTickHeight - kStripTop),
      colors::kSelection);
}

QString ThreadStateRowKind::detail(const TimelineRow& row, const TimelineGeometry& geometry) const {
  const ThreadActivityColumns* thread = columnsOf(row);
  if (!thread || !thread->hasStates()) return row.detail;
  TimeNs from = geometry.viewStart, to = geometry.viewEnd;
  int64_t observed = 0;
  for (ThreadActivity a : kThreadActivities)
    if (a != ThreadActivity::Terminated) observed += thread->timeIn(a, from, to);
  if (observed <= 0) return row.detail;
  double running = static_cast<double>(thread->timeIn(ThreadActivity::Running, from, to)) / observed;
  return QStringLiteral("%1% running").arg(running * 100.0, 0, 'f', running > 0 && running < 0.1 ? 1 : 0);
}

QString ThreadStateRowKind::legend() {
  QString text;
  for (ThreadActivity a : kStackOrder) {
    if (a == ThreadActivity::Terminated) continue;
    if (!text.isEmpty()) text += QStringLiteral("&nbsp;&nbsp;");
    text += QStringLiteral("<span style=\"color:%1\">&#9632;</span>&nbsp;%2")
                .arg(threadActivityColor(a).name(),
                     QString::fromUtf8(activityLabel(a)).replace(QLatin1Char(' '), QStringLiteral("&nbsp;")));
  }
  return text;
}

QString ThreadStateRowKind::tooltip(const TimelineRow& row, const TimelineHit& /*hit*/, double x,
                                    const RowTooltipContext& context) const {
  const Trace& trace = context.trace;
  const ThreadActivityColumns* thread = hostActivity(trace).thread(row.globalTid);
  if (!thread) return {};
  const TimelineGeometry& g = context.geometry;
  TimeNs t = g.timeAtX(x);
  QString text;
  if (auto span = thread->spanAt(t)) {
    TimeNs start = thread->spanStart[*span];
    TimeNs length = thread->spanEnd[*span] - start;
    text += QStringLiteral("<b>%1</b> for %2<br>from %3")
                .arg(QString::fromUtf8(activityLabel(thread->activity[*span])), durationText(length),
                     rulerTooltip(trace, start, context.timeBase));
  } else if (thread->hasStates()) {
    text += QStringLiteral("<b>No scheduling record</b> here");
  }
  auto reach = static_cast<TimeNs>(std::ceil(kSampleReachPixels * g.nsPerPixel()));
  if (auto nearest = thread->nearestSample(t, reach)) {
    const CpuSamples& samples = hostActivity(trace).samples();
    uint32_t index = thread->sampleIndex[*nearest];
    auto stack = samples.stackOf(index);
    if (!text.isEmpty()) text += QStringLiteral("<br><br>");
    text += QStringLiteral("<b>CPU sample</b> at %1").arg(rulerTooltip(trace, samples.start[index], context.timeBase));
    auto [first, last] = thread->samplesIn(g.timeAtX(std::floor(x)), g.timeAtX(std::floor(x) + 1));
    if (last - first > 1) text += QStringLiteral(" (%1 in this pixel)").arg(countText(last - first));
    if (stack.empty()) text += QStringLiteral("<br>[no call stack]");
    size_t shown = std::min<size_t>(stack.size(), kTooltipFrames);
    for (size_t f = 0; f < shown; ++f)
      text += QStringLiteral("<br>&nbsp;&nbsp;%1").arg(escaped(frameLabel(samples.name(stack[f].symbol))));
    if (size_t more = stack.size() - shown; more > 0)
      text += more == 1 ? QStringLiteral("<br>&nbsp;&nbsp;… 1 more frame")
                        : QStringLiteral("<br>&nbsp;&nbsp;… %1 more frames").arg(more);
  }
  if (text.isEmpty()) return {};
  // A paragraph of its own that does not wrap: Qt breaks lines at the slash of "Blocked (I/O)".
  return text + QStringLiteral("<p style=\"white-space:pre\">") + legend() + QStringLiteral("</p>");
}

}  // namespace gpuscope::ui
