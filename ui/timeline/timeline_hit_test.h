#pragma once
// What is under a point of the timeline: the shown row there, and what its kind says is under the
// point in it (on a track row the lane and the bar or folded block, or the nearest one within two pixels).
#include <QPoint>

#include "core/model/trace.h"
#include "ui/timeline/timeline_geometry.h"
#include "ui/timeline/timeline_layout.h"
#include "ui/timeline/timeline_row_kinds.h"

namespace gpuscope::ui {

// POS is in canvas coordinates; rows start RULER_HEIGHT below the top, scrolled by SCROLL_Y. Left of
// the event area (over the labels) the answer names the row only.
TimelineHit hitTestTimeline(const Trace* trace, const TimelineLayout& layout, const TimelineRowKinds& kinds,
                            const TimelineGeometry& g, QPoint pos, int scrollY, int rulerHeight);

}  // namespace gpuscope::ui
