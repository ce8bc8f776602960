#pragma once
// The timeline's tooltip texts (rich text) for the ruler, a folded block and an event bar.
#include <QString>

#include "core/model/trace.h"
#include "ui/timeline/timeline_name_cache.h"
#include "ui/timeline/timeline_row_kind.h"

namespace gpuscope::ui {

// Over the ruler: time T in BASE ("1.5 ms from the trace start", "25.3 ms session time").
QString rulerTooltip(const Trace& trace, TimeNs t, TimeBase base);
// Over a bar or a folded block of a track (HIT.item set); kernels also show their demangled name.
QString itemTooltip(const Trace& trace, const TimelineHit& hit, const TimelineNameCache& names, TimeBase base);

}  // namespace gpuscope::ui
