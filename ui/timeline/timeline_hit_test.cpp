#include "ui/timeline/timeline_hit_test.h"

#include <vector>

#include "ui/timeline/timeline_pixels.h"

namespace gpuscope::ui {

TimelineHit hitTestTimeline(const Trace* trace, const TimelineLayout& layout, const TimelineGeometry& g, QPoint pos,
                            int scrollY, int rulerHeight) {
  TimelineHit hit;
  if (!trace || pos.y() < rulerHeight) return hit;
  int contentY = pos.y() - rulerHeight + scrollY;
  hit.row = layout.rowAt(contentY);
  if (hit.row < 0 || pos.x() < g.area.left()) return hit;
  const TimelineRow& row = layout.row(hit.row);
  if (row.kind != RowKind::Track) return hit;
  const Track& track = trace->track(row.track);
  TimelineLayout::Placement placed = layout.placementOf(hit.row);
  int inRow = contentY - placed.top - TimelineLayout::kTrackPadding;
  if (inRow < 0) return hit;
  auto lane = static_cast<uint32_t>(inRow / TimelineLayout::kLaneHeight);
  if (lane >= track.lanes.size()) return hit;
  hit.track = row.track;
  hit.lane = lane;
  std::vector<DrawItem> items;
  buildDrawList(track.lanes[lane], g.drawView(), items);
  // The item under the pointer, or failing that the nearest within two pixels.
  double best = 3.0;
  for (const DrawItem& item : items) {
    auto [left, right] =
        pixelSpan(clampToArea(g.xForTime(item.start), g.area), clampToArea(g.xForTime(item.end), g.area));
    double x = pos.x() + 0.5;
    double distance = x < left ? left - x : (x > right ? x - right : 0.0);
    if (distance < best) {
      best = distance;
      hit.item = item;
      if (distance == 0.0) break;
    }
  }
  return hit;
}

}  // namespace gpuscope::ui
