#include "ui/timeline/gpu_shading.h"

#include <algorithm>

#include "ui/timeline/timeline_pixels.h"

namespace gpuscope::ui {

QColor gpuShadeColor(GpuShadeSpan::Kind kind) {
  return kind == GpuShadeSpan::Kind::Idle ? QColor(220, 60, 60, 46) : QColor(235, 160, 30, 40);
}

int64_t gpuDeviceOfRow(const Trace& trace, const TimelineRow& row) {
  switch (row.kind) {
    case RowKind::Device:
    case RowKind::Utilization:
      return row.deviceIndex < trace.devices().size() ? trace.devices()[row.deviceIndex].id : -1;
    case RowKind::Stream:
      return row.tracks.empty() ? -1 : trace.track(row.tracks.front()).deviceId;
    case RowKind::Track:
      return row.track != TimelineRow::kNoTrack && trace.track(row.track).isGpu() ? trace.track(row.track).deviceId
                                                                                  : -1;
    default:
      return -1;
  }
}

void paintGpuShading(QPainter& p, const Trace& trace, const TimelineLayout& layout, const TimelineGeometry& g,
                     int contentToCanvasY, const GpuShading& shading) {
  if (shading.empty()) return;
  for (const TimelineLayout::Placement& shown : layout.shown()) {
    int top = shown.top + contentToCanvasY;
    if (top + shown.height < g.area.top() || top > g.area.bottom()) continue;
    int64_t device = gpuDeviceOfRow(trace, layout.row(shown.row));
    if (device < 0) continue;
    for (const GpuShadeSpan& span : shading) {
      if (span.deviceId != device || span.end <= g.viewStart || span.start >= g.viewEnd) continue;
      double x0 = clampToArea(g.xForTime(span.start), g.area);
      double x1 = clampToArea(g.xForTime(span.end), g.area);
      p.fillRect(QRectF(x0, top, std::max(1.0, x1 - x0), shown.height), gpuShadeColor(span.kind));
    }
  }
}

}  // namespace gpuscope::ui
