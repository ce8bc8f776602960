#pragma once
// GpuShading: stretches of a GPU to shade on its timeline rows (device header, utilization row, streams and
// their tracks), from the analysis: gaps where the GPU ran nothing, and chunks it used less than half of.
// The canvas paints them over the rows and under the selection, so the eye finds idle time at any zoom.
#include <QColor>
#include <QPainter>
#include <vector>

#include "core/model/trace.h"
#include "ui/timeline/timeline_geometry.h"
#include "ui/timeline/timeline_layout.h"
#include "ui/timeline/timeline_row_kinds.h"

namespace gpuscope::ui {

struct GpuShadeSpan {
  enum class Kind { Idle, LowUse };
  uint32_t deviceId = 0;  // TARGET_INFO_GPU id, as Track::deviceId and DeviceInfo::id
  TimeNs start = 0;
  TimeNs end = 0;
  Kind kind = Kind::Idle;
};

using GpuShading = std::vector<GpuShadeSpan>;

// The colours: translucent, so the events beneath stay readable.
QColor gpuShadeColor(GpuShadeSpan::Kind kind);

// The stretch of SHADING on DEVICE that holds T, or null; a gap before a low-use chunk, as gaps paint on top.
const GpuShadeSpan* gpuShadeAt(const GpuShading& shading, int64_t device, TimeNs t);
// What a shaded stretch is, for its tooltip (rich text): "GPU idle", its length and why it is shaded.
QString gpuShadeTooltip(const GpuShadeSpan& span);
// The legend's words for KIND ("GPU idle > 1 ms") and the sentence that says why it is shaded.
QString gpuShadeName(GpuShadeSpan::Kind kind);
QString gpuShadeReason(GpuShadeSpan::Kind kind);

// Paints SHADING over the shown rows of LAYOUT whose kind (in KINDS) says they show a GPU;
// CONTENT_TO_CANVAS_Y is added to a row's content top.
void paintGpuShading(QPainter& p, const Trace& trace, const TimelineLayout& layout, const TimelineRowKinds& kinds,
                     const TimelineGeometry& g, int contentToCanvasY, const GpuShading& shading);

}  // namespace gpuscope::ui
