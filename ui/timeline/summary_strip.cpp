#include "ui/timeline/summary_strip.h"

#include "ui/timeline/timeline_palette.h"
#include "ui/timeline/timeline_pixels.h"

namespace gpuscope::ui {

void SummaryStrip::paint(QPainter& p, const TimelineRow& row, int top, RowPaintContext& context) {
  if (!row.collapsed) return;  // an open header's tracks are drawn in their own rows
  const TimelineGeometry& g = context.geometry;
  const QRect& area = g.area;
  const DrawView view = g.drawView();
  QRect strip(area.left(), top + 5, area.width(), row.height - 10);
  for (uint32_t trackIndex : row.tracks) {
    const Track& track = context.trace.track(trackIndex);
    if (track.lanes.empty()) continue;
    const Lane& lane = track.lanes.front();  // depth 0 only
    buildDrawList(lane, view, context.items);
    context.stats.items += context.items.size();
    QColor fold = foldColor(track.kind);
    for (const DrawItem& item : context.items) {
      auto [left, right] =
          pixelSpan(clampToArea(g.xForTime(item.start), area), clampToArea(g.xForTime(item.end), area));
      QRect bar(left, strip.top(), right - left, strip.height());
      if (item.isFold()) {
        ++context.stats.folds;
        density_.paint(p, lane, g, bar, fold);
        continue;
      }
      p.fillRect(bar, eventColor(track.kind, context.names.colorKey(lane.name[item.first]),
                                 lane.style.empty() ? 0 : lane.style[item.first]));
    }
  }
}

}  // namespace gpuscope::ui
