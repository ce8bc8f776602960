#include "ui/timeline/timeline_tooltips.h"

#include <algorithm>

#include "core/model/time_math.h"
#include "core/model/trace_summary.h"
#include "ui/text.h"
#include "ui/timeline/timeline_palette.h"

namespace gpuscope::ui {
namespace {

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
    // The events of a fold lie wholly inside its span and never overlap: their durations add up to its busy time.
    TimeNs busy = 0;
    for (uint32_t i = hit.item->first; i < hit.item->first + hit.item->count && i < lane.size(); ++i)
      busy = saturatingAdd(busy, std::max<TimeNs>(0, spanNs(lane.start[i], lane.end(i))));
    const TimeNs span = std::max<TimeNs>(1, spanNs(hit.item->start, hit.item->end));
    return QStringLiteral("<b>%1 events</b><br>%2 span, %3% busy, at %4<br><i>click to zoom in</i>")
        .arg(hit.item->count)
        .arg(durationText(span))
        .arg(100.0 * static_cast<double>(busy) / static_cast<double>(span), 0, 'f', 1)
        .arg(timeText(trace, hit.item->start, base));
  }
  uint32_t index = hit.item->first;
  QString name = names.displayName(lane.name[index]).toHtmlEscaped();
  TimeNs duration = lane.end(index) - lane.start[index];
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
