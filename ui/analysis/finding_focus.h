#pragma once
// Going from a finding to the timeline: the event a finding's range names (the kernel, copy or API call
// that starts and ends exactly there), and the session zoomed to the range, the range picked and the
// event selected.
#include <optional>

#include "core/analysis/finding.h"
#include "core/model/trace.h"
#include "ui/session/trace_session.h"

namespace gpuscope::ui {

// The GPU work on RANGE's stream, or the call on RANGE's thread, spanning exactly RANGE; nothing for a
// range that is a gap or a stretch of several events.
std::optional<EventRef> eventOfRange(const Trace& trace, const FindingRange& range);

// Zooms SESSION to RANGE with a tenth of its length on each side, picks it as the ruler range, and
// selects its event (or clears the selection).
void focusFindingRange(TraceSession& session, const FindingRange& range);

}  // namespace gpuscope::ui
