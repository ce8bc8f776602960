#pragma once
// TraceSummary: what is in a trace (span, processes, threads, devices, streams, counts), for `info` and the UI.
#include <string>

#include "core/model/trace.h"
#include "core/text/units.h"  // formatDuration, formatBytes: most users of the summary want them too

namespace gpuscope {

// Human-readable multi-line text, as `gpuscope info` prints it.
std::string formatSummaryText(const Trace& trace);
// The same facts as JSON text.
std::string formatSummaryJson(const Trace& trace);

}  // namespace gpuscope
