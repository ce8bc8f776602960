#pragma once
// The timeline's tooltip texts (rich text) for the ruler, a folded block and an event bar.
#include <QString>

#include "core/model/trace.h"
#include "ui/timeline/timeline_hit_test.h"
#include "ui/timeline/timeline_name_cache.h"

namespace gpuscope::ui {

// Over the ruler: how far time T is from the trace's start.
QString rulerTooltip(const Trace& trace, TimeNs t);
// Over a bar or a folded block of a track (HIT.item set).
QString itemTooltip(const Trace& trace, const TimelineHit& hit, const TimelineNameCache& names);

}  // namespace gpuscope::ui
