#pragma once
// TraceSummary: what is in a trace (span, processes, threads, devices, streams, counts), for `info` and the UI.
#include <string>

#include "core/model/trace.h"

namespace gpuscope {

// Human-readable multi-line text, as `gpuscope info` prints it.
std::string formatSummaryText(const Trace& trace);
// The same facts as JSON text.
std::string formatSummaryJson(const Trace& trace);
// Durations at the edge: "1.234 ms", "56.7 us", "890 ns", "2.5 s".
std::string formatDuration(TimeNs ns);
std::string formatBytes(int64_t bytes);

}  // namespace gpuscope
