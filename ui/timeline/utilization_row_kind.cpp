#include "ui/timeline/utilization_row_kind.h"

#include <QPolygonF>
#include <algorithm>

#include "ui/timeline/timeline_palette.h"

namespace gpuscope::ui {

namespace colors = timeline_colors;

void UtilizationRowKind::onTraceChanged(const Trace* trace) {
  trace_ = trace;
  utilization_.clear();
  if (trace) utilization_.resize(trace->devices().size());
}

const DeviceUtilization* UtilizationRowKind::utilizationOf(uint32_t deviceIndex) const {
  if (!trace_ || deviceIndex >= utilization_.size()) return nullptr;
  auto& merged = utilization_[deviceIndex];
  if (!merged) merged = DeviceUtilization::forDevice(*trace_, trace_->devices()[deviceIndex].id);
  return &*merged;
}

int64_t UtilizationRowKind::gpuDevice(const Trace& trace, const TimelineRow& row) const {
  return row.deviceIndex < trace.devices().size() ? static_cast<int64_t>(trace.devices()[row.deviceIndex].id) : kNoGpu;
}

void UtilizationRowKind::paint(QPainter& p, const TimelineRow& row, int top, RowPaintContext& context) {
  const DeviceUtilization* util = utilizationOf(row.deviceIndex);
  if (!util) return;
  const QRect& area = context.geometry.area;
  const int pixels = area.width();
  util->fractions(context.geometry.viewStart, context.geometry.nsPerPixel(), static_cast<size_t>(pixels), busy_);
  const double bottom = top + row.height - 2;
  const double full = row.height - 5;
  QPolygonF outline;
  outline.reserve(2 * pixels + 2);
  outline << QPointF(area.left(), bottom);
  for (int i = 0; i < pixels; ++i) {
    // Any work at all shows as at least a sliver, so short bursts stay visible zoomed out.
    double fraction = static_cast<double>(busy_[static_cast<size_t>(i)]);
    double y = fraction > 0 ? bottom - std::max(2.0, full * fraction) : bottom;
    outline << QPointF(area.left() + i, y) << QPointF(area.left() + i + 1, y);
  }
  outline << QPointF(area.left() + pixels, bottom);
  p.setPen(Qt::NoPen);
  p.setBrush(colors::kUtilization);
  p.drawPolygon(outline);
  p.setBrush(Qt::NoBrush);
  p.setPen(colors::kGrid);
  p.drawLine(QLineF(area.left(), bottom + 0.5, area.right() + 1, bottom + 0.5));
}

QString UtilizationRowKind::detail(const TimelineRow& row, const TimelineGeometry& geometry) const {
  const DeviceUtilization* util = utilizationOf(row.deviceIndex);
  if (!util) return row.detail;
  TimeNs span = geometry.viewEnd - geometry.viewStart;
  double busy = static_cast<double>(util->busyTime(geometry.viewStart, geometry.viewEnd)) /
                static_cast<double>(std::max<TimeNs>(span, 1));
  return busy > 0 && busy < 0.001 ? QStringLiteral("<0.1% busy in view")
                                  : QStringLiteral("%1% busy in view").arg(busy * 100.0, 0, 'f', busy < 0.1 ? 1 : 0);
}

QString UtilizationRowKind::tooltip(const TimelineRow& row, const TimelineHit& /*hit*/, double x,
                                    const RowTooltipContext& context) const {
  const DeviceUtilization* util = utilizationOf(row.deviceIndex);
  if (!util) return {};
  const TimelineGeometry& geometry = context.geometry;
  TimeNs t0 = geometry.timeAtX(x);
  TimeNs t1 = std::max(geometry.timeAtX(x + 1), t0 + 1);
  double busy = static_cast<double>(util->busyTime(t0, t1)) / static_cast<double>(t1 - t0);
  return QStringLiteral("GPU busy %1% under the pointer").arg(busy * 100.0, 0, 'f', 0);
}

}  // namespace gpuscope::ui
