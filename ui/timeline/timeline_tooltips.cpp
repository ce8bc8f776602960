#include "ui/timeline/timeline_tooltips.h"

#include "core/model/trace_summary.h"
#include "ui/timeline/timeline_palette.h"

namespace gpuscope::ui {
namespace {

QString durationText(TimeNs ns) { return QString::fromStdString(formatDuration(ns)); }

// "1.5 ms from the trace start" or "25.3 ms session time".
QString timeText(const Trace& trace, TimeNs t, TimeBase base) {
  QString shown = durationText(t - trace.timeOrigin(base));
  return base == TimeBase::Trace ? QStringLiteral("%1 from the trace start").arg(shown)
                                 : QStringLiteral("%1 session time").arg(shown);
}

}  // namespace

QString rulerTooltip(const Trace& trace, TimeNs t, TimeBase base) { return timeText(trace, t, base); }

QString itemTooltip(const Trace& trace, const TimelineHit& hit, const TimelineNameCache& names, TimeBase base) {
  const Track& track = trace.track(hit.track);
  const Lane& lane = track.lanes[hit.lane];
  if (hit.item->isFold()) {
    return QStringLiteral("<b>%1 events</b><br>%2 span, at %3<br><i>click to zoom in</i>")
        .arg(hit.item->count)
        .arg(durationText(hit.item->end - hit.item->start), timeText(trace, hit.item->start, base));
  }
  uint32_t index = hit.item->first;
  QString name = names.displayName(lane.name[index]).toHtmlEscaped();
  TimeNs duration = lane.end[index] - lane.start[index];
  QString text = QStringLiteral("<b>%1</b><br>").arg(name);
  EventRef event{hit.track, hit.lane, index};
  if (track.kind == TrackKind::GpuKernels && trace.longNameId(event) != lane.name[index])
    text += QStringLiteral("%1<br>").arg(QString::fromStdString(trace.longName(event)).toHtmlEscaped());
  text += durationText(duration);
  if (track.kind == TrackKind::GpuMemory && !lane.style.empty()) {
    text += QStringLiteral(" &middot; %1").arg(memoryKindName(lane.style[index]));
  }
  text += QStringLiteral("<br>at %1").arg(timeText(trace, lane.start[index], base));
  return text;
}

}  // namespace gpuscope::ui
