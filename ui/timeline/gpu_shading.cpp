#include "ui/timeline/gpu_shading.h"

#include <algorithm>

#include "ui/timeline/timeline_pixels.h"

namespace gpuscope::ui {

QColor gpuShadeColor(GpuShadeSpan::Kind kind) {
  return kind == GpuShadeSpan::Kind::Idle ? QColor(220, 60, 60, 46) : QColor(235, 160, 30, 40);
}

void paintGpuShading(QPainter& p, const Trace& trace, const TimelineLayout& layout, const TimelineRowKinds& kinds,
                     const TimelineGeometry& g, int contentToCanvasY, const GpuShading& shading) {
  if (shading.empty()) return;
  for (const TimelineLayout::Placement& shown : layout.shown()) {
    int top = shown.top + contentToCanvasY;
    if (top + shown.height < g.area.top() || top > g.area.bottom()) continue;
    const TimelineRow& row = layout.row(shown.row);
    int64_t device = kinds.of(row).gpuDevice(trace, row);
    if (device == TimelineRowKind::kNoGpu) continue;
    for (const GpuShadeSpan& span : shading) {
      if (span.deviceId != device || span.end <= g.viewStart || span.start >= g.viewEnd) continue;
      double x0 = clampToArea(g.xForTime(span.start), g.area);
      double x1 = clampToArea(g.xForTime(span.end), g.area);
      p.fillRect(QRectF(x0, top, std::max(1.0, x1 - x0), shown.height), gpuShadeColor(span.kind));
    }
  }
}

}  // namespace gpuscope::ui
