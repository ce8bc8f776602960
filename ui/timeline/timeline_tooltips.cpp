#include "ui/timeline/timeline_tooltips.h"

#include "core/model/trace_summary.h"
#include "ui/timeline/timeline_palette.h"

namespace gpuscope::ui {
namespace {

QString durationText(TimeNs ns) { return QString::fromStdString(formatDuration(ns)); }

}  // namespace

QString rulerTooltip(const Trace& trace, TimeNs t) {
  return QStringLiteral("%1 from the trace start").arg(durationText(t - trace.startTime()));
}

QString itemTooltip(const Trace& trace, const TimelineHit& hit, const TimelineNameCache& names) {
  const Track& track = trace.track(hit.track);
  const Lane& lane = track.lanes[hit.lane];
  if (hit.item->isFold()) {
    return QStringLiteral("<b>%1 events</b><br>%2 span, %3 from the trace start<br><i>click to zoom in</i>")
        .arg(hit.item->count)
        .arg(durationText(hit.item->end - hit.item->start), durationText(hit.item->start - trace.startTime()));
  }
  uint32_t index = hit.item->first;
  QString name = names.displayName(lane.name[index]).toHtmlEscaped();
  TimeNs duration = lane.end[index] - lane.start[index];
  QString text = QStringLiteral("<b>%1</b><br>%2").arg(name, durationText(duration));
  if (track.kind == TrackKind::GpuMemory && !lane.style.empty()) {
    text += QStringLiteral(" &middot; %1").arg(memoryKindName(lane.style[index]));
  }
  text += QStringLiteral("<br>at %1 from the trace start").arg(durationText(lane.start[index] - trace.startTime()));
  return text;
}

}  // namespace gpuscope::ui
