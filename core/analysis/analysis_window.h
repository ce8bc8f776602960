#pragma once
// AnalysisWindow: the part of a trace a rule looks at, from its start/end/nvtx options, as nsys's
// rules take them. An event is in the window when it starts at or after begin and ends at or
// before end.
//
// One of the two time types that remain (the other is TimeInterval, core/model/time_interval.h, for
// every plain stretch [start, end)). This one stays its own type because it is a filter, not a stretch:
// either side may be open (INT64_MIN / INT64_MAX when no option sets it), it keeps only the events that
// lie wholly inside (inclusive end, as nsys's rules count), and it writes itself as an SQL condition.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/analysis/analysis_rule.h"
#include "core/model/trace_types.h"

namespace gpuscope {

struct AnalysisWindow {
  TimeNs begin = INT64_MIN;
  TimeNs end = INT64_MAX;
  // The processes whose events count (global_id::processOf values, sorted); empty: every process.
  std::vector<int64_t> processes = {};
  bool contains(TimeNs start, TimeNs stop) const { return start >= begin && stop <= end; }
  // Whether the process of GLOBALID (a globalPid or globalTid) is one whose events count.
  bool holdsProcess(int64_t globalId) const;
  // An SQL condition on a table's start and end columns and its global id column ID_COLUMN (globalPid, or
  // globalTid for the CUDA API and OS runtime tables), each with PREFIX (such as "k.").
  std::string sqlCondition(const std::string& prefix, std::string_view idColumn = "globalPid") const;
};

// The window the options describe: nvtx=name[@domain][/index] (the index-th range of that name,
// counting from 1) narrows start/end further, and so does the options' scope (a rank's processes and its
// judged window, analysis_rule.h). Throws TraceError for an NVTX range that is not in the file or a start
// after the end.
AnalysisWindow analysisWindow(const Database& db, const RuleOptions& options);

}  // namespace gpuscope
