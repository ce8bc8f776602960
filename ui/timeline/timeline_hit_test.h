#pragma once
// What is under a point of the timeline: the row, and on a track row the lane and the bar or
// folded block (or the nearest one within two pixels).
#include <QPoint>
#include <optional>

#include "core/model/trace.h"
#include "core/query/draw_list.h"
#include "ui/timeline/timeline_geometry.h"
#include "ui/timeline/timeline_layout.h"

namespace gpuscope::ui {

struct TimelineHit {
  int row = -1;
  uint32_t track = TimelineRow::kNoTrack;
  uint32_t lane = 0;
  std::optional<DrawItem> item;
};

// POS is in canvas coordinates; rows start RULER_HEIGHT below the top, scrolled by SCROLL_Y.
TimelineHit hitTestTimeline(const Trace* trace, const TimelineLayout& layout, const TimelineGeometry& g, QPoint pos,
                            int scrollY, int rulerHeight);

}  // namespace gpuscope::ui
