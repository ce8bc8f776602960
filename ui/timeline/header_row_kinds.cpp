#include "ui/timeline/header_row_kinds.h"

namespace gpuscope::ui {

TimelineHit HeaderRowKind::hitTest(const Trace& /*trace*/, const TimelineRow& /*row*/,
                                   const TimelineGeometry& /*geometry*/, QPoint /*pos*/, int /*yInRow*/) const {
  return {};
}

QString HeaderRowKind::tooltip(const TimelineRow& /*row*/, const TimelineHit& /*hit*/, double /*x*/,
                               const RowTooltipContext& /*context*/) const {
  return {};
}

void HeaderRowKind::onTraceChanged(const Trace* /*trace*/) { strip_.clear(); }

void HeaderRowKind::paint(QPainter& p, const TimelineRow& row, int top, RowPaintContext& context) {
  strip_.paint(p, row, top, context);
}

int64_t ProcessRowKind::gpuDevice(const Trace& /*trace*/, const TimelineRow& /*row*/) const { return kNoGpu; }

int64_t ThreadRowKind::gpuDevice(const Trace& /*trace*/, const TimelineRow& /*row*/) const { return kNoGpu; }

int64_t IdleThreadsRowKind::gpuDevice(const Trace& /*trace*/, const TimelineRow& /*row*/) const { return kNoGpu; }

int64_t DeviceRowKind::gpuDevice(const Trace& trace, const TimelineRow& row) const {
  return row.deviceIndex < trace.devices().size() ? static_cast<int64_t>(trace.devices()[row.deviceIndex].id) : kNoGpu;
}

int64_t MetricGroupRowKind::gpuDevice(const Trace& trace, const TimelineRow& row) const {
  return row.deviceIndex < trace.devices().size() ? static_cast<int64_t>(trace.devices()[row.deviceIndex].id) : kNoGpu;
}

int64_t StreamRowKind::gpuDevice(const Trace& trace, const TimelineRow& row) const {
  return row.tracks.empty() ? kNoGpu : static_cast<int64_t>(trace.track(row.tracks.front()).deviceId);
}

}  // namespace gpuscope::ui
