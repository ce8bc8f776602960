#include "ui/timeline/gpu_shading.h"

#include <algorithm>

#include "core/analysis/verdict/analysis_report.h"
#include "ui/text.h"
#include "ui/timeline/timeline_pixels.h"

namespace gpuscope::ui {

QColor gpuShadeColor(GpuShadeSpan::Kind kind) {
  return kind == GpuShadeSpan::Kind::Idle ? QColor(220, 60, 60, 46) : QColor(235, 160, 30, 40);
}

const GpuShadeSpan* gpuShadeAt(const GpuShading& shading, int64_t device, TimeNs t) {
  const GpuShadeSpan* found = nullptr;
  for (const GpuShadeSpan& span : shading) {
    if (span.deviceId != device || t < span.start || t >= span.end) continue;
    if (span.kind == GpuShadeSpan::Kind::Idle) return &span;
    found = &span;
  }
  return found;
}

QString gpuShadeName(GpuShadeSpan::Kind kind) {
  return kind == GpuShadeSpan::Kind::Idle ? QStringLiteral("GPU idle > %1 ms").arg(kShadedGapMs)
                                          : QStringLiteral("GPU busy < %1%").arg(kShadedLowUsePercent);
}

QString gpuShadeReason(GpuShadeSpan::Kind kind) {
  return kind == GpuShadeSpan::Kind::Idle
             ? QStringLiteral(
                   "No kernel, memcpy or memset ran on this GPU context for longer than %1 ms "
                   "(the analysis's gpu_gaps): the GPU waited on the host.")
                   .arg(kShadedGapMs)
             : QStringLiteral(
                   "The GPU context was busy less than %1% of this part of the run "
                   "(the analysis's gpu_time_util): the GPU was underused.")
                   .arg(kShadedLowUsePercent);
}

QString gpuShadeTooltip(const GpuShadeSpan& span) {
  QString length = durationText(span.end - span.start);
  QString what = span.kind == GpuShadeSpan::Kind::Idle
                     ? QStringLiteral("<b>GPU idle</b> for %1").arg(length)
                     : QStringLiteral("<b>GPU busy under %1%</b> for %2").arg(kShadedLowUsePercent).arg(length);
  return QStringLiteral("%1<br>%2").arg(what, gpuShadeReason(span.kind).toHtmlEscaped());
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
