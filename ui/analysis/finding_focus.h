#pragma once
// Going from a finding to the timeline: the event a finding's range names (the kernel, copy or API call
// that starts and ends exactly there), and the session zoomed to the range, the range picked and the
// event selected.
#include <optional>
#include <vector>

#include "core/analysis/finding.h"
#include "core/model/time_interval.h"
#include "core/model/trace.h"
#include "ui/session/trace_session.h"

namespace gpuscope::ui {

// The GPU work on RANGE's stream, or the call on RANGE's thread, spanning exactly RANGE; nothing for a
// range that is a gap or a stretch of several events.
std::optional<EventRef> eventOfRange(const Trace& trace, const FindingRange& range);

// The track RANGE lies on: its stream, its thread's CUDA API row, or for a device-wide range (a GPU gap,
// stream 0) the device's first stream in RANGE's process; nothing when the trace has no such track.
std::optional<uint32_t> trackOfRange(const Trace& trace, const FindingRange& range);

// The positions in FINDING's ranges in the order a user should meet them: those that share time with WINDOW
// (the window the verdict judged, the steady state) first, then the rest, each group in the finding's
// order. Without a window, the finding's order. A jump to a finding goes to the first: a gap of the steady
// state, not of the warm-up's first step.
std::vector<size_t> placesPreferring(const Finding& finding, std::optional<TimeInterval> window);

// Zooms SESSION to RANGE with a tenth of its length on each side, picks it as the ruler range, and
// selects its event; where there is none (a gap, several events), clears the selection and brings RANGE's
// track into view instead.
void focusFindingRange(TraceSession& session, const FindingRange& range);

}  // namespace gpuscope::ui
