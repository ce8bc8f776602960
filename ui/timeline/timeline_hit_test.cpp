#include "ui/timeline/timeline_hit_test.h"

namespace gpuscope::ui {

TimelineHit hitTestTimeline(const Trace* trace, const TimelineLayout& layout, const TimelineRowKinds& kinds,
                            const TimelineGeometry& g, QPoint pos, int scrollY, int rulerHeight) {
  if (!trace || pos.y() < rulerHeight) return {};
  int contentY = pos.y() - rulerHeight + scrollY;
  int row = layout.rowAt(contentY);
  if (row < 0 || pos.x() < g.area.left())
    return TimelineHit{row, TimelineRow::kNoTrack, 0, std::nullopt, std::nullopt, std::nullopt};
  const TimelineRow& shown = layout.row(row);
  TimelineHit hit = kinds.of(shown).hitTest(*trace, shown, g, pos, contentY - layout.placementOf(row).top);
  hit.row = row;
  return hit;
}

}  // namespace gpuscope::ui
