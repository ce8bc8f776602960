#pragma once
// TraceSummary: what is in a trace (span, processes, threads, devices, streams, counts), for `info` and the UI.
#include <string>

#include "core/model/trace.h"
#include "core/schema/trace_schema.h"
#include "core/text/units.h"  // formatDuration, formatBytes: most users of the summary want them too

namespace gpuscope {

// Human-readable multi-line text, as `gpuscope info` prints it; TABLES (tableRowCounts of the trace's file)
// adds a line per table the file has, with its rows.
std::string formatSummaryText(const Trace& trace, const std::vector<TableRowCount>& tables = {});
// The same facts as JSON text.
std::string formatSummaryJson(const Trace& trace, const std::vector<TableRowCount>& tables = {});

}  // namespace gpuscope
