#include "ui/timeline/memory_row_kind.h"

#include <QPolygonF>
#include <algorithm>
#include <cmath>

#include "core/model/global_id.h"
#include "core/schema/nsys_enums.h"
#include "core/text/units.h"
#include "ui/text.h"
#include "ui/timeline/timeline_palette.h"
#include "ui/timeline/timeline_tooltips.h"

namespace gpuscope::ui {
namespace {

namespace colors = timeline_colors;

const QColor kMemoryFill{0x2b, 0x8c, 0x9e, 0xa0};
const QColor kMemoryEdge{0x1b, 0x66, 0x75};
const QColor kPeak{0xc0, 0x39, 0x2b};

}  // namespace

void MemoryRowKind::onTraceChanged(const Trace* trace) {
  trace_ = trace;
  devicePeak_.clear();
}

const ProcessMemory* MemoryRowKind::processOf(const Trace& trace, const TimelineRow& row) const {
  const MemoryUsage& usage = memoryUsage(trace);
  return row.memoryProcess < usage.processes.size() ? &usage.processes[row.memoryProcess] : nullptr;
}

int64_t MemoryRowKind::gpuDevice(const Trace& trace, const TimelineRow& row) const {
  return row.deviceIndex < trace.devices().size() ? static_cast<int64_t>(trace.devices()[row.deviceIndex].id) : kNoGpu;
}

int64_t MemoryRowKind::scaleOf(const Trace& trace, const TimelineRow& row) const {
  if (row.deviceIndex < trace.devices().size() && trace.devices()[row.deviceIndex].totalMemory > 0)
    return trace.devices()[row.deviceIndex].totalMemory;
  const ProcessMemory* process = processOf(trace, row);
  if (!process) return 1;
  auto [at, added] = devicePeak_.try_emplace(process->deviceId, 0);
  if (added) at->second = memoryUsage(trace).devicePeak(process->deviceId).bytes;
  return std::max<int64_t>(1, std::max(at->second, process->peak));
}

double MemoryRowKind::yOf(int64_t bytes, int64_t scale, int top, int height) {
  const double bottom = top + height - 2;
  const double full = height - 5;
  double fraction = std::clamp(static_cast<double>(bytes) / static_cast<double>(std::max<int64_t>(scale, 1)), 0.0, 1.0);
  // Any memory at all shows as at least a sliver against a GPU's 141 GB.
  return bytes > 0 ? bottom - std::max(1.5, full * fraction) : bottom;
}

void MemoryRowKind::paint(QPainter& p, const TimelineRow& row, int top, RowPaintContext& context) {
  const ProcessMemory* process = processOf(context.trace, row);
  if (!process || process->time.empty()) return;
  const TimelineGeometry& g = context.geometry;
  const int pixels = g.area.width();
  const int64_t scale = scaleOf(context.trace, row);
  // Each column shows the most held at any time within it, so a short-lived allocation still shows.
  levels_.assign(static_cast<size_t>(std::max(pixels, 0)), -1);
  ptrdiff_t k = process->stepAt(g.viewStart);
  const auto steps = static_cast<ptrdiff_t>(process->time.size());
  for (int i = 0; i < pixels; ++i) {
    TimeNs columnEnd = g.timeAtX(g.area.left() + i + 1);
    int64_t most = k >= 0 ? process->allocated[static_cast<size_t>(k)] : -1;
    while (k + 1 < steps && process->time[static_cast<size_t>(k + 1)] < columnEnd) {
      ++k;
      most = std::max(most, process->allocated[static_cast<size_t>(k)]);
    }
    levels_[static_cast<size_t>(i)] = most;
  }
  const double bottom = top + row.height - 2;
  QPolygonF area;
  area.reserve(2 * pixels + 4);
  int first = 0;
  while (first < pixels && levels_[static_cast<size_t>(first)] < 0) ++first;
  if (first < pixels) {
    area << QPointF(g.area.left() + first, bottom);
    for (int i = first; i < pixels; ++i) {
      double y = yOf(levels_[static_cast<size_t>(i)], scale, top, row.height);
      area << QPointF(g.area.left() + i, y) << QPointF(g.area.left() + i + 1, y);
    }
    area << QPointF(g.area.left() + pixels, bottom);
    p.setPen(QPen(kMemoryEdge, 1.0));
    p.setBrush(kMemoryFill);
    p.drawPolygon(area);
  }
  // The peak: a marker at its time and level, and its size beside it.
  double px = g.xForTime(process->peakTime);
  if (process->peak > 0 && px >= g.area.left() - 1 && px <= g.area.right() + 1) {
    double py = yOf(process->peak, scale, top, row.height);
    QPolygonF marker;
    marker << QPointF(px, py) << QPointF(px - 4, py - 6) << QPointF(px + 4, py - 6);
    p.setPen(Qt::NoPen);
    p.setBrush(kPeak);
    p.drawPolygon(marker);
    QString text = QStringLiteral("peak %1").arg(bytesText(process->peak));
    QFontMetrics metrics(context.font);
    int width = metrics.horizontalAdvance(text);
    double tx = px + 6 + width <= g.area.right() ? px + 6 : px - 6 - width;
    double ty = std::max<double>(top + metrics.ascent() + 1, py + metrics.ascent() / 2.0 - 3);
    p.setFont(context.font);
    p.setPen(kPeak.darker(120));
    p.drawText(QPointF(tx, std::min(ty, bottom - 2)), text);
  }
  p.setBrush(Qt::NoBrush);
  p.setPen(colors::kGrid);
  p.drawLine(QLineF(g.area.left(), bottom + 0.5, g.area.right() + 1, bottom + 0.5));
}

TimelineHit MemoryRowKind::hitTest(const Trace& trace, const TimelineRow& row, const TimelineGeometry& geometry,
                                   QPoint pos, int /*yInRow*/) const {
  TimelineHit hit;
  const ProcessMemory* process = processOf(trace, row);
  if (!process || process->time.empty()) return hit;
  ptrdiff_t k = process->stepAt(geometry.timeAtX(pos.x()));
  // A step whose edge is just right of the pointer is the one meant.
  auto next = static_cast<size_t>(k + 1);
  if (next < process->time.size() && geometry.xForTime(process->time[next]) - pos.x() <= kStepPixels) k += 1;
  if (k < 0) return hit;
  hit.memoryEvent = process->event[static_cast<size_t>(k)];
  return hit;
}

QString MemoryRowKind::detail(const TimelineRow& row, const TimelineGeometry& /*geometry*/) const {
  if (!trace_) return row.detail;
  const ProcessMemory* process = processOf(*trace_, row);
  if (!process) return row.detail;
  QString text = QStringLiteral("peak %1").arg(bytesText(process->peak));
  if (row.deviceIndex < trace_->devices().size() && trace_->devices()[row.deviceIndex].totalMemory > 0)
    text += QStringLiteral(" of %1").arg(bytesText(trace_->devices()[row.deviceIndex].totalMemory));
  return row.detail.isEmpty() ? text : row.detail + QStringLiteral(", ") + text;
}

QString MemoryRowKind::tooltip(const TimelineRow& row, const TimelineHit& hit, double x,
                               const RowTooltipContext& context) const {
  const Trace& trace = context.trace;
  const ProcessMemory* process = processOf(trace, row);
  if (!process) return {};
  TimeNs t = context.geometry.timeAtX(x);
  ptrdiff_t k = process->stepAt(t);
  int64_t held = k >= 0 ? process->allocated[static_cast<size_t>(k)] : 0;
  QString text = QStringLiteral("<b>Device memory</b> (GPU %1, pid %2): %3 allocated<br>at %4")
                     .arg(process->deviceId)
                     .arg(global_id::pid(process->globalPid))
                     .arg(bytesText(held), rulerTooltip(trace, t, context.timeBase));
  if (!hit.memoryEvent) return text;
  const MemoryUsage& usage = memoryUsage(trace);
  if (*hit.memoryEvent >= usage.events.size()) return text;
  const MemoryUsageEvent& event = usage.events[*hit.memoryEvent];
  std::string_view kind = nsys_enum::memoryKindLabel(event.memKind);
  text += QStringLiteral("<br><br>%1 of %2 (%3) at %4")
              .arg(event.free ? QStringLiteral("Free") : QStringLiteral("Allocation"), bytesText(event.bytes),
                   QString::fromUtf8(kind.data(), static_cast<int>(kind.size())),
                   rulerTooltip(trace, event.time, context.timeBase));
  return text + QStringLiteral("<br>click to select it");
}

}  // namespace gpuscope::ui
